import type { Lead } from '@shared/contracts/leads';
import { categoryLabel, leadName, leadPlace } from '@shared/format';
import { formatPhone } from '@shared/phone';
import { Badge } from '@web/components/ui/badge';
import { type DataColumn, DataTable, type DataTableProps } from '@web/components/ui/data-table';
import { EmailText } from '@web/components/ui/email-text';
import { Clock } from 'lucide-react';
import { type ReactNode, useEffect, useState } from 'react';
import { exactTime, receivedAgo, telHref } from '../lead-display';
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

/** The lead's name, a button that opens its details when the list offers them. */
function LeadNameCell({ lead, onOpen }: { lead: Lead; onOpen?: (lead: Lead) => void }) {
  if (!onOpen) return leadName(lead);
  return (
    <button
      type="button"
      className={`${linkClass} text-left font-medium underline decoration-muted-foreground/40`}
      onClick={() => onOpen(lead)}
      data-testid="lead-open"
    >
      {leadName(lead)}
    </button>
  );
}

/** The minute, kept current while the list shows how long ago each lead came. */
function useMinute(on: boolean): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    if (!on) return;
    const timer = setInterval(() => setNow(new Date()), 60_000);
    return () => clearInterval(timer);
  }, [on]);
  return now;
}

// on a phone's card it sits beside the status, under the thumb's glance: how long the lead waited
const receivedColumn = (now: Date): LeadColumn => ({
  header: 'Received',
  nowrap: true,
  phone: 'badge',
  cell: (lead) =>
    lead.assignedAt ? (
      <time
        dateTime={lead.assignedAt}
        title={exactTime(lead.assignedAt)}
        className="inline-flex items-center gap-1 text-sm max-md:text-muted-foreground max-md:text-xs"
        data-testid="lead-received"
      >
        <Clock className="size-3 md:hidden" aria-hidden="true" />
        <span className="sr-only md:hidden">Received </span>
        {receivedAgo(lead.assignedAt, now)}
      </time>
    ) : (
      '—'
    ),
});

const baseColumns = (
  callingWindow: boolean,
  onOpen: ((lead: Lead) => void) | undefined,
): LeadColumn[] => [
  {
    header: 'Name',
    cell: (lead) => <LeadNameCell lead={lead} onOpen={onOpen} />,
    phone: 'title',
    minWidth: 'min-w-24',
  },
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
    cell: (lead) => (
      <span className="inline-flex flex-wrap items-center gap-1">
        <LeadStatusBadge status={lead.status} />
        {lead.returnPending && (
          <Badge variant="outline" data-testid="return-pending">
            Return pending
          </Badge>
        )}
        {lead.onDnc && (
          <Badge variant="destructive" data-testid="lead-on-dnc" title="Do not call or message">
            Do not call
          </Badge>
        )}
      </span>
    ),
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
  received = false,
  onOpen,
}: {
  leads: Lead[];
  view: DataTableProps<Lead>['view'];
  error: DataTableProps<Lead>['error'];
  columns?: LeadColumn[];
  action: (lead: Lead) => ReactNode;
  /** the agent's list: each lead's calling window under its phone (docs/domain.md, Calling window) */
  callingWindow?: boolean;
  /** the agent's list: when each lead was received, "12 min ago" (the exact time on hover) */
  received?: boolean;
  /** opens a lead's details from its name */
  onOpen?: (lead: Lead) => void;
}) {
  const now = useMinute(received);
  return (
    <DataTable
      label="Leads"
      columns={[
        ...baseColumns(callingWindow, onOpen),
        ...(received ? [receivedColumn(now)] : []),
        ...columns,
      ]}
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
