import type { Source } from '@shared/contracts/sources';
import { formatPriceExact } from '@shared/format';
import { Badge } from '@web/components/ui/badge';
import { Button } from '@web/components/ui/button';
import { type DataColumn, DataTable, type DataTableProps } from '@web/components/ui/data-table';
import { KeyRound, Pencil, Power, PowerOff } from 'lucide-react';
import type { ReactNode } from 'react';

const COLUMNS: DataColumn<Source>[] = [
  {
    header: 'Name',
    phone: 'title',
    minWidth: 'min-w-32',
    cell: (source) => <span className="font-medium">{source.name}</span>,
  },
  {
    header: 'Cost per Lead',
    nowrap: true,
    cell: (source) => formatPriceExact(source.costPerLeadCents),
  },
  { header: 'Leads', nowrap: true, cell: (source) => source.leads.toLocaleString('en-US') },
  { header: 'Active Keys', nowrap: true, cell: (source) => source.activeKeys },
  {
    header: 'Status',
    phone: 'badge',
    nowrap: true,
    cell: (source) => (
      <Badge variant={source.active ? 'default' : 'secondary'} data-testid="source-status">
        {source.active ? 'Active' : 'Inactive'}
      </Badge>
    ),
  },
];

export function SourcesTable({
  sources,
  view,
  error,
  empty,
  pendingId,
  onEdit,
  onKeys,
  onToggleActive,
}: {
  sources: Source[];
  view: DataTableProps<Source>['view'];
  error: DataTableProps<Source>['error'];
  empty: ReactNode;
  /** the source whose activation is being saved */
  pendingId: number | null;
  onEdit: (source: Source) => void;
  onKeys: (source: Source) => void;
  onToggleActive: (source: Source) => void;
}) {
  return (
    <DataTable
      label="Sources"
      columns={COLUMNS}
      rows={sources}
      rowKey={(source) => source.id}
      rowTestId="source-row"
      view={view}
      empty={empty}
      error={error}
      actions={{
        header: 'Actions',
        cell: (source) => (
          <>
            <Button
              size="sm"
              variant="outline"
              onClick={() => onKeys(source)}
              aria-label={`API keys of ${source.name}`}
            >
              <KeyRound aria-hidden="true" />
              Keys
            </Button>
            <Button
              size="sm"
              variant="outline"
              onClick={() => onEdit(source)}
              aria-label={`Edit ${source.name}`}
            >
              <Pencil aria-hidden="true" />
              Edit
            </Button>
            <Button
              size="sm"
              variant="outline"
              disabled={pendingId === source.id}
              className="min-w-30"
              onClick={() => onToggleActive(source)}
              aria-label={`${source.active ? 'Deactivate' : 'Activate'} ${source.name}`}
            >
              {source.active ? <PowerOff aria-hidden="true" /> : <Power aria-hidden="true" />}
              {source.active ? 'Deactivate' : 'Activate'}
            </Button>
          </>
        ),
      }}
    />
  );
}
