import type { Delivery } from '@shared/contracts/delivery';
import {
  DELIVERY_CHANNELS,
  DELIVERY_STATUSES,
  type DeliveryChannel,
  type DeliveryStatus,
} from '@shared/domain';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardHeader } from '@web/components/ui/card';
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '@web/components/ui/select';
import { Spinner } from '@web/components/ui/spinner';
import { toast } from '@web/components/ui/use-toast';
import { useBusinessTimeZone } from '@web/features/admin/api';
import { FollowUpStatsCard } from '@web/features/follow-ups/components/follow-up-stats-card';
import { errorMessage } from '@web/lib/api-client';
import { listView } from '@web/lib/list-view';
import { ChevronLeft, ChevronRight, RefreshCw } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { adminDeliveriesQuery, DELIVERIES_PAGE_SIZE, useRetryDelivery } from '../api';
import { ChannelCards } from './channel-cards';
import { DeliveriesTable } from './deliveries-table';
import { channelLabel, deliveryStatusLabel } from './delivery-status-badge';

const ALL = 'ALL';

function emptyText(status: DeliveryStatus | typeof ALL): string {
  return status === ALL
    ? 'No deliveries'
    : `No ${deliveryStatusLabel(status).toLowerCase()} deliveries`;
}

/** The focus stays where the admin was once a row's Retry button has become its new state. */
function focusRow(row: HTMLElement | null) {
  requestAnimationFrame(() => {
    if (!row?.isConnected) return;
    if (!row.hasAttribute('tabindex')) row.setAttribute('tabindex', '-1');
    row.focus({ preventScroll: true });
  });
}

/**
 * The deliveries log: each channel's health over the last 24 hours, then the deliveries under a
 * status (failed first: what needs a hand) and channel filter, with Retry on the failed ones.
 */
export function AdminDeliveriesPanel({
  renderHeader,
}: {
  /** the page's header, given the Refresh button for its actions */
  renderHeader: (refreshButton: ReactNode) => ReactNode;
}) {
  const [status, setStatusValue] = useState<DeliveryStatus | typeof ALL>('FAILED');
  const [channel, setChannelValue] = useState<DeliveryChannel | typeof ALL>(ALL);
  const [offset, setOffset] = useState(0);
  const timeZone = useBusinessTimeZone();
  const list = useQuery({
    ...adminDeliveriesQuery({
      status: status === ALL ? undefined : status,
      channel: channel === ALL ? undefined : channel,
      offset,
    }),
    placeholderData: keepPreviousData,
  });
  const retry = useRetryDelivery();
  const items = list.data?.items ?? [];
  const total = list.data?.total ?? 0;
  const view = listView(list, items.length);

  function onRetry(delivery: Delivery, row: HTMLElement | null) {
    retry.mutate(delivery, {
      onSuccess: () => {
        toast({
          title: 'Delivery queued again',
          description: `${delivery.leadName} by ${channelLabel(delivery.channel)}`,
        });
        focusRow(row);
      },
      onError: (error) =>
        toast({
          variant: 'destructive',
          title: 'Retry failed',
          description: errorMessage(error, 'Failed to retry the delivery'),
        }),
    });
  }

  const refreshing = list.isFetching && !list.isPending;
  const lastPage = offset + DELIVERIES_PAGE_SIZE >= total;
  return (
    <>
      {renderHeader(
        <Button
          variant="outline"
          aria-disabled={refreshing || undefined}
          onClick={() => {
            if (!refreshing) list.refetch();
          }}
        >
          {refreshing ? <Spinner /> : <RefreshCw aria-hidden="true" />}
          Refresh
        </Button>,
      )}
      {view !== 'error' && <ChannelCards channels={list.data?.channels} />}
      <FollowUpStatsCard />
      <Card className="gap-4">
        <CardHeader className="flex flex-col gap-3 max-md:px-4 sm:flex-row sm:items-center sm:justify-between">
          <div className="flex w-full flex-col gap-3 sm:flex-row sm:items-center">
            <Select
              value={status}
              onValueChange={(value) => {
                setStatusValue(value as DeliveryStatus | typeof ALL);
                setOffset(0);
              }}
            >
              <SelectTrigger className="w-full sm:w-44" aria-label="Filter by status">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                <SelectItem value={ALL}>All Statuses</SelectItem>
                {DELIVERY_STATUSES.map((s) => (
                  <SelectItem key={s} value={s}>
                    {deliveryStatusLabel(s)}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
            <Select
              value={channel}
              onValueChange={(value) => {
                setChannelValue(value as DeliveryChannel | typeof ALL);
                setOffset(0);
              }}
            >
              <SelectTrigger className="w-full sm:w-44" aria-label="Filter by channel">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                <SelectItem value={ALL}>All Channels</SelectItem>
                {DELIVERY_CHANNELS.map((c) => (
                  <SelectItem key={c} value={c}>
                    {channelLabel(c)}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </div>
          <p
            className="shrink-0 text-muted-foreground text-sm"
            data-testid="delivery-count"
            aria-live="polite"
          >
            {view === 'error'
              ? ''
              : list.data
                ? `${total.toLocaleString('en-US')} ${total === 1 ? 'delivery' : 'deliveries'}`
                : 'Loading deliveries...'}
          </p>
        </CardHeader>
        <CardContent className="space-y-4 max-md:px-4">
          <DeliveriesTable
            deliveries={items}
            view={view}
            timeZone={timeZone}
            error={{
              message: 'The deliveries could not be loaded.',
              onRetry: () => list.refetch(),
              retrying: list.isFetching,
            }}
            empty={emptyText(status)}
            retryingId={retry.isPending ? (retry.variables?.id ?? null) : null}
            onRetry={onRetry}
          />
          {view === 'rows' && total > DELIVERIES_PAGE_SIZE && (
            <div className="flex flex-wrap items-center justify-between gap-2">
              <p className="text-muted-foreground text-sm">
                Showing {offset + 1}–{offset + items.length} of {total.toLocaleString('en-US')}
              </p>
              <div className="flex gap-2">
                <Button
                  variant="outline"
                  size="sm"
                  disabled={offset === 0 || list.isFetching}
                  onClick={() => setOffset(Math.max(0, offset - DELIVERIES_PAGE_SIZE))}
                >
                  <ChevronLeft aria-hidden="true" />
                  Previous
                </Button>
                <Button
                  variant="outline"
                  size="sm"
                  disabled={lastPage || list.isFetching}
                  onClick={() => setOffset(offset + DELIVERIES_PAGE_SIZE)}
                >
                  Next
                  <ChevronRight aria-hidden="true" />
                </Button>
              </div>
            </div>
          )}
        </CardContent>
      </Card>
    </>
  );
}
