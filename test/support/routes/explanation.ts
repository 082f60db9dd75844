import { ADMIN_ONLY, type RouteCase } from './route-case';

export const explanationRoutes: RouteCase[] = [
  {
    method: 'GET',
    path: '/api/admin/leads/:id/explain',
    expect: ADMIN_ONLY(200),
    request: async (fx) => ({ url: `/api/admin/leads/${await fx.newLead()}/explain` }),
    invalid: () => ({ url: '/api/admin/leads/abc/explain' }),
  },
  {
    method: 'GET',
    path: '/api/admin/leads/:id/fit/:agentId',
    expect: ADMIN_ONLY(200),
    request: async (fx) => ({ url: `/api/admin/leads/${await fx.newLead()}/fit/${fx.agent.id}` }),
    invalid: (fx) => ({ url: `/api/admin/leads/abc/fit/${fx.agent.id}` }),
  },
  {
    method: 'GET',
    path: '/api/admin/leads/unfit-reasons',
    expect: ADMIN_ONLY(200),
    request: () => ({ url: '/api/admin/leads/unfit-reasons' }),
  },
];
