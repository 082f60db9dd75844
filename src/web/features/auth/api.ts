import type {
  ChangePasswordBody,
  LoginBody,
  LoginResponse,
  MeResponse,
  PasskeyItem,
  PasskeyList,
  PublicUser,
  RecoveryCodesResponse,
  RegisterBody,
  RegistrationInfo,
  ResetPasswordBody,
  TotpSetupResponse,
  TwoFactorStatus,
} from '@shared/contracts/auth';
import {
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  startAuthentication,
  startRegistration,
} from '@simplewebauthn/browser';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiJson, apiRequest, errorMessage } from '@web/lib/api-client';
import { getQueryFn } from '@web/lib/query-client';
import { useSyncExternalStore } from 'react';

type UserEnvelope = { user: PublicUser };

const loadMe = getQueryFn<MeResponse>({ on401: 'returnNull' });

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
    mutationFn: (body: LoginBody) => apiJson<LoginResponse>('POST', '/api/auth/login', body),
    onSuccess: (answer) => {
      // with two factors on, no session yet: the code step follows
      if ('user' in answer) signedIn(queryClient, answer.user);
    },
  });
}

/** The login's code step (docs/domain.md, Accounts: two factors): a TOTP or a recovery code. */
export function useVerifyTwoFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (code: string) => apiJson<UserEnvelope>('POST', '/api/auth/2fa/verify', { code }),
    onSuccess: ({ user }) => signedIn(queryClient, user),
  });
}

/**
 * A new session: the user at once (no spinner), then asked again for what login does not answer
 * (whether two factors must be set up first: the guard then opens the Account screen).
 */
function signedIn(queryClient: ReturnType<typeof useQueryClient>, user: PublicUser) {
  queryClient.setQueryData<MeResponse>(meQuery.queryKey, {
    ...user,
    twoFactorSetupRequired: false,
  });
  void queryClient.invalidateQueries({ queryKey: meQuery.queryKey });
}

const twoFactorKey = ['/api/auth/2fa'] as const;

export function useTwoFactorStatus() {
  return useQuery({
    queryKey: twoFactorKey,
    queryFn: getQueryFn<TwoFactorStatus>({ on401: 'throw' }),
  });
}

/** A new pending secret and its QR code, shown once. */
export function useTotpSetup() {
  return useMutation({
    mutationFn: () => apiJson<TotpSetupResponse>('POST', '/api/auth/2fa/totp/setup'),
  });
}

/**
 * Turns TOTP on with a code; answers the ten recovery codes, shown once. The caller asks again
 * (useTwoFactorRefresh) once it holds them: asked at once, the setup form would be gone with
 * its answer.
 */
export function useTotpEnable() {
  return useMutation({
    mutationFn: (code: string) =>
      apiJson<RecoveryCodesResponse>('POST', '/api/auth/2fa/totp/enable', { code }),
  });
}

/** Asks again where the user stands on two factors (the card's status, the guard's flag). */
export function useTwoFactorRefresh() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: twoFactorKey });
    void queryClient.invalidateQueries({ queryKey: meQuery.queryKey });
  };
}

export function useTwoFactorDisable() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (code: string) => apiJson<{ message: string }>('DELETE', '/api/auth/2fa', { code }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: twoFactorKey }),
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

// passkeys (docs/domain.md, Accounts: two factors): the browser's WebAuthn ceremonies by
// @simplewebauthn/browser, each between the server's options and the server's check

/** Whether this browser can make and use passkeys at all. */
export function passkeysSupported(): boolean {
  return typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function';
}

const unchanging = () => () => {};

/**
 * passkeysSupported for a page the build prerenders (the login form): its markup is drawn as if
 * the browser has passkeys, as every current one does, so hydration finds the button the
 * prerender drew; a browser without them drops it on the render after.
 */
export function usePasskeysSupported(): boolean {
  return useSyncExternalStore(unchanging, passkeysSupported, () => true);
}

/** An assertion of one of the user's passkeys for a ceremony whose options come from `optionsUrl`. */
async function assertWithPasskey(optionsUrl: string) {
  const optionsJSON = await apiJson<PublicKeyCredentialRequestOptionsJSON>('POST', optionsUrl);
  return startAuthentication({ optionsJSON });
}

const passkeysKey = ['/api/auth/2fa/passkeys'] as const;

export function usePasskeys() {
  return useQuery({
    queryKey: passkeysKey,
    queryFn: getQueryFn<PasskeyList>({ on401: 'throw' }),
  });
}

/** A new passkey: the server's options, the browser's authenticator, the server's check. */
export function useAddPasskey() {
  const refresh = useTwoFactorRefresh();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (name: string) => {
      const optionsJSON = await apiJson<PublicKeyCredentialCreationOptionsJSON>(
        'POST',
        '/api/auth/2fa/passkeys/register/options',
      );
      const response = await startRegistration({ optionsJSON });
      return apiJson<PasskeyItem>('POST', '/api/auth/2fa/passkeys/register', { name, response });
    },
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: passkeysKey });
      refresh();
    },
  });
}

/**
 * Removes a passkey; `confirm`: the last second factor goes only with a fresh assertion of one of
 * the user's passkeys.
 */
export function useRemovePasskey() {
  const refresh = useTwoFactorRefresh();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, confirm }: { id: number; confirm: boolean }) => {
      const confirmation = confirm
        ? await assertWithPasskey('/api/auth/2fa/passkeys/confirm/options')
        : undefined;
      return apiJson<{ message: string }>(
        'DELETE',
        `/api/auth/2fa/passkeys/${id}`,
        confirmation ? { confirmation } : undefined,
      );
    },
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: passkeysKey });
      refresh();
    },
  });
}

/** "Sign in with a passkey": no email, no password; the passkey names its user. */
export function usePasskeySignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      const response = await assertWithPasskey('/api/auth/2fa/passkeys/login/options');
      return apiJson<UserEnvelope>('POST', '/api/auth/2fa/passkeys/login', { response });
    },
    onSuccess: ({ user }) => signedIn(queryClient, user),
  });
}

/** The login's second step by a passkey (the pending login is the server's). */
export function useVerifyWithPasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      const response = await assertWithPasskey('/api/auth/2fa/passkeys/verify/options');
      return apiJson<UserEnvelope>('POST', '/api/auth/2fa/passkeys/verify', { response });
    },
    onSuccess: ({ user }) => signedIn(queryClient, user),
  });
}

/** What a failed passkey ceremony tells the user: the browser's refusal or the server's. */
export function passkeyErrorMessage(error: unknown, fallback: string): string {
  if (error instanceof Error && error.name === 'NotAllowedError') {
    return 'The passkey request was cancelled or timed out';
  }
  if (error instanceof Error && error.name === 'InvalidStateError') {
    return 'This device already holds a passkey for your account';
  }
  return errorMessage(error, fallback);
}
