import { ADMIN_ONLY, matrixPhone, type RouteCase } from './route-case';

export const privacyRoutes: RouteCase[] = [
  // consumer deletion (modules/privacy)
  {
    method: 'GET',
    path: '/api/admin/privacy/deletions',
    expect: ADMIN_ONLY(200),
    request: () => ({ url: '/api/admin/privacy/deletions' }),
    invalid: () => ({ url: '/api/admin/privacy/deletions?limit=0' }),
  },
  {
    method: 'POST',
    path: '/api/admin/privacy/deletions',
    expect: ADMIN_ONLY(201),
    request: () => ({ url: '/api/admin/privacy/deletions', body: { phone: matrixPhone() } }),
    invalid: () => ({ url: '/api/admin/privacy/deletions', body: {} }),
  },
];
