import type {
  Delivery,
  DeliveryList,
  DeliverySettings,
  DeliverySettingsBody,
  leadActivity,
  WebhookTestResult,
} from '@shared/contracts/delivery';
import type { DeliveryChannel, DeliveryStatus } from '@shared/domain';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@web/lib/api-client';
import { getQueryFn } from '@web/lib/query-client';
import type { z } from 'zod';

/** The agent's delivery settings: email, the CRM webhook and its signing secret. */
export const deliverySettingsQuery = queryOptions({
  queryKey: ['/api/agent/delivery'] as const,
  queryFn: getQueryFn<DeliverySettings>({ on401: 'throw' }),
  // read again on each visit: the server may have switched the endpoint off meanwhile
  staleTime: 0,
});

/** Saving answers the settings as stored (the secret, whether a header is set). */
export function useSaveDeliverySettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: DeliverySettingsBody) =>
      apiJson<DeliverySettings>('PUT', '/api/agent/delivery', body),
    onSuccess: (settings) => queryClient.setQueryData(deliverySettingsQuery.queryKey, settings),
  });
}

/**
 * A new signing secret: the answer is the settings with it (the old one keeps signing beside it
 * for 24 hours, `previousSecretUntil`).
 */
export function useRotateWebhookSecret() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      apiJson<DeliverySettings>('POST', '/api/agent/delivery/webhook/secret/rotate'),
    onSuccess: (settings) => queryClient.setQueryData(deliverySettingsQuery.queryKey, settings),
  });
}

/** Sends a test event to the saved endpoint; answers the attempt, never throws for a refusal. */
export function useTestWebhook() {
  return useMutation({
    mutationFn: () => apiJson<WebhookTestResult>('POST', '/api/agent/delivery/webhook/test'),
  });
}

export interface DeliveriesFilter {
  status?: DeliveryStatus;
  channel?: DeliveryChannel;
  offset?: number;
}

export const DELIVERIES_PAGE_SIZE = 50;

/** Every admin deliveries list, whatever its filter, starts with this key. */
export const adminDeliveriesKey = ['/api/admin/deliveries'] as const;

export function adminDeliveriesQuery(filter: DeliveriesFilter) {
  return queryOptions({
    queryKey: [...adminDeliveriesKey, { ...filter, limit: DELIVERIES_PAGE_SIZE }] as const,
    queryFn: getQueryFn<DeliveryList>({ on401: 'throw' }),
    staleTime: 0,
  });
}

/**
 * A retry queues the delivery again. The row shows its new state in place (a FAILED list keeps
 * it, now pending, until the admin refreshes), with the server's answer when it sends the
 * delivery back.
 */
export function useRetryDelivery() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (delivery: Delivery) =>
      apiJson<unknown>('POST', `/api/admin/deliveries/${delivery.id}/retry`),
    onSuccess: (answer, delivery) => {
      // the server answers {id, status: 'PENDING'} (202): the row keeps what it knew besides
      const updated: Delivery = {
        ...delivery,
        status: 'PENDING',
        updatedAt: new Date().toISOString(),
        ...(answer && typeof answer === 'object' ? (answer as Partial<Delivery>) : {}),
      };
      queryClient.setQueriesData<DeliveryList>({ queryKey: adminDeliveriesKey }, (list) =>
        list
          ? {
              ...list,
              items: list.items.map((item) => (item.id === updated.id ? updated : item)),
            }
          : list,
      );
      return updated;
    },
  });
}

export type LeadActivity = z.infer<typeof leadActivity>;

/** A lead's timeline (status changes, deliveries), oldest first. */
export function leadActivityQuery(leadId: number) {
  return queryOptions({
    queryKey: [`/api/agent/leads/${leadId}/activity`] as const,
    queryFn: getQueryFn<LeadActivity>({ on401: 'throw' }),
    // read again each time the drawer opens: a status change or a delivery adds to it
    staleTime: 0,
  });
}
