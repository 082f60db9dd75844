import type { PrivacyDeletion } from '@shared/contracts/privacy';
import { Badge } from '@web/components/ui/badge';
import { type DataColumn, DataTable, type DataTableProps } from '@web/components/ui/data-table';
import { WhenText } from '@web/features/delivery/components/when-text';
import type { ReactNode } from 'react';

type Counts = PrivacyDeletion['webhooks'];

/** "2 sent · 1 failed": how far a request's tasks of one kind have come. */
function TaskSummary({ counts, done }: { counts: Counts; done: string }) {
  const total = counts.done + counts.pending + counts.failed + counts.skipped;
  if (total === 0) return <span className="text-muted-foreground">None</span>;
  return (
    <span className="flex flex-wrap gap-1">
      {counts.done > 0 && <Badge variant="secondary">{`${counts.done} ${done}`}</Badge>}
      {counts.pending > 0 && <Badge variant="outline">{`${counts.pending} pending`}</Badge>}
      {counts.skipped > 0 && <Badge variant="outline">{`${counts.skipped} webhook off`}</Badge>}
      {counts.failed > 0 && <Badge variant="destructive">{`${counts.failed} failed`}</Badge>}
    </span>
  );
}

function contactKinds(row: PrivacyDeletion): string {
  if (row.byPhone && row.byEmail) return 'Phone and email';
  return row.byPhone ? 'Phone' : 'Email';
}

function columns(timeZone: string): DataColumn<PrivacyDeletion>[] {
  return [
    {
      header: 'Requested',
      phone: 'title',
      nowrap: true,
      cell: (row) => <WhenText iso={row.createdAt} timeZone={timeZone} />,
    },
    { header: 'By', cell: (row) => row.requestedBy?.name ?? '—' },
    { header: 'Matched On', cell: (row) => contactKinds(row) },
    {
      header: 'Leads Anonymized',
      cell: (row) => (
        <span className="tabular-nums" data-testid="deletion-leads">
          {row.leads.toLocaleString('en-US')}
        </span>
      ),
    },
    {
      header: 'CRMs Told',
      cell: (row) => <TaskSummary counts={row.webhooks} done="sent" />,
    },
    {
      header: 'Recordings',
      cell: (row) => <TaskSummary counts={row.recordings} done="removed" />,
    },
  ];
}

export function DeletionsTable({
  rows,
  timeZone,
  view,
  error,
  empty,
}: {
  rows: PrivacyDeletion[];
  timeZone: string;
  view: DataTableProps<PrivacyDeletion>['view'];
  error: DataTableProps<PrivacyDeletion>['error'];
  empty: ReactNode;
}) {
  return (
    <DataTable
      label="Deletion requests"
      columns={columns(timeZone)}
      rows={rows}
      rowKey={(row) => String(row.id)}
      rowTestId="deletion-row"
      view={view}
      empty={empty}
      error={error}
    />
  );
}
