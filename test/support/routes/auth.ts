import { uniqueEmail } from '../test-app';

import { ADMIN_ONLY, PUBLIC, type RouteCase, SIGNED_IN } from './route-case';

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
