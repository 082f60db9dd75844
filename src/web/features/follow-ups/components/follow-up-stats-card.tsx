import type { FollowUpStats } from '@shared/contracts/follow-ups';
import { useQuery } from '@tanstack/react-query';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@web/components/ui/card';
import { LoadError } from '@web/components/ui/load-error';
import { Skeleton } from '@web/components/ui/skeleton';
import { MessageSquare } from 'lucide-react';
import { followUpStatsQuery } from '../api';

const STATE_LABEL = {
  OPERATIONAL: 'Operational',
  FAILING: 'Failing',
  NOT_CONFIGURED: 'Not configured',
} as const;

type Figures = FollowUpStats['last24h'];

function Period({ title, figures, testId }: { title: string; figures: Figures; testId: string }) {
  const blocked = figures.blocked.reduce((sum, b) => sum + b.count, 0);
  const rows: [string, number][] = [
    ['Sent', figures.sent],
    ['Delivered', figures.delivered],
    ['Failed', figures.failed],
    ['Waiting for the window', figures.waiting],
    ['Blocked', blocked],
  ];
  return (
    <section aria-label={title} className="space-y-2" data-testid={testId}>
      <h3 className="font-medium text-sm">{title}</h3>
      <dl className="grid grid-cols-[1fr_auto] gap-x-4 gap-y-1 text-sm">
        {rows.map(([label, value]) => (
          <div
            key={label}
            className="contents"
            data-testid={`figure-${label.split(' ')[0]!.toLowerCase()}`}
          >
            <dt className="text-muted-foreground">{label}</dt>
            <dd className="text-right font-medium tabular-nums">{value.toLocaleString('en-US')}</dd>
          </div>
        ))}
      </dl>
      {figures.blocked.length > 0 && (
        <ul className="space-y-0.5 border-t pt-2 text-muted-foreground text-xs">
          {figures.blocked.map((b) => (
            <li key={b.reason} className="flex justify-between gap-4">
              <span>{b.reason}</span>
              <span className="tabular-nums">{b.count.toLocaleString('en-US')}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** Follow-up messages on the admin's Deliveries screen (docs/domain.md, Follow-up messages and calls): volumes and failures. */
export function FollowUpStatsCard() {
  const stats = useQuery(followUpStatsQuery);
  return (
    <Card data-testid="follow-up-stats">
      <CardHeader>
        <CardTitle asChild>
          <h2 className="flex items-center gap-2 text-lg">
            <MessageSquare className="size-5" aria-hidden="true" />
            Follow-up Messages
          </h2>
        </CardTitle>
        <CardDescription>
          {stats.data
            ? `SMS: ${STATE_LABEL[stats.data.sms]} · Email: ${STATE_LABEL[stats.data.email]}`
            : 'The agents’ messages to their new leads'}
        </CardDescription>
      </CardHeader>
      <CardContent>
        {stats.isError ? (
          <LoadError
            message="The follow-up figures could not be loaded."
            onRetry={() => stats.refetch()}
            retrying={stats.isFetching}
          />
        ) : !stats.data ? (
          <Skeleton className="h-24 w-full" />
        ) : (
          <div className="grid gap-6 sm:grid-cols-2">
            <Period title="Last 24 hours" figures={stats.data.last24h} testId="follow-up-24h" />
            <Period title="Last 7 days" figures={stats.data.last7d} testId="follow-up-7d" />
          </div>
        )}
      </CardContent>
    </Card>
  );
}
