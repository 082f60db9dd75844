import type { AssignmentRun, AssignmentRunResult } from '@shared/contracts/admin';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { adminAgentsQuery, adminStatsQuery, healthQuery } from '@web/features/admin/api';
import { apiJson } from '@web/lib/api-client';
import { getQueryFn } from '@web/lib/query-client';

/** Recent assignment runs, newest first. */
export const assignmentRunsQuery = queryOptions({
  queryKey: ['/api/admin/assignment/runs'] as const,
  queryFn: getQueryFn<AssignmentRun[]>({ on401: 'throw' }),
});

/**
 * Runs the engine now. A run (even a failed one, which is recorded) changes the last run shown
 * by the health check and the run list; a run that assigned leads also changes the stats, the
 * agents' quotas, the admin lead list and the analytics.
 */
export function useRunAssignment() {
  const queryClient = useQueryClient();
  const refresh = (keys: readonly (readonly unknown[])[]) =>
    Promise.all(keys.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
  const always = [healthQuery.queryKey, assignmentRunsQuery.queryKey];
  return useMutation({
    mutationFn: () => apiJson<AssignmentRunResult>('POST', '/api/admin/assignment/run'),
    onSuccess: (run) =>
      refresh(
        run.assigned === 0
          ? always
          : [
              ...always,
              adminStatsQuery.queryKey,
              adminAgentsQuery.queryKey,
              ['/api/admin/leads'],
              ['/api/admin/analytics'],
            ],
      ),
    onError: () => refresh(always),
  });
}
