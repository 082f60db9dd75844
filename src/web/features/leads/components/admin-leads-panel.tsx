import type { AdminAgent } from '@shared/contracts/admin';
import type { MisfitReason } from '@shared/contracts/explanation';
import type { Lead } from '@shared/contracts/leads';
import { formatBusinessTime, leadName } from '@shared/format';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardHeader } from '@web/components/ui/card';
import { toast } from '@web/components/ui/use-toast';
import { useBusinessTimeZone } from '@web/features/admin/api';
import { listView } from '@web/lib/list-view';
import { ArrowRightLeft, Info, UserPlus } from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';
import { UnfitReasonsBar } from '../../explanation/components/unfit-reasons-bar';
import { adminLeadQuery, adminLeadsQuery } from '../api';
import { AdminLeadDrawer } from './admin-lead-drawer';
import { AssignLeadDialog, isReassignable } from './assign-lead-dialog';
import { LeadsFilterBar, type LeadsListState, LeadsPager } from './leads-list-controls';
import { type LeadColumn, LeadsTable } from './leads-table';

/** A business time that wraps between its date and its hour, never inside either. */
function WhenText({ iso, timeZone }: { iso: string; timeZone: string }) {
  const [day, ...hour] = formatBusinessTime(iso, timeZone).split(', ');
  return (
    <time dateTime={iso}>
      <span className="whitespace-nowrap">{hour.length > 0 ? `${day},` : day}</span>{' '}
      <span className="whitespace-nowrap">{hour.join(', ')}</span>
    </time>
  );
}

/** Who holds the lead, and since when (in the business time zone, labelled). */
function agentColumn(agents: AdminAgent[], timeZone: string): LeadColumn {
  const names = new Map(agents.map((agent) => [agent.id, agent.name]));
  return {
    header: 'Agent',
    minWidth: 'min-w-28',
    cell: (lead) =>
      lead.agentId === null ? (
        '—'
      ) : (
        <div className="flex flex-col" data-testid="lead-agent">
          <span>{names.get(lead.agentId) ?? `Agent #${lead.agentId}`}</span>
          {lead.assignedAt && (
            <span className="text-muted-foreground text-xs">
              Assigned <WhenText iso={lead.assignedAt} timeZone={timeZone} />
            </span>
          )}
        </div>
      ),
  };
}

/**
 * The lead whose drawer is open (`?lead=ID`): from the page when it is on it, else asked of the
 * server (a link from the bell); a lead that does not exist leaves the list as it is, with a toast.
 */
function useViewedLead(list: LeadsListState, onPage: Lead[]): Lead | null {
  const { leadId } = list;
  const fromPage = onPage.find((lead) => lead.id === leadId) ?? null;
  const linked = useQuery({
    ...adminLeadQuery(leadId ?? 0),
    enabled: leadId !== null && fromPage === null,
  });
  const missing = leadId !== null && fromPage === null && linked.isError;
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per refused link
  useEffect(() => {
    if (!missing) return;
    toast({ variant: 'destructive', title: 'Lead not found', description: 'Check the link.' });
    list.openLead(null, { replace: true });
  }, [missing]);
  if (leadId === null) return null;
  return fromPage ?? (linked.data?.id === leadId ? linked.data : null);
}

/**
 * All leads, searched, filtered and paged by the server (the list can hold millions), with the
 * agent each one went to and when, and the Assign dialog. The page holds the list's filter (it
 * also feeds the export).
 */
export function AdminLeadsPanel({
  list,
  agents,
  agentsLoading,
}: {
  list: LeadsListState;
  agents: AdminAgent[];
  agentsLoading: boolean;
}) {
  const [assigning, setAssigning] = useState<Lead | null>(null);
  // the "fits no agent" reason the list is filtered by (the open lead is in the URL)
  const [noFit, setNoFit] = useState<MisfitReason | null>(null);
  const params = noFit ? { ...list.params, noFit } : list.params;
  const page = useQuery({ ...adminLeadsQuery(params), placeholderData: keepPreviousData });
  const timeZone = useBusinessTimeZone();
  const columns = useMemo(() => [agentColumn(agents, timeZone)], [agents, timeZone]);
  const leads = page.data?.leads ?? [];
  const view = listView(page, leads.length);
  const viewing = useViewedLead(list, leads);

  return (
    <Card className="gap-4">
      <CardHeader className="flex flex-col gap-3 max-md:px-4 sm:flex-row sm:items-center sm:justify-between">
        <LeadsFilterBar state={list} page={page.data} failed={view === 'error'} />
      </CardHeader>
      <div className="px-6 max-md:px-4">
        <UnfitReasonsBar
          selected={noFit}
          onSelect={(reason) => {
            setNoFit(reason);
            list.setOffset(0);
          }}
        />
      </div>
      <CardContent className="space-y-4 max-md:px-4">
        <LeadsTable
          leads={leads}
          view={view}
          error={{
            message: 'The leads could not be loaded.',
            onRetry: () => page.refetch(),
            retrying: page.isFetching,
          }}
          columns={columns}
          onOpen={(lead) => list.openLead(lead.id)}
          action={(lead) => (
            <div className="flex flex-wrap gap-2">
              <Button
                size="sm"
                variant="outline"
                onClick={() => list.openLead(lead.id)}
                aria-label={`Details of ${leadName(lead)}`}
              >
                <Info aria-hidden="true" />
                Details
              </Button>
              {
                // Assign while a lead is NEW; Reassign while an agent works it; the rest are done.
                // (keyed apart: once assigned, the Assign button is gone and the focus goes to its row)
                lead.status === 'NEW' ? (
                  <Button
                    key="assign"
                    size="sm"
                    onClick={() => setAssigning(lead)}
                    aria-label={`Assign ${leadName(lead)}`}
                  >
                    <UserPlus aria-hidden="true" />
                    Assign
                  </Button>
                ) : isReassignable(lead) ? (
                  <Button
                    key="reassign"
                    size="sm"
                    variant="outline"
                    onClick={() => setAssigning(lead)}
                    aria-label={`Reassign ${leadName(lead)}`}
                  >
                    <ArrowRightLeft aria-hidden="true" />
                    Reassign
                  </Button>
                ) : (
                  <span className="text-muted-foreground text-sm">Assigned</span>
                )
              }
            </div>
          )}
        />
        {view !== 'error' && (
          <LeadsPager state={list} page={page.data} fetching={page.isFetching} />
        )}
      </CardContent>
      <AdminLeadDrawer lead={viewing} onClose={() => list.openLead(null, { replace: true })} />
      <AssignLeadDialog
        lead={assigning}
        agents={agents}
        agentsLoading={agentsLoading}
        onClose={() => setAssigning(null)}
      />
    </Card>
  );
}
