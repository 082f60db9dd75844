import { ADMIN_ONLY, type RouteCase } from './route-case';

export const analyticsRoutes: RouteCase[] = [
  {
    method: 'GET',
    path: '/api/admin/analytics',
    expect: ADMIN_ONLY(200),
    request: () => ({ url: '/api/admin/analytics' }),
  },
  {
    method: 'GET',
    path: '/api/admin/analytics/speed-to-lead',
    expect: ADMIN_ONLY(200),
    request: () => ({ url: '/api/admin/analytics/speed-to-lead?from=2026-01-01&to=2026-01-31' }),
    invalid: () => ({ url: '/api/admin/analytics/speed-to-lead?from=yesterday' }),
  },
  {
    method: 'GET',
    path: '/api/admin/analytics/sources',
    expect: ADMIN_ONLY(200),
    request: () => ({ url: '/api/admin/analytics/sources?from=2026-01-01&to=2026-01-31' }),
    invalid: () => ({ url: '/api/admin/analytics/sources?from=2026-02-01&to=2026-01-01' }),
  },
];
