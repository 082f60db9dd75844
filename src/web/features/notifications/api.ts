import type { NotificationList } from '@shared/contracts/delivery';
import type { UserRole } from '@shared/domain';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@web/lib/api-client';
import { getQueryFn } from '@web/lib/query-client';

/** The bell's path for each role (agents, and admins on their own path). */
export function notificationsPath(role: UserRole): string {
  return role === 'ADMIN' ? '/api/admin/notifications' : '/api/agent/notifications';
}

/** The newest notifications and the unread count; refreshed by live events, never polled. */
export function notificationsQuery(role: UserRole) {
  return queryOptions({
    queryKey: [notificationsPath(role)] as const,
    queryFn: getQueryFn<NotificationList>({ on401: 'throw' }),
  });
}

/** Marks the named notifications read, or all of them; the answer is the refreshed list. */
export function useMarkNotificationsRead(role: UserRole) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ids?: number[]) =>
      apiJson<NotificationList>('POST', `${notificationsPath(role)}/read`, ids ? { ids } : {}),
    onSuccess: (list) => {
      queryClient.setQueryData(notificationsQuery(role).queryKey, list);
    },
  });
}
