/**
 * Alerts to the agent's phone (docs/domain.md, Alerts to the agent's phone): the agent's choices
 * (push, SMS, quiet hours), the tests, and marking a lead opened.
 */
import type {
  AlertSettings,
  AlertSettingsBody,
  AlertTestResult,
  LeadViewed,
} from '@shared/contracts/alerts';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@web/lib/api-client';
import { getQueryFn } from '@web/lib/query-client';

export const alertSettingsQuery = queryOptions({
  queryKey: ['/api/agent/alerts'] as const,
  queryFn: getQueryFn<AlertSettings>({ on401: 'throw' }),
  staleTime: 0,
});

export function useSaveAlertSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AlertSettingsBody) =>
      apiJson<AlertSettings>('PUT', '/api/agent/alerts', body),
    onSuccess: (saved) => queryClient.setQueryData(alertSettingsQuery.queryKey, saved),
  });
}

export function useSendTestAlert() {
  return useMutation({
    mutationFn: (channel: 'push' | 'sms') =>
      apiJson<AlertTestResult>(
        'POST',
        channel === 'push' ? '/api/agent/push/test' : '/api/agent/alerts/sms/test',
      ),
  });
}

/** The agent opened the lead (its drawer, from a list, a push or an SMS link): speed to open. */
export function markLeadViewed(leadId: number): Promise<LeadViewed> {
  return apiJson<LeadViewed>('POST', `/api/agent/leads/${leadId}/viewed`);
}
