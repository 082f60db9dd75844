import type { LoginBody, PublicUser, RegisterBody } from '@shared/contracts/auth';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiJson, apiRequest } from '@web/lib/api-client';
import { getQueryFn } from '@web/lib/query-client';

type UserEnvelope = { user: PublicUser };

const loadMe = getQueryFn<PublicUser>({ on401: 'returnNull' });

/** The signed-in user, or null when there is none (401). Never retried. */
export const meQuery = queryOptions({
  queryKey: ['/api/auth/me'] as const,
  queryFn: loadMe,
  retry: false,
});

export function useCurrentUser() {
  return useQuery(meQuery);
}

export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: LoginBody) => apiJson<UserEnvelope>('POST', '/api/auth/login', body),
    onSuccess: ({ user }) => {
      queryClient.setQueryData(meQuery.queryKey, user);
    },
  });
}

export function useRegister() {
  return useMutation({
    mutationFn: (body: RegisterBody) => apiJson<UserEnvelope>('POST', '/api/auth/register', body),
  });
}

/** Logs out; the cache is cleared whatever the server answered (spec: /login on any outcome). */
export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest('POST', '/api/auth/logout'),
    onSettled: () => {
      queryClient.clear();
      queryClient.setQueryData(meQuery.queryKey, null);
    },
  });
}
