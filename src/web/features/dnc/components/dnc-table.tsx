import type { DncNumber } from '@shared/contracts/dnc';
import { formatPhone } from '@shared/phone';
import { Button } from '@web/components/ui/button';
import { type DataColumn, DataTable, type DataTableProps } from '@web/components/ui/data-table';
import { WhenText } from '@web/features/delivery/components/when-text';
import { Trash2 } from 'lucide-react';
import type { ReactNode } from 'react';

function columns(timeZone: string): DataColumn<DncNumber>[] {
  return [
    {
      header: 'Number',
      phone: 'title',
      nowrap: true,
      cell: (row) => (
        <span className="font-medium tabular-nums" data-testid="dnc-phone">
          {formatPhone(row.phone)}
        </span>
      ),
    },
    {
      header: 'Added',
      cell: (row) => <WhenText iso={row.addedAt} timeZone={timeZone} />,
    },
    {
      header: 'Added By',
      minWidth: 'min-w-24',
      cell: (row) => row.addedBy?.name ?? <span className="text-muted-foreground">—</span>,
    },
  ];
}

export function DncTable({
  rows,
  timeZone,
  view,
  error,
  empty,
  onRemove,
}: {
  rows: DncNumber[];
  timeZone: string;
  view: DataTableProps<DncNumber>['view'];
  error: DataTableProps<DncNumber>['error'];
  empty: ReactNode;
  onRemove: (row: DncNumber) => void;
}) {
  return (
    <DataTable
      label="Do-not-call numbers"
      columns={columns(timeZone)}
      rows={rows}
      rowKey={(row) => row.phone}
      rowTestId="dnc-row"
      view={view}
      empty={empty}
      error={error}
      actions={{
        header: 'Actions',
        cell: (row) => (
          <Button
            size="sm"
            variant="outline"
            onClick={() => onRemove(row)}
            aria-label={`Remove ${formatPhone(row.phone)}`}
          >
            <Trash2 aria-hidden="true" />
            Remove
          </Button>
        ),
      }}
    />
  );
}
