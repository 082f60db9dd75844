import type { Lead } from '@shared/contracts/leads';
import { categoryLabel, leadName, leadPlace } from '@shared/format';
import { Badge } from '@web/components/ui/badge';
import { Skeleton } from '@web/components/ui/skeleton';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@web/components/ui/table';
import type { ReactNode } from 'react';
import { LeadStatusBadge } from './lead-status-badge';

/** A column a screen adds to the shared ones, before Actions (the admin's Agent). */
export interface LeadColumn {
  header: string;
  cell: (lead: Lead) => ReactNode;
}

const BASE_COLUMNS: LeadColumn[] = [
  { header: 'Name', cell: leadName },
  {
    header: 'Contact',
    cell: (lead) => (
      <div className="flex flex-col text-sm">
        <span>{lead.phone ?? '—'}</span>
        <span className="text-muted-foreground text-xs">{lead.email ?? '—'}</span>
      </div>
    ),
  },
  { header: 'Location', cell: leadPlace },
  { header: 'Age', cell: (lead) => lead.age },
  {
    header: 'Category',
    cell: (lead) => <Badge variant="outline">{categoryLabel(lead.category)}</Badge>,
  },
  { header: 'Status', cell: (lead) => <LeadStatusBadge status={lead.status} /> },
];
const SKELETON_ROWS = 3;

/**
 * The leads of My Leads and of the admin's Leads Management: the same columns, plus any a screen
 * adds, and the screen's own action on each row (Update Status, Assign).
 */
export function LeadsTable({
  leads,
  isLoading,
  columns = [],
  action,
}: {
  leads: Lead[];
  isLoading: boolean;
  columns?: LeadColumn[];
  action: (lead: Lead) => ReactNode;
}) {
  const shown = [...BASE_COLUMNS, ...columns];
  const width = shown.length + 1;
  return (
    <Table aria-busy={isLoading}>
      <TableHeader>
        <TableRow>
          {shown.map(({ header }) => (
            <TableHead key={header}>{header}</TableHead>
          ))}
          <TableHead className="text-right">Actions</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {isLoading &&
          Array.from({ length: SKELETON_ROWS }, (_, row) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity.
            <TableRow key={row} data-testid="lead-row-skeleton">
              {Array.from({ length: width }, (_, cell) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity.
                <TableCell key={cell}>
                  <Skeleton className="h-5 w-full min-w-12" />
                </TableCell>
              ))}
            </TableRow>
          ))}
        {!isLoading && leads.length === 0 && (
          <TableRow>
            <TableCell colSpan={width} className="h-24 text-center text-muted-foreground">
              No leads found
            </TableCell>
          </TableRow>
        )}
        {!isLoading &&
          leads.map((lead) => (
            <TableRow key={lead.id} data-testid="lead-row">
              {shown.map(({ header, cell }, index) => (
                <TableCell key={header} className={index === 0 ? 'font-medium' : undefined}>
                  {cell(lead)}
                </TableCell>
              ))}
              <TableCell className="text-right">{action(lead)}</TableCell>
            </TableRow>
          ))}
      </TableBody>
    </Table>
  );
}
