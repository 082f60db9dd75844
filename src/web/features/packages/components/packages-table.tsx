import type { Package } from '@shared/contracts/packages';
import { categoryLabel, formatPrice } from '@shared/format';
import { Badge } from '@web/components/ui/badge';
import { Button } from '@web/components/ui/button';
import { type DataColumn, DataTable, type DataTableProps } from '@web/components/ui/data-table';
import { Pencil, Power, PowerOff } from 'lucide-react';
import type { ReactNode } from 'react';

const COLUMNS: DataColumn<Package>[] = [
  {
    header: 'Name',
    phone: 'title',
    minWidth: 'min-w-32',
    cell: (pkg) => (
      <>
        <div className="font-medium">{pkg.name}</div>
        <div className="font-normal text-muted-foreground text-xs">{pkg.slug}</div>
      </>
    ),
  },
  {
    header: 'Category',
    // "FINAL EXPENSE" may take two lines: with the Actions column whole, every column fits at
    // 1280 px beside the sidebar even when the names are long unbroken words
    cell: (pkg) => (
      <Badge variant="outline" className="whitespace-normal text-center">
        {categoryLabel(pkg.category)}
      </Badge>
    ),
  },
  { header: 'Price', cell: (pkg) => `${formatPrice(pkg.priceMonthlyCents)}/mo`, nowrap: true },
  { header: 'Leads/Day', cell: (pkg) => pkg.leadsPerDay, nowrap: true },
  { header: 'Commission', cell: (pkg) => `${pkg.commissionPct}%`, nowrap: true },
  { header: 'Enrollment Only', cell: (pkg) => (pkg.enrollmentOnly ? 'Yes' : 'No'), nowrap: true },
  {
    header: 'Status',
    phone: 'badge',
    nowrap: true,
    cell: (pkg) => (
      <Badge variant={pkg.active ? 'default' : 'secondary'} data-testid="package-status">
        {pkg.active ? 'Active' : 'Inactive'}
      </Badge>
    ),
  },
];

export function PackagesTable({
  packages,
  view,
  error,
  empty,
  pendingId,
  onEdit,
  onToggleActive,
}: {
  packages: Package[];
  view: DataTableProps<Package>['view'];
  error: DataTableProps<Package>['error'];
  empty: ReactNode;
  /** the package whose activation is being saved */
  pendingId: number | null;
  onEdit: (pkg: Package) => void;
  onToggleActive: (pkg: Package) => void;
}) {
  return (
    <DataTable
      label="Packages"
      columns={COLUMNS}
      rows={packages}
      rowKey={(pkg) => pkg.id}
      rowTestId="package-row"
      view={view}
      empty={empty}
      error={error}
      actions={{
        header: 'Actions',
        cell: (pkg) => (
          <>
            <Button
              size="sm"
              variant="outline"
              onClick={() => onEdit(pkg)}
              aria-label={`Edit ${pkg.name}`}
            >
              <Pencil aria-hidden="true" />
              Edit
            </Button>
            <Button
              size="sm"
              variant="outline"
              disabled={pendingId === pkg.id}
              // as wide as Deactivate, so every row's Edit lines up
              className="min-w-30"
              onClick={() => onToggleActive(pkg)}
              aria-label={`${pkg.active ? 'Deactivate' : 'Activate'} ${pkg.name}`}
            >
              {pkg.active ? <PowerOff aria-hidden="true" /> : <Power aria-hidden="true" />}
              {pkg.active ? 'Deactivate' : 'Activate'}
            </Button>
          </>
        ),
      }}
    />
  );
}
