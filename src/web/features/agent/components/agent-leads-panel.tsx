import type { Lead } from '@shared/contracts/leads';
import { leadName } from '@shared/format';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardHeader } from '@web/components/ui/card';
import { toast } from '@web/components/ui/use-toast';
import { markLeadViewed } from '@web/features/alerts/api';
import {
  LeadsFilterBar,
  type LeadsListState,
  LeadsPager,
} from '@web/features/leads/components/leads-list-controls';
import { LeadsTable } from '@web/features/leads/components/leads-table';
import { listView } from '@web/lib/list-view';
import { useEffect } from 'react';
import { LeadCallButton } from '../../calls/components/lead-call-button';
import { agentLeadQuery, agentLeadsQuery } from '../api';
import { UpdateLeadStatusDrawer } from './update-lead-status-drawer';

/**
 * The lead whose drawer is open (`?lead=ID`): from the page when it is on it, else asked of the
 * server (a link from an email or the bell). Another agent's lead, or one gone, answers 404: the
 * list stays as it is, a toast says so, and nothing of that lead is shown.
 */
function useOpenLead(list: LeadsListState, onPage: Lead[]): Lead | null {
  const { leadId } = list;
  const fromPage = onPage.find((lead) => lead.id === leadId) ?? null;
  const linked = useQuery({
    ...agentLeadQuery(leadId ?? 0),
    enabled: leadId !== null && fromPage === null,
  });
  const refused = leadId !== null && fromPage === null && linked.isError;
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per refused link
  useEffect(() => {
    if (!refused) return;
    toast({
      variant: 'destructive',
      title: 'This lead is not yours',
      description: 'It may have gone to another agent, or the link is wrong.',
    });
    list.openLead(null, { replace: true });
  }, [refused]);
  if (leadId === null) return null;
  return fromPage ?? (linked.data?.id === leadId ? linked.data : null);
}

/**
 * The agent opened this lead (from the list, a push, an SMS or an email link): the server keeps
 * the first view (speed to open). Once per lead opened; a failure is not the agent's concern.
 */
function useMarkViewed(lead: Lead | null) {
  const id = lead?.id ?? null;
  useEffect(() => {
    if (id !== null) markLeadViewed(id).catch(() => {});
  }, [id]);
}

/**
 * My Leads: the agent's own leads, searched, filtered, ordered and paged by the server (an agent
 * gathers thousands of leads over a year) under the page's filter, kept in the URL; each lead's
 * name opens its drawer, as Update Status does.
 */
export function AgentLeadsPanel({ list }: { list: LeadsListState }) {
  const page = useQuery({ ...agentLeadsQuery(list.params), placeholderData: keepPreviousData });
  const leads = page.data?.leads ?? [];
  const view = listView(page, leads.length);
  const selected = useOpenLead(list, leads);
  useMarkViewed(selected);

  return (
    <Card className="gap-4">
      <CardHeader className="flex flex-col gap-3 max-md:px-4 lg:flex-row lg:items-center lg:justify-between">
        <LeadsFilterBar sortable state={list} page={page.data} failed={view === 'error'} />
      </CardHeader>
      <CardContent className="space-y-4 max-md:px-4">
        <LeadsTable
          callingWindow
          received
          leads={leads}
          view={view}
          onOpen={(lead) => list.openLead(lead.id)}
          error={{
            message: 'Your leads could not be loaded.',
            onRetry: () => page.refetch(),
            retrying: page.isFetching,
          }}
          action={(lead) => (
            <div className="flex flex-wrap items-start gap-2 max-md:flex-nowrap">
              <LeadCallButton lead={lead} thumb />
              <Button
                size="sm"
                variant="outline"
                className="max-md:h-11 max-md:flex-1"
                onClick={() => list.openLead(lead.id)}
                aria-label={`Update Status: ${leadName(lead)}`}
              >
                Update Status
              </Button>
            </div>
          )}
        />
        {view !== 'error' && (
          <LeadsPager state={list} page={page.data} fetching={page.isFetching} />
        )}
      </CardContent>
      <UpdateLeadStatusDrawer
        lead={selected}
        onClose={() => list.openLead(null, { replace: true })}
      />
    </Card>
  );
}
