import type { SubscriptionSummary } from '@shared/contracts/agent';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@web/lib/api-client';
import { agentStatsQuery } from './api';

/** The subscription is read from the agent's stats, so that is the one key a change touches. */
function useInvalidateStats() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: agentStatsQuery.queryKey });
}

/** Subscribes to a package, or switches the current subscription to it. */
export function useSubscribe() {
  const invalidateStats = useInvalidateStats();
  return useMutation({
    mutationFn: (packageId: number) =>
      apiJson<SubscriptionSummary>('POST', '/api/agent/subscription', { packageId }),
    onSuccess: invalidateStats,
  });
}

export function useCancelSubscription() {
  const invalidateStats = useInvalidateStats();
  return useMutation({
    mutationFn: () => apiJson<SubscriptionSummary>('DELETE', '/api/agent/subscription'),
    onSuccess: invalidateStats,
  });
}
