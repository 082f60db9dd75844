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
import { useState } from 'react';
import { agentLeadsQuery } from '../api';
import { UpdateLeadStatusDrawer } from './update-lead-status-drawer';

/**
 * My Leads: the agent's own leads, searched, filtered and paged by the server (an agent gathers
 * thousands of leads over a year) under the page's filter, and each row opens the status drawer.
 */
export function AgentLeadsPanel({ list }: { list: LeadsListState }) {
  const [selected, setSelected] = useState<Lead | null>(null);
  const page = useQuery({ ...agentLeadsQuery(list.params), placeholderData: keepPreviousData });

  return (
    <Card className="gap-4">
      <CardHeader className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <LeadsFilterBar state={list} page={page.data} />
      </CardHeader>
      <CardContent className="space-y-4">
        {page.isError ? (
          <p role="alert" className="py-8 text-center text-destructive text-sm">
            Your leads could not be loaded. Please reload the page.
          </p>
        ) : (
          <LeadsTable
            leads={page.data?.leads ?? []}
            isLoading={page.isPending}
            action={(lead) => (
              <Button
                size="sm"
                variant="outline"
                onClick={() => setSelected(lead)}
                aria-label={`Update Status: ${leadName(lead)}`}
              >
                Update Status
              </Button>
            )}
          />
        )}
        <LeadsPager state={list} page={page.data} fetching={page.isFetching} />
      </CardContent>
      <UpdateLeadStatusDrawer lead={selected} onClose={() => setSelected(null)} />
    </Card>
  );
}
