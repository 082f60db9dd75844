import { ADMIN_ONLY, PUBLIC, type RouteCase } from './route-case';

export const legalRoutes: RouteCase[] = [
  // the footer's legal pages (docs/domain.md, Legal pages): anyone reads, admins write
  {
    method: 'GET',
    path: '/api/legal/:page',
    expect: PUBLIC(200),
    request: () => ({ url: '/api/legal/privacy' }),
    invalid: () => ({ url: '/api/legal/cookies' }),
  },
  {
    method: 'PUT',
    path: '/api/admin/legal/:page',
    expect: ADMIN_ONLY(200),
    request: () => ({
      url: '/api/admin/legal/terms',
      body: { body: 'Terms as the matrix wrote them.' },
    }),
    invalid: () => ({ url: '/api/admin/legal/terms', body: { body: 42 } }),
  },
];
