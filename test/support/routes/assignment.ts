import { ADMIN_ONLY, type RouteCase } from './route-case';

export const assignmentRoutes: RouteCase[] = [
  {
    method: 'POST',
    path: '/api/admin/leads/assign',
    expect: ADMIN_ONLY(200),
    request: async (fx) => ({
      url: '/api/admin/leads/assign',
      body: { leadId: await fx.newLead(), userId: fx.agent.id },
    }),
    invalid: () => ({ url: '/api/admin/leads/assign', body: { leadId: 'x' } }),
  },
  // admin: assignment engine
  {
    method: 'POST',
    path: '/api/admin/assignment/run',
    expect: ADMIN_ONLY(200),
    request: () => ({ url: '/api/admin/assignment/run' }),
  },
  {
    method: 'GET',
    path: '/api/admin/assignment/runs',
    expect: ADMIN_ONLY(200),
    request: () => ({ url: '/api/admin/assignment/runs?limit=5' }),
    invalid: () => ({ url: '/api/admin/assignment/runs?limit=0' }),
  },
];
