import type { AgentStats, Preferences } from '@shared/contracts/agent';
import type { PreferencesPreview } from '@shared/contracts/analytics';
import type { AgentLeadSort, Lead, LeadListQuery } from '@shared/contracts/leads';
import type { AgentSettableStatus } from '@shared/domain';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { fetchLeadsPage } from '@web/features/leads/api';
import { apiJson } from '@web/lib/api-client';
import { getQueryFn } from '@web/lib/query-client';

/** The dashboard's numbers and the current subscription. */
export const agentStatsQuery = queryOptions({
  queryKey: ['/api/agent/stats'] as const,
  queryFn: getQueryFn<AgentStats>({ on401: 'throw' }),
});

/** Every list of the agent's own leads, whatever its filter, starts with this key. */
export const agentLeadsKey = ['/api/agent/leads'] as const;

/** One page of the agent's own leads, searched, filtered and ordered by the server. */
export function agentLeadsQuery(params: LeadListQuery & { sort?: AgentLeadSort }) {
  return queryOptions({ queryKey: [...agentLeadsKey, params] as const, queryFn: fetchLeadsPage });
}

/** One of the agent's own leads, by a link to it (another agent's lead: 404, nothing of it). */
export function agentLeadQuery(leadId: number) {
  return queryOptions({
    queryKey: [`/api/agent/leads/${leadId}`] as const,
    queryFn: getQueryFn<Lead>({ on401: 'throw' }),
  });
}

export const agentPreferencesQuery = queryOptions({
  queryKey: ['/api/agent/preferences'] as const,
  queryFn: getQueryFn<Preferences>({ on401: 'throw' }),
});

/** A status change moves the lead between filtered lists and may change the converted count. */
export function useUpdateLeadStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ leadId, status }: { leadId: number; status: AgentSettableStatus }) =>
      apiJson<Lead>('POST', `/api/agent/leads/${leadId}/status`, { status }),
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: agentLeadsKey }),
        queryClient.invalidateQueries({ queryKey: agentStatsQuery.queryKey }),
      ]);
    },
  });
}

/** The server answers what it stored, which becomes the cached preferences as is. */
export function useSavePreferences() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Preferences) => apiJson<Preferences>('PUT', '/api/agent/preferences', body),
    onSuccess: (stored) => {
      queryClient.setQueryData(agentPreferencesQuery.queryKey, stored);
    },
  });
}

/**
 * What the preferences being edited would have matched over the last 30 days (docs/domain.md, Analytics that explain); the
 * lists go comma-separated, so the key (and the cache) follows the values, not the array objects.
 */
export function preferencesPreviewQuery(prefs: Preferences) {
  const params = {
    states: prefs.states.join(','),
    cities: prefs.cities.join(','),
    categories: prefs.categories.join(','),
    ageMin: prefs.ageMin ?? undefined,
    ageMax: prefs.ageMax ?? undefined,
  };
  return queryOptions({
    queryKey: ['/api/agent/preferences/preview', params] as const,
    queryFn: getQueryFn<PreferencesPreview>({ on401: 'throw' }),
    placeholderData: (previous) => previous,
  });
}
