import { ADMIN_ONLY, type RouteCase } from './route-case';

export const agentsRoutes: RouteCase[] = [
  {
    method: 'GET',
    path: '/api/admin/agents',
    expect: ADMIN_ONLY(200),
    request: () => ({ url: '/api/admin/agents' }),
    invalid: () => ({ url: '/api/admin/agents?approval=MAYBE' }),
  },
  {
    method: 'POST',
    path: '/api/admin/agents/:id/approval',
    expect: ADMIN_ONLY(200),
    // approving an approved agent leaves them as they are
    request: (fx) => ({
      url: `/api/admin/agents/${fx.agent.id}/approval`,
      body: { approve: true },
    }),
    invalid: (fx) => ({
      url: `/api/admin/agents/${fx.agent.id}/approval`,
      body: { approve: 'yes' },
    }),
  },
];
