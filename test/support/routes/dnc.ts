import { ADMIN_ONLY, matrixPhone, type RouteCase } from './route-case';

export const dncRoutes: RouteCase[] = [
  // the do-not-call list (modules/dnc)
  {
    method: 'GET',
    path: '/api/admin/dnc',
    expect: ADMIN_ONLY(200),
    request: () => ({ url: '/api/admin/dnc?q=305' }),
    invalid: () => ({ url: '/api/admin/dnc?limit=0' }),
  },
  {
    method: 'POST',
    path: '/api/admin/dnc',
    expect: ADMIN_ONLY(200),
    request: () => ({ url: '/api/admin/dnc', body: { phones: [matrixPhone()] } }),
    invalid: () => ({ url: '/api/admin/dnc', body: { phones: 'not a list' } }),
  },
  {
    method: 'DELETE',
    path: '/api/admin/dnc/:phone',
    expect: ADMIN_ONLY(200),
    request: async (fx) => ({
      url: `/api/admin/dnc/${encodeURIComponent(await fx.dncNumber())}`,
    }),
    invalid: () => ({ url: '/api/admin/dnc/not-a-phone' }),
  },
];
