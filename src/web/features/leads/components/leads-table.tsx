import type { Lead } from '@shared/contracts/leads';
import { categoryLabel, leadName, leadPlace } from '@shared/format';
import { formatPhone } from '@shared/phone';
import { Badge } from '@web/components/ui/badge';
import { type DataColumn, DataTable, type DataTableProps } from '@web/components/ui/data-table';
import { EmailText } from '@web/components/ui/email-text';
import type { ReactNode } from 'react';
import { telHref } from '../lead-display';
import { LeadCallingWindow } from './lead-calling-window';
import { LeadStatusBadge } from './lead-status-badge';

/** A column a screen adds to the shared ones, before Actions (the admin's Agent). */
export type LeadColumn = DataColumn<Lead>;

// at least 24 px high: a finger on a phone's card finds them (WCAG 2.5.8)
const linkClass = 'inline-flex min-h-6 items-center rounded-sm underline-offset-4 hover:underline';

/**
 * The lead's phone and email as links: a tap calls or writes from a phone. With
 * `callingWindow` (My Leads), when the lead may be called shows under the phone.
 */
function ContactLinks({ lead, callingWindow = false }: { lead: Lead; callingWindow?: boolean }) {
  return (
    <div className="flex flex-col text-sm">
      {lead.phone ? (
        <a
          href={telHref(lead.phone)}
          className={linkClass}
          aria-label={`Call ${formatPhone(lead.phone)}`}
        >
          {formatPhone(lead.phone)}
        </a>
      ) : (
        <span>—</span>
      )}
      {callingWindow && lead.phone && <LeadCallingWindow lead={lead} compact />}
      {lead.email ? (
        <a
          href={`mailto:${lead.email}`}
          className={`${linkClass} text-muted-foreground text-xs`}
          aria-label={`Email ${lead.email}`}
        >
          <EmailText email={lead.email} />
        </a>
      ) : (
        <span className="text-muted-foreground text-xs">—</span>
      )}
    </div>
  );
}

const baseColumns = (callingWindow: boolean): LeadColumn[] => [
  { header: 'Name', cell: leadName, phone: 'title', minWidth: 'min-w-24' },
  {
    header: 'Contact',
    cell: (lead) => <ContactLinks lead={lead} callingWindow={callingWindow} />,
    minWidth: callingWindow ? 'min-w-44' : 'min-w-34',
  },
  { header: 'Location', cell: leadPlace, minWidth: 'min-w-24' },
  { header: 'Age', cell: (lead) => lead.age, nowrap: true },
  {
    header: 'Category',
    cell: (lead) => <Badge variant="outline">{categoryLabel(lead.category)}</Badge>,
    nowrap: true,
  },
  {
    header: 'Status',
    cell: (lead) => <LeadStatusBadge status={lead.status} />,
    nowrap: true,
    phone: 'badge',
  },
];

/**
 * The leads of My Leads and of the admin's Leads Management: the same columns, plus any a screen
 * adds, and the screen's own action on each row (Update Status, Assign). A table on a desktop,
 * a card per lead on a phone; one state at a time (loading, error with Retry, empty, rows).
 */
export function LeadsTable({
  leads,
  view,
  error,
  columns = [],
  action,
  callingWindow = false,
}: {
  leads: Lead[];
  view: DataTableProps<Lead>['view'];
  error: DataTableProps<Lead>['error'];
  columns?: LeadColumn[];
  action: (lead: Lead) => ReactNode;
  /** the agent's list: each lead's calling window under its phone (docs/domain.md, Calling window) */
  callingWindow?: boolean;
}) {
  return (
    <DataTable
      label="Leads"
      columns={[...baseColumns(callingWindow), ...columns]}
      rows={leads}
      rowKey={(lead) => lead.id}
      rowTestId="lead-row"
      actions={{ header: 'Actions', cell: action }}
      view={view}
      empty="No leads found"
      error={error}
    />
  );
}
