import { ADMIN_ONLY, type RouteCase } from './route-case';

export const licencesRoutes: RouteCase[] = [
  {
    method: 'PUT',
    path: '/api/admin/agents/:id/licenses',
    expect: ADMIN_ONLY(200),
    request: (fx) => ({ url: `/api/admin/agents/${fx.agent.id}/licenses`, body: { states: [] } }),
    invalid: (fx) => ({
      url: `/api/admin/agents/${fx.agent.id}/licenses`,
      body: { states: ['XX'] },
    }),
  },
];
