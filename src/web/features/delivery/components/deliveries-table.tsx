import type { Delivery } from '@shared/contracts/delivery';
import { Button } from '@web/components/ui/button';
import { type DataColumn, DataTable, type DataTableProps } from '@web/components/ui/data-table';
import { Spinner } from '@web/components/ui/spinner';
import { RotateCw } from 'lucide-react';
import type { ReactNode } from 'react';
import { channelLabel, DeliveryStatusBadge } from './delivery-status-badge';
import { WhenText } from './when-text';

/** The receiver's last answer: its code, or the error when it gave none (or both). */
function LastResponse({ delivery }: { delivery: Delivery }) {
  if (delivery.responseCode === null && !delivery.error) return '—';
  return (
    <div className="flex flex-col" data-testid="delivery-last-response">
      {delivery.responseCode !== null && (
        <span className="font-medium tabular-nums">{delivery.responseCode}</span>
      )}
      {delivery.error && (
        <span className="text-muted-foreground text-xs" title={delivery.error}>
          {delivery.error.length > 120 ? `${delivery.error.slice(0, 120)}…` : delivery.error}
        </span>
      )}
    </div>
  );
}

function columns(timeZone: string): DataColumn<Delivery>[] {
  return [
    {
      header: 'Lead',
      phone: 'title',
      minWidth: 'min-w-28',
      cell: (d) => (
        <>
          <div>{d.leadName}</div>
          <div className="font-normal text-muted-foreground text-xs">Lead #{d.leadId}</div>
        </>
      ),
    },
    { header: 'Agent', minWidth: 'min-w-24', cell: (d) => d.agentName },
    { header: 'Channel', nowrap: true, cell: (d) => channelLabel(d.channel) },
    {
      header: 'Status',
      phone: 'badge',
      nowrap: true,
      cell: (d) => <DeliveryStatusBadge status={d.status} />,
    },
    {
      header: 'Attempts',
      nowrap: true,
      cell: (d) => <span className="tabular-nums">{d.attempts}</span>,
    },
    {
      header: 'Last Response',
      minWidth: 'min-w-32',
      cell: (d) => <LastResponse delivery={d} />,
    },
    {
      header: 'Updated',
      minWidth: 'min-w-24',
      cell: (d) => <WhenText iso={d.updatedAt} timeZone={timeZone} />,
    },
  ];
}

/** The deliveries, a table on a desktop and cards on a phone, with Retry on failed ones. */
export function DeliveriesTable({
  deliveries,
  view,
  error,
  empty,
  timeZone,
  retryingId,
  onRetry,
}: {
  deliveries: Delivery[];
  view: DataTableProps<Delivery>['view'];
  error: DataTableProps<Delivery>['error'];
  empty: ReactNode;
  timeZone: string;
  /** the delivery whose retry is being sent */
  retryingId: number | null;
  /** row: the row (or card) of the button, where the focus goes once the button is gone */
  onRetry: (delivery: Delivery, row: HTMLElement | null) => void;
}) {
  return (
    <DataTable
      label="Deliveries"
      columns={columns(timeZone)}
      rows={deliveries}
      rowKey={(d) => d.id}
      rowTestId="delivery-row"
      view={view}
      empty={empty}
      error={error}
      actions={{
        header: 'Actions',
        cell: (d) =>
          d.status === 'FAILED' ? (
            <Button
              size="sm"
              variant="outline"
              // aria-disabled, not disabled: the button keeps the focus while the retry runs
              aria-disabled={retryingId === d.id || undefined}
              onClick={(event) => {
                if (retryingId === d.id) return;
                onRetry(d, event.currentTarget.closest<HTMLElement>('[data-focus-row]'));
              }}
              aria-label={`Retry delivery of ${d.leadName} by ${channelLabel(d.channel)}`}
            >
              {retryingId === d.id ? <Spinner /> : <RotateCw aria-hidden="true" />}
              {retryingId === d.id ? 'Retrying...' : 'Retry'}
            </Button>
          ) : (
            <span className="text-muted-foreground text-xs">—</span>
          ),
      }}
    />
  );
}
