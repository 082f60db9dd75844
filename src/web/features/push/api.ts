/**
 * Push alerts on this device (docs/domain.md, Alerts to the agent's phone): the server's public
 * key, the agent's devices, and subscribing or removing this browser's. The browser's side (the
 * permission, PushManager) is in push-device.ts.
 */
import type { PushDeviceList, PushPublicKey, PushSubscriptionBody } from '@shared/contracts/push';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@web/lib/api-client';
import { getQueryFn } from '@web/lib/query-client';

export const pushPublicKeyQuery = queryOptions({
  queryKey: ['/api/push/public-key'] as const,
  queryFn: getQueryFn<PushPublicKey>({ on401: 'throw' }),
  staleTime: Number.POSITIVE_INFINITY,
});

export const pushDevicesQuery = queryOptions({
  queryKey: ['/api/agent/push/subscriptions'] as const,
  queryFn: getQueryFn<PushDeviceList>({ on401: 'throw' }),
});

export function useSavePushDevice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: PushSubscriptionBody) =>
      apiJson<PushDeviceList>('POST', '/api/agent/push/subscriptions', body),
    onSuccess: (list) => queryClient.setQueryData(pushDevicesQuery.queryKey, list),
  });
}

export function useRemovePushDevice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (endpoint: string) =>
      apiJson<PushDeviceList>('DELETE', '/api/agent/push/subscriptions', { endpoint }),
    onSuccess: (list) => queryClient.setQueryData(pushDevicesQuery.queryKey, list),
  });
}
