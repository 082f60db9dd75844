import type { AdminAgent } from '@shared/contracts/admin';
import type { Lead } from '@shared/contracts/leads';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Card, CardContent, CardHeader } from '@web/components/ui/card';
import { useState } from 'react';
import { adminLeadsQuery } from '../api';
import { AdminLeadsTable } from './admin-leads-table';
import { AssignLeadDialog } from './assign-lead-dialog';
import { LeadsFilterBar, LeadsPager, useLeadsListState } from './leads-list-controls';

/**
 * All leads, searched, filtered and paged by the server (the list can hold millions), with the
 * Assign dialog.
 */
export function AdminLeadsPanel({
  agents,
  agentsLoading,
}: {
  agents: AdminAgent[];
  agentsLoading: boolean;
}) {
  const list = useLeadsListState();
  const [assigning, setAssigning] = useState<Lead | null>(null);
  const page = useQuery({ ...adminLeadsQuery(list.params), placeholderData: keepPreviousData });

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
        <AdminLeadsTable
          leads={page.data?.leads ?? []}
          isLoading={page.isPending}
          onAssign={setAssigning}
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
