import type { AdminAgent, AdminStats } from '@shared/contracts/admin';
import type { AdminUser, TwoFactorResetResponse } from '@shared/contracts/auth';
import type { SubscriptionStatus } from '@shared/domain';
import { DEFAULT_BUSINESS_TIME_ZONE } from '@shared/format';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@web/lib/api-client';
import { getQueryFn } from '@web/lib/query-client';
import type { Health } from './system-status';

/** The dashboard's four cards. */
export const adminStatsQuery = queryOptions({
  queryKey: ['/api/admin/stats'] as const,
  queryFn: getQueryFn<AdminStats>({ on401: 'throw' }),
});

/** Database and last assignment run, for the System Status panel. */
export const healthQuery = queryOptions({
  queryKey: ['/api/health'] as const,
  queryFn: getQueryFn<Health>({ on401: 'throw' }),
});

/**
 * The zone the server counts business days in (BUSINESS_TZ), for every time a screen shows:
 * from the health answer once the server names it there, its default until then.
 */
export function useBusinessTimeZone(): string {
  const { data } = useQuery({ ...healthQuery, select: (health) => health.businessTimeZone });
  return data ?? DEFAULT_BUSINESS_TIME_ZONE;
}

/** Every agent with subscription, quota use and lead counts. */
export const adminAgentsQuery = queryOptions({
  queryKey: ['/api/admin/agents'] as const,
  queryFn: getQueryFn<AdminAgent[]>({ on401: 'throw' }),
});

/** The agents waiting for an admin's approval (REGISTRATION=approval). */
export const pendingAgentsQuery = queryOptions({
  queryKey: ['/api/admin/agents?approval=PENDING'] as const,
  queryFn: getQueryFn<AdminAgent[]>({ on401: 'throw' }),
});

/** Approve (the agent works and gets leads) or refuse (REFUSED: cannot log in). */
export function useDecideApproval() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ agentId, approve }: { agentId: number; approve: boolean }) =>
      apiJson<AdminAgent>('POST', `/api/admin/agents/${agentId}/approval`, { approve }),
    onSuccess: async (agent) => {
      queryClient.setQueryData(adminAgentsQuery.queryKey, (agents) =>
        agents?.map((a) => (a.id === agent.id ? agent : a)),
      );
      await queryClient.invalidateQueries({ queryKey: pendingAgentsQuery.queryKey });
    },
  });
}

/** A password reset link to hand over (no SMTP), or an invite link. */
export function useAccountLink() {
  return useMutation({
    mutationFn: (what: { resetFor: number } | { invite: true }) =>
      'resetFor' in what
        ? apiJson<{ url: string }>('POST', `/api/admin/users/${what.resetFor}/reset-link`)
        : apiJson<{ url: string }>('POST', '/api/admin/invites', {}),
  });
}

/** A subscription status decides who is an active agent (dashboard) and who gets leads. */
export function useSetSubscriptionStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ agentId, status }: { agentId: number; status: SubscriptionStatus }) =>
      apiJson<AdminAgent>('PATCH', `/api/admin/agents/${agentId}/subscription`, { status }),
    onSuccess: async (agent) => {
      queryClient.setQueryData(adminAgentsQuery.queryKey, (agents) =>
        agents?.map((a) => (a.id === agent.id ? agent : a)),
      );
      await queryClient.invalidateQueries({ queryKey: adminStatsQuery.queryKey });
    },
  });
}

/**
 * An admin disables an account (its sessions end, no login, no leads) or enables it again
 * (docs/domain.md, Offboarding).
 */
export function useSetUserDisabled() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, disabled }: { userId: number; disabled: boolean }) =>
      apiJson<AdminUser>('PATCH', `/api/admin/users/${userId}`, { disabled }),
    onSuccess: (user) => {
      queryClient.setQueryData(adminAgentsQuery.queryKey, (agents) =>
        agents?.map((a) => (a.id === user.id ? { ...a, disabled: user.disabled } : a)),
      );
    },
  });
}

/**
 * An admin's reset of a user's lost second factor (docs/domain.md, Accounts: two factors): their
 * authenticator app, recovery codes and passkeys removed, their sessions ended.
 */
export function useResetTwoFactor() {
  return useMutation({
    mutationFn: (userId: number) =>
      apiJson<TwoFactorResetResponse>('POST', `/api/admin/users/${userId}/two-factor/reset`),
  });
}
