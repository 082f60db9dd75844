import { ADMIN_ONLY, type RouteCase, sourceBody } from './route-case';

export const sourcesRoutes: RouteCase[] = [
  // lead sources and their API keys (modules/sources); the intake answers 401 to anyone
  // without a source's key, whatever session comes with the request (test/intake.test.ts)
  {
    method: 'GET',
    path: '/api/admin/sources',
    expect: ADMIN_ONLY(200),
    request: () => ({ url: '/api/admin/sources' }),
  },
  {
    method: 'POST',
    path: '/api/admin/sources',
    expect: ADMIN_ONLY(201),
    request: () => ({ url: '/api/admin/sources', body: sourceBody() }),
    invalid: () => ({ url: '/api/admin/sources', body: { name: '', costPerLeadCents: -1 } }),
  },
  {
    method: 'PATCH',
    path: '/api/admin/sources/:id',
    expect: ADMIN_ONLY(200),
    request: async (fx) => ({
      url: `/api/admin/sources/${await fx.source()}`,
      body: { costPerLeadCents: 250 },
    }),
    invalid: () => ({ url: '/api/admin/sources/not-a-number', body: { active: 'yes' } }),
  },
  {
    method: 'GET',
    path: '/api/admin/sources/:id/keys',
    expect: ADMIN_ONLY(200),
    request: async (fx) => ({ url: `/api/admin/sources/${await fx.source()}/keys` }),
    invalid: () => ({ url: '/api/admin/sources/0/keys' }),
  },
  {
    method: 'POST',
    path: '/api/admin/sources/:id/keys',
    expect: ADMIN_ONLY(201),
    request: async (fx) => ({ url: `/api/admin/sources/${await fx.source()}/keys` }),
    invalid: () => ({ url: '/api/admin/sources/x/keys' }),
  },
  {
    method: 'DELETE',
    path: '/api/admin/sources/:id/keys/:keyId',
    expect: ADMIN_ONLY(200),
    request: async (fx) => {
      const { sourceId, keyId } = await fx.sourceKey();
      return { url: `/api/admin/sources/${sourceId}/keys/${keyId}` };
    },
    invalid: () => ({ url: '/api/admin/sources/1/keys/x' }),
  },
];
