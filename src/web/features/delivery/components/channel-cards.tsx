import type { ChannelSummary } from '@shared/contracts/delivery';
import { DELIVERY_CHANNELS } from '@shared/domain';
import { formatPercent } from '@shared/format';
import { Card, CardContent, CardHeader, CardTitle } from '@web/components/ui/card';
import { Skeleton } from '@web/components/ui/skeleton';
import { cn } from '@web/lib/utils';
import { Mail, Webhook } from 'lucide-react';
import { channelLabel } from './delivery-status-badge';

const STATE: Record<ChannelSummary['state'], { label: string; dot: string; text: string }> = {
  OPERATIONAL: {
    label: 'Operational',
    dot: 'bg-green-500',
    text: 'text-green-700 dark:text-green-400',
  },
  FAILING: { label: 'Failing', dot: 'bg-destructive', text: 'text-destructive' },
  NOT_CONFIGURED: {
    label: 'Not configured',
    dot: 'bg-muted-foreground',
    text: 'text-muted-foreground',
  },
};

function ChannelCard({ summary }: { summary: ChannelSummary }) {
  const state = STATE[summary.state];
  const Icon = summary.channel === 'EMAIL' ? Mail : Webhook;
  const figures: [string, number][] = [
    ['Sent', summary.sent],
    ['Failed', summary.failed],
    ['Pending', summary.pending],
  ];
  return (
    <Card className="gap-4" data-testid="channel-card" data-channel={summary.channel}>
      <CardHeader className="flex flex-row items-center justify-between gap-2">
        <CardTitle asChild>
          <h2 className="flex items-center gap-2 font-medium text-sm">
            <Icon className="size-4 text-muted-foreground" aria-hidden="true" />
            {channelLabel(summary.channel)}
          </h2>
        </CardTitle>
        <span
          className={cn('flex items-center gap-2 font-medium text-sm', state.text)}
          data-testid="channel-state"
          data-state={summary.state}
        >
          <span className={cn('size-2 rounded-full', state.dot)} aria-hidden="true" />
          {state.label}
        </span>
      </CardHeader>
      <CardContent className="space-y-3">
        <div>
          <p className="font-bold text-2xl" data-testid="channel-success-rate">
            {summary.successRate === null ? '—' : formatPercent(summary.successRate * 100)}
          </p>
          <p className="text-muted-foreground text-xs">Success rate, last 24 hours</p>
        </div>
        <dl className="grid grid-cols-3 gap-2 text-sm">
          {figures.map(([term, value]) => (
            <div key={term} className="rounded-md bg-muted/50 px-3 py-2">
              <dt className="text-muted-foreground text-xs">{term}</dt>
              <dd className="font-semibold tabular-nums">{value.toLocaleString('en-US')}</dd>
            </div>
          ))}
        </dl>
      </CardContent>
    </Card>
  );
}

/** One card per channel; placeholders while the first answer loads. */
export function ChannelCards({ channels }: { channels: ChannelSummary[] | undefined }) {
  return (
    <section aria-label="Channels" className="grid gap-4 md:grid-cols-2">
      {channels
        ? [...channels]
            .sort(
              (a, b) => DELIVERY_CHANNELS.indexOf(a.channel) - DELIVERY_CHANNELS.indexOf(b.channel),
            )
            .map((summary) => <ChannelCard key={summary.channel} summary={summary} />)
        : DELIVERY_CHANNELS.map((channel) => (
            <Card key={channel} className="gap-4" data-testid="channel-card-skeleton">
              <CardHeader>
                <Skeleton className="h-5 w-32" />
              </CardHeader>
              <CardContent className="space-y-3">
                <Skeleton className="h-8 w-20" />
                <Skeleton className="h-12 w-full" />
              </CardContent>
            </Card>
          ))}
    </section>
  );
}
