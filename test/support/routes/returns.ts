import { ADMIN_ONLY, AGENT_ONLY, type RouteCase } from './route-case';

export const returnsRoutes: RouteCase[] = [
  {
    method: 'POST',
    path: '/api/agent/leads/:id/return',
    // agent B names agent A's lead: 404
    expect: { anonymous: 401, agent: 201, otherAgent: 404, admin: 403 },
    request: async (fx) => ({
      url: `/api/agent/leads/${await fx.leadOfAgent()}/return`,
      body: { reason: 'WRONG_NUMBER', note: 'matrix' },
    }),
    invalid: () => ({ url: '/api/agent/leads/1/return', body: { reason: 'BORED' } }),
  },
  {
    method: 'GET',
    path: '/api/agent/leads/:id/return',
    expect: AGENT_ONLY(200, 404),
    request: async (fx) => ({ url: `/api/agent/leads/${await fx.leadOfAgent()}/return` }),
  },
  {
    method: 'GET',
    path: '/api/admin/returns',
    expect: ADMIN_ONLY(200),
    request: () => ({ url: '/api/admin/returns?status=PENDING' }),
    invalid: () => ({ url: '/api/admin/returns?status=MAYBE' }),
  },
  {
    method: 'POST',
    path: '/api/admin/returns/:id/decision',
    expect: ADMIN_ONLY(200),
    request: async (fx) => ({
      url: `/api/admin/returns/${await fx.pendingReturn()}/decision`,
      body: { approve: false, note: 'matrix' },
    }),
    invalid: () => ({ url: '/api/admin/returns/1/decision', body: { approve: 'yes' } }),
  },
];
