import type { SubscribeAnswer, SubscriptionSummary } from '@shared/contracts/agent';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@web/lib/api-client';
import { agentStatsQuery } from './api';

/** The subscription is read from the agent's stats, so that is the one key a change touches. */
function useInvalidateStats() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: agentStatsQuery.queryKey });
}

/**
 * Subscribes to a package, or switches the current subscription to it. With Stripe Billing on,
 * the answer may be `{checkoutUrl}`: the caller sends the browser there to pay.
 */
export function useSubscribe() {
  const queryClient = useQueryClient();
  const invalidateStats = useInvalidateStats();
  return useMutation({
    mutationFn: (packageId: number) =>
      apiJson<SubscribeAnswer>('POST', '/api/agent/subscription', { packageId }),
    onSuccess: async () => {
      await Promise.all([
        invalidateStats(),
        queryClient.invalidateQueries({ queryKey: ['/api/agent/billing'] }),
      ]);
    },
  });
}

export function useCancelSubscription() {
  const invalidateStats = useInvalidateStats();
  return useMutation({
    mutationFn: () => apiJson<SubscriptionSummary>('DELETE', '/api/agent/subscription'),
    onSuccess: invalidateStats,
  });
}
