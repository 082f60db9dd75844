/** Returns and credits (docs/domain.md, Returns and credits): the agent's request on a lead, the admin's queue. */
import type {
  AdminReturn,
  AdminReturnList,
  LeadReturn,
  LeadReturnState,
} from '@shared/contracts/returns';
import type { ReturnReason, ReturnStatus } from '@shared/domain';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@web/lib/api-client';
import { getQueryFn } from '@web/lib/query-client';

/** The lead's latest return, for its agent's drawer. */
export const leadReturnQuery = (leadId: number) =>
  queryOptions({
    queryKey: [`/api/agent/leads/${leadId}/return`] as const,
    queryFn: getQueryFn<LeadReturnState>({ on401: 'throw' }),
    // read again each time the drawer opens: an admin may have decided since
    staleTime: 0,
  });

export function useRequestReturn(leadId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { reason: ReturnReason; note: string }) =>
      apiJson<LeadReturn>('POST', `/api/agent/leads/${leadId}/return`, body),
    onSuccess: async (created) => {
      queryClient.setQueryData(leadReturnQuery(leadId).queryKey, { return: created });
      await queryClient.invalidateQueries({ queryKey: [`/api/agent/leads/${leadId}/activity`] });
    },
  });
}

/** The admin's queue of one status; `pending` feeds the menu's badge. */
export const adminReturnsQuery = (status: ReturnStatus) =>
  queryOptions({
    queryKey: ['/api/admin/returns', { status }] as const,
    queryFn: getQueryFn<AdminReturnList>({ on401: 'throw' }),
  });

export function useDecideReturn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, approve, note }: { id: number; approve: boolean; note: string }) =>
      apiJson<AdminReturn>('POST', `/api/admin/returns/${id}/decision`, { approve, note }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({
        predicate: (q) => q.queryKey[0] === '/api/admin/returns',
      });
      await queryClient.invalidateQueries({ queryKey: ['/api/admin/leads'] });
    },
  });
}
