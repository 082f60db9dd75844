import type { Package } from '@shared/contracts/packages';
import { categoryLabel, formatPrice } from '@shared/format';
import { Badge } from '@web/components/ui/badge';
import { Button } from '@web/components/ui/button';
import { Skeleton } from '@web/components/ui/skeleton';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@web/components/ui/table';
import { Pencil, Power, PowerOff } from 'lucide-react';

const COLUMNS = [
  'Name',
  'Category',
  'Price',
  'Leads/Day',
  'Commission',
  'Enrollment Only',
  'Status',
  'Actions',
];

export function PackagesTable({
  packages,
  isLoading,
  pendingId,
  onEdit,
  onToggleActive,
}: {
  packages: Package[];
  isLoading: boolean;
  /** the package whose activation is being saved */
  pendingId: number | null;
  onEdit: (pkg: Package) => void;
  onToggleActive: (pkg: Package) => void;
}) {
  return (
    <Table aria-busy={isLoading}>
      <TableHeader>
        <TableRow>
          {COLUMNS.map((column) => (
            <TableHead key={column} className={column === 'Actions' ? 'text-right' : undefined}>
              {column}
            </TableHead>
          ))}
        </TableRow>
      </TableHeader>
      <TableBody>
        {isLoading &&
          Array.from({ length: 3 }, (_, row) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity.
            <TableRow key={row}>
              {COLUMNS.map((column) => (
                <TableCell key={column}>
                  <Skeleton className="h-5 w-full min-w-12" />
                </TableCell>
              ))}
            </TableRow>
          ))}
        {packages.map((pkg) => (
          <TableRow key={pkg.id} data-testid="package-row">
            <TableCell>
              <div className="font-medium">{pkg.name}</div>
              <div className="text-muted-foreground text-xs">{pkg.slug}</div>
            </TableCell>
            <TableCell>
              <Badge variant="outline">{categoryLabel(pkg.category)}</Badge>
            </TableCell>
            <TableCell>{formatPrice(pkg.priceMonthlyCents)}/mo</TableCell>
            <TableCell>{pkg.leadsPerDay}</TableCell>
            <TableCell>{pkg.commissionPct}%</TableCell>
            <TableCell>{pkg.enrollmentOnly ? 'Yes' : 'No'}</TableCell>
            <TableCell>
              <Badge variant={pkg.active ? 'default' : 'secondary'} data-testid="package-status">
                {pkg.active ? 'Active' : 'Inactive'}
              </Badge>
            </TableCell>
            <TableCell>
              <div className="flex justify-end gap-2">
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
                  onClick={() => onToggleActive(pkg)}
                  aria-label={`${pkg.active ? 'Deactivate' : 'Activate'} ${pkg.name}`}
                >
                  {pkg.active ? <PowerOff aria-hidden="true" /> : <Power aria-hidden="true" />}
                  {pkg.active ? 'Deactivate' : 'Activate'}
                </Button>
              </div>
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
