import type { Lead } from '@shared/contracts/leads';
import { categoryLabel } from '@shared/format';
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
import { leadName, leadPlace } from '@web/features/leads/lead-display';
import { LeadStatusBadge } from './lead-status-badge';

const COLUMNS = ['Name', 'Contact', 'Location', 'Age', 'Category', 'Status', 'Actions'];
const SKELETON_ROWS = 3;

export function LeadsTable({
  leads,
  isLoading,
  onUpdateStatus,
}: {
  leads: Lead[];
  isLoading: boolean;
  onUpdateStatus: (lead: Lead) => void;
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
          Array.from({ length: SKELETON_ROWS }, (_, row) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity.
            <TableRow key={row} data-testid="lead-row-skeleton">
              {COLUMNS.map((column) => (
                <TableCell key={column}>
                  <Skeleton className="h-5 w-full min-w-12" />
                </TableCell>
              ))}
            </TableRow>
          ))}
        {!isLoading && leads.length === 0 && (
          <TableRow>
            <TableCell colSpan={COLUMNS.length} className="h-24 text-center text-muted-foreground">
              No leads found
            </TableCell>
          </TableRow>
        )}
        {!isLoading &&
          leads.map((lead) => (
            <TableRow key={lead.id} data-testid="lead-row">
              <TableCell className="font-medium">{leadName(lead)}</TableCell>
              <TableCell>
                <div className="flex flex-col text-sm">
                  <span>{lead.phone ?? '—'}</span>
                  <span className="text-muted-foreground text-xs">{lead.email ?? '—'}</span>
                </div>
              </TableCell>
              <TableCell>{leadPlace(lead)}</TableCell>
              <TableCell>{lead.age}</TableCell>
              <TableCell>
                <Badge variant="outline">{categoryLabel(lead.category)}</Badge>
              </TableCell>
              <TableCell>
                <LeadStatusBadge status={lead.status} />
              </TableCell>
              <TableCell className="text-right">
                <Button
                  size="sm"
                  variant="outline"
                  onClick={() => onUpdateStatus(lead)}
                  aria-label={`Update Status: ${leadName(lead)}`}
                >
                  Update Status
                </Button>
              </TableCell>
            </TableRow>
          ))}
      </TableBody>
    </Table>
  );
}
