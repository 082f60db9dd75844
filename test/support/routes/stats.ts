import { ADMIN_ONLY, AGENT_ONLY, type RouteCase } from './route-case';

export const statsRoutes: RouteCase[] = [
  // admin: read-outs and agents
  {
    method: 'GET',
    path: '/api/admin/stats',
    expect: ADMIN_ONLY(200),
    request: () => ({ url: '/api/admin/stats' }),
  },
  // agent workspace
  {
    method: 'GET',
    path: '/api/agent/stats',
    expect: AGENT_ONLY(200),
    request: () => ({ url: '/api/agent/stats' }),
  },
];
