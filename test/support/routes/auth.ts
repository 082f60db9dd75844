import { uniqueEmail } from '../test-app';

import { ADMIN_ONLY, PUBLIC, type RouteCase, SIGNED_IN } from './route-case';

/** A WebAuthn answer of the right shape whose clientDataJSON names no challenge ('{}'). */
const noChallenge = {
  id: 'AAAA',
  rawId: 'AAAA',
  type: 'public-key',
  clientExtensionResults: {},
};
const fakeAssertion = {
  ...noChallenge,
  response: { clientDataJSON: 'e30', authenticatorData: 'AAAA', signature: 'AAAA' },
};
const fakeAttestation = {
  ...noChallenge,
  response: { clientDataJSON: 'e30', attestationObject: 'AAAA' },
};

export const authRoutes: RouteCase[] = [
  {
    method: 'POST',
    path: '/api/auth/register',
    expect: PUBLIC(201),
    request: () => ({
      url: '/api/auth/register',
      body: { name: 'Matrix Agent', email: uniqueEmail('matrix'), password: 'secret123' },
    }),
  },
  {
    method: 'POST',
    path: '/api/auth/login',
    expect: PUBLIC(200),
    // every signed-in caller logs in as themselves (the runner keeps the rotated cookie)
    request: async (fx, caller) => {
      const who = caller === 'anonymous' ? await fx.spareAccount() : fx[caller];
      return { url: '/api/auth/login', body: { email: who.email, password: who.password } };
    },
  },
  {
    method: 'POST',
    path: '/api/auth/logout',
    expect: PUBLIC(200),
    request: () => ({ url: '/api/auth/logout' }),
  },
  {
    method: 'GET',
    path: '/api/auth/me',
    expect: SIGNED_IN(200),
    request: () => ({ url: '/api/auth/me' }),
  },
  // two factors (docs/domain.md, Accounts): no caller turns them on, so every login here stays
  // one step; the code step without a pending login is 401 for everyone
  {
    method: 'POST',
    path: '/api/auth/2fa/verify',
    expect: PUBLIC(401),
    request: () => ({ url: '/api/auth/2fa/verify', body: { code: '123456' } }),
  },
  {
    method: 'GET',
    path: '/api/auth/2fa',
    expect: SIGNED_IN(200),
    request: () => ({ url: '/api/auth/2fa' }),
  },
  {
    method: 'POST',
    path: '/api/auth/2fa/totp/setup',
    expect: SIGNED_IN(200),
    request: () => ({ url: '/api/auth/2fa/totp/setup' }),
  },
  {
    method: 'POST',
    path: '/api/auth/2fa/totp/enable',
    // a pending secret, then a wrong code: refused, so the caller's logins stay one step
    expect: SIGNED_IN(400),
    request: async (fx, caller) => {
      if (caller !== 'anonymous') await fx[caller].client.post('/api/auth/2fa/totp/setup');
      return { url: '/api/auth/2fa/totp/enable', body: { code: 'not-a-code' } };
    },
    invalid: () => ({ url: '/api/auth/2fa/totp/enable', body: { code: '' } }),
  },
  {
    method: 'DELETE',
    path: '/api/auth/2fa',
    // two factors are off for every caller: 409
    expect: SIGNED_IN(409),
    request: () => ({ url: '/api/auth/2fa', body: { code: '123456' } }),
    invalid: () => ({ url: '/api/auth/2fa', body: {} }),
  },
  // passkeys (docs/domain.md, Accounts: two factors): no caller has one, so every login here
  // stays one step, and the answers that need a real authenticator are refusals
  {
    method: 'GET',
    path: '/api/auth/2fa/passkeys',
    expect: SIGNED_IN(200),
    request: () => ({ url: '/api/auth/2fa/passkeys' }),
  },
  {
    method: 'POST',
    path: '/api/auth/2fa/passkeys/register/options',
    expect: SIGNED_IN(200),
    request: () => ({ url: '/api/auth/2fa/passkeys/register/options' }),
  },
  {
    method: 'POST',
    path: '/api/auth/2fa/passkeys/register',
    // an answer to no challenge: refused
    expect: SIGNED_IN(400),
    request: () => ({
      url: '/api/auth/2fa/passkeys/register',
      body: { name: 'Matrix key', response: fakeAttestation },
    }),
    invalid: () => ({ url: '/api/auth/2fa/passkeys/register', body: { name: '' } }),
  },
  {
    method: 'PATCH',
    path: '/api/auth/2fa/passkeys/:id',
    // nobody has a passkey: 404
    expect: SIGNED_IN(404),
    request: () => ({ url: '/api/auth/2fa/passkeys/2147483000', body: { name: 'Renamed' } }),
    invalid: () => ({ url: '/api/auth/2fa/passkeys/2147483000', body: { name: '' } }),
  },
  {
    method: 'DELETE',
    path: '/api/auth/2fa/passkeys/:id',
    expect: SIGNED_IN(404),
    request: () => ({ url: '/api/auth/2fa/passkeys/2147483000' }),
    invalid: () => ({ url: '/api/auth/2fa/passkeys/0' }),
  },
  {
    method: 'POST',
    path: '/api/auth/2fa/passkeys/confirm/options',
    // nobody has a passkey to confirm with: 409
    expect: SIGNED_IN(409),
    request: () => ({ url: '/api/auth/2fa/passkeys/confirm/options' }),
  },
  {
    method: 'POST',
    path: '/api/auth/2fa/passkeys/verify/options',
    // no pending login: 401 for everyone
    expect: PUBLIC(401),
    request: () => ({ url: '/api/auth/2fa/passkeys/verify/options' }),
  },
  {
    method: 'POST',
    path: '/api/auth/2fa/passkeys/verify',
    expect: PUBLIC(401),
    request: () => ({ url: '/api/auth/2fa/passkeys/verify', body: { response: fakeAssertion } }),
  },
  {
    method: 'POST',
    path: '/api/auth/2fa/passkeys/login/options',
    expect: PUBLIC(200),
    request: () => ({ url: '/api/auth/2fa/passkeys/login/options' }),
  },
  {
    method: 'POST',
    path: '/api/auth/2fa/passkeys/login',
    // an assertion of no known passkey: refused, the caller's session as it was
    expect: PUBLIC(400),
    request: () => ({ url: '/api/auth/2fa/passkeys/login', body: { response: fakeAssertion } }),
    invalid: () => ({ url: '/api/auth/2fa/passkeys/login', body: { response: {} } }),
  },
  {
    method: 'GET',
    path: '/api/auth/registration',
    expect: PUBLIC(200),
    request: () => ({ url: '/api/auth/registration' }),
  },
  {
    method: 'POST',
    path: '/api/auth/password/forgot',
    expect: PUBLIC(202),
    request: () => ({ url: '/api/auth/password/forgot', body: { email: uniqueEmail('forgot') } }),
    invalid: () => ({ url: '/api/auth/password/forgot', body: { email: '' } }),
  },
  {
    method: 'POST',
    path: '/api/auth/password/reset',
    expect: PUBLIC(200),
    // a fresh link of an account no caller signs in as
    request: async (fx) => ({
      url: '/api/auth/password/reset',
      body: { token: await fx.resetToken(), password: 'new-plum-tree-42' },
    }),
    invalid: () => ({ url: '/api/auth/password/reset', body: { token: 'x', password: '123' } }),
  },
  {
    method: 'POST',
    path: '/api/auth/password/change',
    expect: SIGNED_IN(200),
    // the caller's own password, kept as it is (the other rows sign in with it)
    request: (fx, caller) => {
      const password = caller === 'anonymous' ? 'not-signed-in' : fx[caller].password;
      return {
        url: '/api/auth/password/change',
        body: { currentPassword: password, newPassword: password },
      };
    },
    invalid: () => ({ url: '/api/auth/password/change', body: { currentPassword: '' } }),
  },
  {
    method: 'POST',
    path: '/api/admin/users/:id/reset-link',
    expect: ADMIN_ONLY(200),
    request: (fx) => ({ url: `/api/admin/users/${fx.agent.id}/reset-link` }),
    invalid: () => ({ url: '/api/admin/users/0/reset-link' }),
  },
  {
    method: 'POST',
    path: '/api/admin/invites',
    expect: ADMIN_ONLY(201),
    request: () => ({ url: '/api/admin/invites', body: {} }),
    invalid: () => ({ url: '/api/admin/invites', body: { email: 'not an email' } }),
  },
  // admin: a lost second factor reset (docs/domain.md, Accounts: two factors), of a fresh agent
  // whom no row signs in as (the reset ends the user's sessions)
  {
    method: 'POST',
    path: '/api/admin/users/:id/two-factor/reset',
    expect: ADMIN_ONLY(200),
    request: async (fx) => ({
      url: `/api/admin/users/${await fx.spareUserId()}/two-factor/reset`,
    }),
    invalid: () => ({ url: '/api/admin/users/0/two-factor/reset' }),
  },
  // admin: an account enabled or disabled (docs/domain.md, Offboarding); enabling agent A
  // leaves every other row's caller as it was
  {
    method: 'PATCH',
    path: '/api/admin/users/:id',
    expect: ADMIN_ONLY(200),
    request: (fx) => ({ url: `/api/admin/users/${fx.agent.id}`, body: { disabled: false } }),
    invalid: (fx) => ({ url: `/api/admin/users/${fx.agent.id}`, body: { disabled: 'yes' } }),
  },
];
