import type { AgentBilling } from '@shared/contracts/billing';
import { queryOptions, useMutation } from '@tanstack/react-query';
import { apiJson } from '@web/lib/api-client';
import { getQueryFn } from '@web/lib/query-client';

/** The agent's billing state (docs/domain.md, Billing); state OFF when the server has no Stripe. */
export const agentBillingQuery = queryOptions({
  queryKey: ['/api/agent/billing'] as const,
  queryFn: getQueryFn<AgentBilling>({ on401: 'throw' }),
});

/** Opens Stripe's customer portal (change the card, cancel): the browser goes there. */
export function useOpenBillingPortal() {
  return useMutation({
    mutationFn: () => apiJson<{ url: string }>('POST', '/api/agent/billing/portal'),
    onSuccess: ({ url }) => {
      window.location.assign(url);
    },
  });
}
