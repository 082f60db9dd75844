/** The agent's pause (docs/domain.md, Pause): GET/PUT/DELETE /api/agent/pause. */
import type { PauseState } from '@shared/contracts/pause';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@web/lib/api-client';
import { getQueryFn } from '@web/lib/query-client';

export const pauseQuery = queryOptions({
  queryKey: ['/api/agent/pause'] as const,
  queryFn: getQueryFn<PauseState>({ on401: 'throw' }),
});

/** until: the last business date paused (YYYY-MM-DD), or null for "until I resume". */
export function usePauseDeliveries() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (until: string | null) => apiJson<PauseState>('PUT', '/api/agent/pause', { until }),
    onSuccess: (state) => queryClient.setQueryData(pauseQuery.queryKey, state),
  });
}

export function useResumeDeliveries() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiJson<PauseState>('DELETE', '/api/agent/pause'),
    onSuccess: (state) => queryClient.setQueryData(pauseQuery.queryKey, state),
  });
}
