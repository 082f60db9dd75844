import type { AgentServices, CallEntry, PhoneCodeSent, Profile } from '@shared/contracts/calls';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@web/lib/api-client';
import { getQueryFn } from '@web/lib/query-client';

/** The agent's phone, and whether calls and follow-ups can be used now (and why not). */
export const agentServicesQuery = queryOptions({
  queryKey: ['/api/agent/services'] as const,
  queryFn: getQueryFn<AgentServices>({ on401: 'throw' }),
  staleTime: 60_000,
});

export function useSaveProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { phone: string | null }) =>
      apiJson<Profile>('PUT', '/api/agent/profile', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: agentServicesQuery.queryKey }),
  });
}

/** Texts a code to the saved phone (10 minutes, 5 tries). */
export function useSendPhoneCode() {
  return useMutation({
    mutationFn: () => apiJson<PhoneCodeSent>('POST', '/api/agent/profile/phone/verify'),
  });
}

/** The code back: the phone is verified, and calls can ring it. */
export function useConfirmPhoneCode() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (code: string) =>
      apiJson<Profile>('POST', '/api/agent/profile/phone/confirm', { code }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: agentServicesQuery.queryKey }),
  });
}

const ENDED = new Set(['COMPLETED', 'BUSY', 'NO_ANSWER', 'FAILED', 'CANCELED']);

/** The lead's call log; read again every 2 s while a call is under way or its recording due. */
export function leadCallsQuery(leadId: number) {
  return queryOptions({
    queryKey: [`/api/agent/leads/${leadId}/calls`] as const,
    queryFn: getQueryFn<{ items: CallEntry[] }>({ on401: 'throw' }),
    staleTime: 0,
    refetchInterval: (query) => {
      const items = query.state.data?.items ?? [];
      const open = items.some(
        (c) =>
          !ENDED.has(c.status) ||
          // a connected call's recording arrives a moment after it ends
          (c.connectedAt !== null &&
            c.recordingUrl === null &&
            Date.parse(c.createdAt) > Date.now() - 5 * 60_000),
      );
      return open ? 2_000 : false;
    },
  });
}

export function useStartCall(leadId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiJson<CallEntry>('POST', `/api/agent/leads/${leadId}/call`),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: leadCallsQuery(leadId).queryKey }),
        queryClient.invalidateQueries({ queryKey: [`/api/agent/leads/${leadId}/activity`] }),
      ]),
  });
}
