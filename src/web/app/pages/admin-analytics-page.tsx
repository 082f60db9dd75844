import { useQuery } from '@tanstack/react-query';
import { PageHeader } from '@web/components/layout/page-header';
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

// recharts is imported only here: this page is a lazy route, so no other screen loads it.
export function AdminAnalyticsPage() {
  const { data, isPending, isError } = useQuery(analyticsQuery);
  return (
    <div className="space-y-6">
      <PageHeader title="Analytics" description="Performance metrics and insights" />
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
    </div>
  );
}
