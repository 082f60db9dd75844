import type { AdminAgent } from '@shared/contracts/admin';
import type { Lead } from '@shared/contracts/leads';
import { leadName } from '@shared/format';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardHeader } from '@web/components/ui/card';
import { UserPlus } from 'lucide-react';
import { useMemo, useState } from 'react';
import { adminLeadsQuery } from '../api';
import { AssignLeadDialog } from './assign-lead-dialog';
import { LeadsFilterBar, type LeadsListState, LeadsPager } from './leads-list-controls';
import { type LeadColumn, LeadsTable } from './leads-table';

/**
 * All leads, searched, filtered and paged by the server (the list can hold millions), with the
 * agent each one went to and the Assign dialog. The page holds the list's filter (it also feeds
 * the export).
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
  const page = useQuery({ ...adminLeadsQuery(list.params), placeholderData: keepPreviousData });
  const agentColumn = useMemo((): LeadColumn => {
    const names = new Map(agents.map((agent) => [agent.id, agent.name]));
    return {
      header: 'Agent',
      cell: (lead) => (lead.agentId === null ? '—' : (names.get(lead.agentId) ?? '—')),
    };
  }, [agents]);

  return (
    <Card className="gap-4">
      <CardHeader className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <LeadsFilterBar state={list} page={page.data} />
      </CardHeader>
      <CardContent className="space-y-4">
        {page.isError && (
          <p role="alert" className="text-destructive text-sm">
            The leads could not be loaded. Please try again.
          </p>
        )}
        <LeadsTable
          leads={page.data?.leads ?? []}
          isLoading={page.isPending}
          columns={[agentColumn]}
          action={(lead) =>
            // Assign only while a lead is NEW; the rest have gone to an agent already.
            lead.status === 'NEW' ? (
              <Button
                size="sm"
                onClick={() => setAssigning(lead)}
                aria-label={`Assign ${leadName(lead)}`}
              >
                <UserPlus aria-hidden="true" />
                Assign
              </Button>
            ) : (
              <span className="text-muted-foreground text-sm">Assigned</span>
            )
          }
        />
        <LeadsPager state={list} page={page.data} fetching={page.isFetching} />
      </CardContent>
      <AssignLeadDialog
        lead={assigning}
        agents={agents}
        agentsLoading={agentsLoading}
        onClose={() => setAssigning(null)}
      />
    </Card>
  );
}
