/** The agent's schedule and caps (docs/domain.md, Schedule and caps). */
import type { Caps, ScheduleBody, ScheduleState } from '@shared/contracts/schedule';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@web/lib/api-client';
import { getQueryFn } from '@web/lib/query-client';

export const scheduleQuery = queryOptions({
  queryKey: ['/api/agent/schedule'] as const,
  queryFn: getQueryFn<ScheduleState>({ on401: 'throw' }),
});

export const capsQuery = queryOptions({
  queryKey: ['/api/agent/caps'] as const,
  queryFn: getQueryFn<Caps>({ on401: 'throw' }),
});

export function useSaveSchedule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ScheduleBody) => apiJson<ScheduleState>('PUT', '/api/agent/schedule', body),
    onSuccess: (state) => queryClient.setQueryData(scheduleQuery.queryKey, state),
  });
}

export function useSaveCaps() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Caps) => apiJson<Caps>('PUT', '/api/agent/caps', body),
    onSuccess: (state) => queryClient.setQueryData(capsQuery.queryKey, state),
  });
}
