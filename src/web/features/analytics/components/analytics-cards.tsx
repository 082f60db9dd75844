import type { Analytics } from '@shared/contracts/admin';
import { formatConversionRate } from '@shared/format';
import { Card, CardContent, CardHeader, CardTitle } from '@web/components/ui/card';
import { Skeleton } from '@web/components/ui/skeleton';
import { CheckCircle, type LucideIcon, TrendingUp, UserCheck, Users } from 'lucide-react';

function Figure({
  title,
  icon: Icon,
  value,
  testId,
}: {
  title: string;
  icon: LucideIcon;
  value: string | number;
  testId: string;
}) {
  return (
    <Card className="gap-3" data-testid={testId}>
      <CardHeader className="flex flex-row items-center justify-between gap-2">
        <CardTitle asChild>
          <h2 className="font-medium text-sm">{title}</h2>
        </CardTitle>
        <Icon className="size-4 text-muted-foreground" aria-hidden="true" />
      </CardHeader>
      <CardContent>
        <p className="font-bold text-2xl" data-testid={`${testId}-value`}>
          {value}
        </p>
      </CardContent>
    </Card>
  );
}

export function AnalyticsCards({ data }: { data: Analytics }) {
  return (
    <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-4">
      <Figure title="Total Leads" icon={Users} value={data.totalLeads} testId="card-total-leads" />
      <Figure
        title="Assigned Leads"
        icon={UserCheck}
        value={data.assignedLeads}
        testId="card-assigned-leads"
      />
      <Figure
        title="Converted"
        icon={CheckCircle}
        value={data.convertedLeads}
        testId="card-converted"
      />
      <Figure
        title="Conversion Rate"
        icon={TrendingUp}
        value={formatConversionRate(data.convertedLeads, data.assignedLeads)}
        testId="card-conversion-rate"
      />
    </div>
  );
}

/** 4 placeholder cards while the figures load (docs/domain.md, Screens). */
export function AnalyticsCardsLoading() {
  return (
    <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-4" data-testid="analytics-loading">
      {['a', 'b', 'c', 'd'].map((key) => (
        <Card key={key} className="gap-3">
          <CardHeader>
            <Skeleton className="h-4 w-24" />
          </CardHeader>
          <CardContent>
            <Skeleton className="h-8 w-20" />
          </CardContent>
        </Card>
      ))}
    </div>
  );
}
