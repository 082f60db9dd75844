import type {
  ChangePasswordBody,
  LoginBody,
  PublicUser,
  RegisterBody,
  RegistrationInfo,
  ResetPasswordBody,
} from '@shared/contracts/auth';
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

/** Logs out; the cache is cleared whatever the server answered (docs/domain.md, Screens: /login on any outcome). */
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

/** Who may sign up (REGISTRATION): the login and register screens say the truth for each mode. */
export const registrationQuery = queryOptions({
  queryKey: ['/api/auth/registration'] as const,
  queryFn: getQueryFn<RegistrationInfo>({ on401: 'throw' }),
});

export function useRegistrationMode() {
  return useQuery(registrationQuery).data?.mode;
}

/** "Forgot password?": the same answer whether or not the email has an account. */
export function useForgotPassword() {
  return useMutation({
    mutationFn: (email: string) =>
      apiJson<{ message: string }>('POST', '/api/auth/password/forgot', { email }),
  });
}

export function useResetPassword() {
  return useMutation({
    mutationFn: (body: ResetPasswordBody) =>
      apiJson<{ message: string }>('POST', '/api/auth/password/reset', body),
  });
}

export function useChangePassword() {
  return useMutation({
    mutationFn: (body: ChangePasswordBody) =>
      apiJson<{ message: string }>('POST', '/api/auth/password/change', body),
  });
}
