/** The wallet of a pay-per-lead agent: the agent's own, and every agent's for admins. */
import type {
  AdminCreditBody,
  AutoRecharge,
  AutoRechargeBody,
  Wallet,
  WalletBalance,
  WalletEntry,
} from '@shared/contracts/wallet';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@web/lib/api-client';
import { getQueryFn } from '@web/lib/query-client';

const WALLET = '/api/agent/wallet';

/** The balance, the settings and one page of the entries (newest first). */
export const walletQuery = (page: number, pageSize: number) =>
  queryOptions({
    queryKey: [WALLET, { page, pageSize }] as const,
    queryFn: getQueryFn<Wallet>({ on401: 'throw' }),
  });

/** Stripe Checkout for the amount: the answer is the page to go to. */
export function useTopUp() {
  return useMutation({
    mutationFn: (amountCents: number) =>
      apiJson<{ checkoutUrl: string }>('POST', `${WALLET}/top-up`, { amountCents }),
  });
}

export function useSaveAutoRecharge() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AutoRechargeBody) =>
      apiJson<AutoRecharge>('PUT', `${WALLET}/auto-recharge`, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [WALLET] }),
  });
}

/** Every agent with a wallet or a pay-per-lead package, by balance. */
export const walletBalancesQuery = queryOptions({
  queryKey: ['/api/admin/wallets'] as const,
  queryFn: getQueryFn<WalletBalance[]>({ on401: 'throw' }),
});

/** An admin's credit to an agent's wallet, with the note the agent sees. */
export function useCreditWallet() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ agentId, body }: { agentId: number; body: AdminCreditBody }) =>
      apiJson<{ balanceCents: number; entry: WalletEntry }>(
        'POST',
        `/api/admin/agents/${agentId}/wallet`,
        body,
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: walletBalancesQuery.queryKey }),
  });
}
