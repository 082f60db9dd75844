import type { Package } from '@shared/contracts/packages';
import { categoryLabel, formatLeadPrice, formatPrice } from '@shared/format';
import { Badge } from '@web/components/ui/badge';
import { Button } from '@web/components/ui/button';
import { type DataColumn, DataTable, type DataTableProps } from '@web/components/ui/data-table';
import { ListOrdered, Pencil, Power, PowerOff } from 'lucide-react';
import { type ReactNode, useMemo } from 'react';

function priceColumn(onPriceList: (pkg: Package) => void): DataColumn<Package> {
  return {
    header: 'Price',
    nowrap: true,
    cell: (pkg) => <PriceCell pkg={pkg} onPriceList={() => onPriceList(pkg)} />,
  };
}

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
    // 1280 px beside the sidebar even when the names are long unbroken words; it breaks at its
    // space only, so "MEDICARE" stays whole
    cell: (pkg) => (
      <Badge variant="outline" className="wrap-normal whitespace-normal text-center">
        {categoryLabel(pkg.category)}
      </Badge>
    ),
  },
  // the Price column is the table's own: a pay-per-lead package's opens its price list
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

/**
 * A month's price; or a lead's, the least its price list asks when lower, and the price list's
 * button (under the price, so the Actions column keeps its width).
 */
function PriceCell({ pkg, onPriceList }: { pkg: Package; onPriceList: () => void }) {
  if (pkg.pricing !== 'PER_LEAD') return `${formatPrice(pkg.priceMonthlyCents)}/mo`;
  const perLead = pkg.perLeadCents ?? 0;
  const from = pkg.fromPerLeadCents;
  return (
    <div className="space-y-1">
      <div>{formatLeadPrice(perLead)} / lead</div>
      {from !== null && from < perLead && (
        <div className="text-muted-foreground text-xs">from {formatLeadPrice(from)}</div>
      )}
      <Button
        size="sm"
        variant="link"
        className="h-auto gap-1 p-0 text-xs underline"
        onClick={onPriceList}
        aria-label={`Price list of ${pkg.name}`}
      >
        <ListOrdered aria-hidden="true" />
        Price list
      </Button>
    </div>
  );
}

export function PackagesTable({
  packages,
  view,
  error,
  empty,
  pendingId,
  onEdit,
  onToggleActive,
  onPriceList,
}: {
  packages: Package[];
  view: DataTableProps<Package>['view'];
  error: DataTableProps<Package>['error'];
  empty: ReactNode;
  /** the package whose activation is being saved */
  pendingId: number | null;
  onEdit: (pkg: Package) => void;
  onToggleActive: (pkg: Package) => void;
  /** a pay-per-lead package's price list */
  onPriceList: (pkg: Package) => void;
}) {
  const columns = useMemo(
    () => [...COLUMNS.slice(0, 2), priceColumn(onPriceList), ...COLUMNS.slice(2)],
    [onPriceList],
  );
  return (
    <DataTable
      label="Packages"
      columns={columns}
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
