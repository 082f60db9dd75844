import { ADMIN_ONLY, multipartFile, type RouteCase, validCsv } from './route-case';

export const importsRoutes: RouteCase[] = [
  {
    method: 'POST',
    path: '/api/admin/leads/import',
    expect: ADMIN_ONLY(200),
    request: () => {
      const { body, headers } = multipartFile(validCsv(2));
      return { url: '/api/admin/leads/import', body, headers };
    },
    invalid: () => ({
      url: '/api/admin/leads/import',
      body: 'not a multipart body',
      headers: { 'content-type': 'text/plain' },
    }),
    invalidStatus: 415,
  },
  {
    method: 'GET',
    path: '/api/admin/imports',
    expect: ADMIN_ONLY(200),
    request: () => ({ url: '/api/admin/imports?status=DONE' }),
    invalid: () => ({ url: '/api/admin/imports?status=BOGUS' }),
  },
  {
    method: 'GET',
    path: '/api/admin/imports/:id',
    expect: ADMIN_ONLY(200),
    request: async (fx) => ({ url: `/api/admin/imports/${await fx.importRecord()}` }),
    invalid: () => ({ url: '/api/admin/imports/abc' }),
  },
];
