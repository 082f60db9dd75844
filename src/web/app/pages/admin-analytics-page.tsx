import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { PageHeader } from '@web/components/layout/page-header';
import { useBusinessTimeZone } from '@web/features/admin/api';
import { analyticsQuery } from '@web/features/analytics/api';
import {
  AnalyticsCards,
  AnalyticsCardsLoading,
} from '@web/features/analytics/components/analytics-cards';
import {
  AssignmentsOverTimeChart,
  CategoryDistributionChart,
  ConversionsByAgentChart,
  SummaryStatisticsCard,
} from '@web/features/analytics/components/analytics-charts';
import { PeriodPicker, periodOfDays } from '@web/features/analytics/components/period-picker';
import {
  SourcesSection,
  SpeedToLeadSection,
  SpeedToOpenSection,
} from '@web/features/analytics/components/speed-and-sources';
import { useMemo, useState } from 'react';

// recharts is imported only here: this page is a lazy route, so no other screen loads it.
export function AdminAnalyticsPage() {
  const timeZone = useBusinessTimeZone();
  const [days, setDays] = useState(30);
  const period = useMemo(() => periodOfDays(days, timeZone), [days, timeZone]);
  // the last period's figures stay on screen while the next one loads
  const { data, isPending, isError } = useQuery({
    ...analyticsQuery(period),
    placeholderData: keepPreviousData,
  });
  return (
    <div className="space-y-6">
      {/* one period for the whole page: the tiles, every chart, speed to lead and sources */}
      <PageHeader
        title="Analytics"
        description="Performance metrics and insights"
        actions={<PeriodPicker days={days} onChange={setDays} />}
      />
      {isPending && (
        <>
          <p className="text-muted-foreground" role="status">
            Loading analytics data...
          </p>
          <AnalyticsCardsLoading />
        </>
      )}
      {isError && (
        <p role="alert" className="text-destructive text-sm">
          The analytics could not be loaded. Please reload the page.
        </p>
      )}
      {data && (
        <>
          <AnalyticsCards data={data} />
          <div className="grid gap-4 lg:grid-cols-2">
            <AssignmentsOverTimeChart data={data.assignmentsOverTime} />
            <ConversionsByAgentChart data={data.conversionsByAgent} />
            <CategoryDistributionChart data={data.categoryDistribution} />
            <SummaryStatisticsCard data={data} />
          </div>
        </>
      )}
      <section aria-labelledby="explain-heading" className="space-y-4">
        <h2 id="explain-heading" className="font-semibold text-lg">
          Speed to lead, speed to open and sources
        </h2>
        <div className="grid gap-4 xl:grid-cols-2">
          <SpeedToLeadSection period={period} />
          <SpeedToOpenSection period={period} />
        </div>
        <SourcesSection period={period} />
      </section>
    </div>
  );
}
