import type { ImportResult, Lead, LeadListQuery } from '@shared/contracts/leads';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { adminAgentsQuery, adminStatsQuery, healthQuery } from '@web/features/admin/api';
import { analyticsQuery } from '@web/features/analytics/api';
import { apiJson, throwIfResNotOk } from '@web/lib/api-client';
import { queryKeyToUrl } from '@web/lib/query-client';

export interface LeadsPage {
  leads: Lead[];
  /** every lead matching the filter (X-Total-Count), not just this page */
  total: number;
}

/** Every admin leads page, whatever its filter, starts with this key. */
export const adminLeadsKey = ['/api/admin/leads'] as const;

/** One page of the admin list, searched and filtered by the server. */
export function adminLeadsQuery(params: LeadListQuery) {
  return queryOptions({
    queryKey: [...adminLeadsKey, params] as const,
    queryFn: async ({ queryKey, signal }): Promise<LeadsPage> => {
      const res = await fetch(queryKeyToUrl(queryKey), { credentials: 'include', signal });
      await throwIfResNotOk(res);
      const leads = (await res.json()) as Lead[];
      const total = Number(res.headers.get('X-Total-Count') ?? leads.length);
      return { leads, total };
    },
  });
}

/** An assignment changes the lists, the agent's quota and totals, and the platform figures. */
export function useAssignLead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ leadId, userId }: { leadId: number; userId: number }) =>
      apiJson<Lead>('POST', '/api/admin/leads/assign', { leadId, userId }),
    onSuccess: () =>
      Promise.all(
        [
          adminLeadsKey,
          adminAgentsQuery.queryKey,
          adminStatsQuery.queryKey,
          analyticsQuery.queryKey,
        ].map((queryKey) => queryClient.invalidateQueries({ queryKey })),
      ),
  });
}

/** An import adds leads and may run an assignment (which the System Status reports). */
export function useImportLeads() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (file: File) => {
      const form = new FormData();
      form.append('file', file);
      return apiJson<ImportResult>('POST', '/api/admin/leads/import', form);
    },
    onSuccess: () =>
      Promise.all(
        [
          adminLeadsKey,
          adminAgentsQuery.queryKey,
          adminStatsQuery.queryKey,
          analyticsQuery.queryKey,
          healthQuery.queryKey,
        ].map((queryKey) => queryClient.invalidateQueries({ queryKey })),
      ),
  });
}
