import type { Lead } from '@shared/contracts/leads';
import { leadName } from '@shared/format';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardHeader } from '@web/components/ui/card';
import {
  LeadsFilterBar,
  type LeadsListState,
  LeadsPager,
} from '@web/features/leads/components/leads-list-controls';
import { LeadsTable } from '@web/features/leads/components/leads-table';
import { listView } from '@web/lib/list-view';
import { useState } from 'react';
import { LeadCallButton } from '../../calls/components/lead-call-button';
import { agentLeadsQuery } from '../api';
import { UpdateLeadStatusDrawer } from './update-lead-status-drawer';

/**
 * My Leads: the agent's own leads, searched, filtered and paged by the server (an agent gathers
 * thousands of leads over a year) under the page's filter, and each row opens the status drawer.
 */
export function AgentLeadsPanel({ list }: { list: LeadsListState }) {
  const [selected, setSelected] = useState<Lead | null>(null);
  const page = useQuery({ ...agentLeadsQuery(list.params), placeholderData: keepPreviousData });
  const leads = page.data?.leads ?? [];
  const view = listView(page, leads.length);

  return (
    <Card className="gap-4">
      <CardHeader className="flex flex-col gap-3 max-md:px-4 sm:flex-row sm:items-center sm:justify-between">
        <LeadsFilterBar state={list} page={page.data} failed={view === 'error'} />
      </CardHeader>
      <CardContent className="space-y-4 max-md:px-4">
        <LeadsTable
          callingWindow
          leads={leads}
          view={view}
          error={{
            message: 'Your leads could not be loaded.',
            onRetry: () => page.refetch(),
            retrying: page.isFetching,
          }}
          action={(lead) => (
            <div className="flex flex-wrap items-start gap-2">
              <LeadCallButton lead={lead} />
              <Button
                size="sm"
                variant="outline"
                onClick={() => setSelected(lead)}
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
      <UpdateLeadStatusDrawer lead={selected} onClose={() => setSelected(null)} />
    </Card>
  );
}
