import { ADMIN_ONLY, type RouteCase } from './route-case';

export const agentsRoutes: RouteCase[] = [
  {
    method: 'GET',
    path: '/api/admin/agents',
    expect: ADMIN_ONLY(200),
    request: () => ({ url: '/api/admin/agents' }),
  },
];
