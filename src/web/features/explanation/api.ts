import type { LeadExplanation, LeadFit, UnfitReasons } from '@shared/contracts/explanation';
import { queryOptions } from '@tanstack/react-query';
import { getQueryFn } from '@web/lib/query-client';

/** Why the lead went where it went, or why it is still NEW (docs/domain.md, Analytics that explain). */
export function leadExplanationQuery(leadId: number) {
  return queryOptions({
    queryKey: [`/api/admin/leads/${leadId}/explain`] as const,
    queryFn: getQueryFn<LeadExplanation>({ on401: 'throw' }),
    staleTime: 0,
  });
}

/** Every condition of the fit rule the agent fails for the lead: the Assign Lead warnings. */
export function leadFitQuery(leadId: number, agentId: number) {
  return queryOptions({
    queryKey: [`/api/admin/leads/${leadId}/fit/${agentId}`] as const,
    queryFn: getQueryFn<LeadFit>({ on401: 'throw' }),
    staleTime: 0,
  });
}

/** NEW leads that fit no agent, counted by reason (docs/domain.md, Analytics that explain). */
export const unfitReasonsQuery = queryOptions({
  queryKey: ['/api/admin/leads/unfit-reasons'] as const,
  queryFn: getQueryFn<UnfitReasons>({ on401: 'throw' }),
  staleTime: 0,
});
