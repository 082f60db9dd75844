import type {
  FollowUpResponse,
  FollowUpSettings,
  FollowUpStats,
} from '@shared/contracts/follow-ups';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@web/lib/api-client';
import { getQueryFn } from '@web/lib/query-client';

/** The agent's follow-up templates. */
export const followUpQuery = queryOptions({
  queryKey: ['/api/agent/follow-up'] as const,
  queryFn: getQueryFn<FollowUpResponse>({ on401: 'throw' }),
  staleTime: 0,
});

export function useSaveFollowUp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: FollowUpSettings) =>
      apiJson<FollowUpResponse>('PUT', '/api/agent/follow-up', body),
    onSuccess: (saved) => queryClient.setQueryData(followUpQuery.queryKey, saved),
  });
}

/** The admins' follow-up figures (Deliveries screen). */
export const followUpStatsQuery = queryOptions({
  queryKey: ['/api/admin/follow-ups'] as const,
  queryFn: getQueryFn<FollowUpStats>({ on401: 'throw' }),
  staleTime: 0,
});
