import { ADMIN_ONLY, AGENT_ONLY, type RouteCase } from './route-case';

export const leadsRoutes: RouteCase[] = [
  // admin: leads
  {
    method: 'GET',
    path: '/api/admin/leads',
    expect: ADMIN_ONLY(200),
    request: () => ({ url: '/api/admin/leads?status=NEW&q=a&limit=10&offset=0' }),
    invalid: () => ({ url: '/api/admin/leads?status=BOGUS&limit=-1' }),
  },
  {
    method: 'GET',
    path: '/api/admin/leads/export',
    expect: ADMIN_ONLY(200),
    request: () => ({ url: '/api/admin/leads/export?status=NEW&q=a' }),
    invalid: () => ({ url: '/api/admin/leads/export?status=BOGUS' }),
  },
  {
    method: 'GET',
    path: '/api/agent/leads',
    expect: AGENT_ONLY(200),
    request: () => ({ url: '/api/agent/leads?status=ASSIGNED&sort=oldest' }),
    invalid: () => ({ url: '/api/agent/leads?status=STOLEN' }),
  },
  {
    method: 'GET',
    path: '/api/admin/leads/:id',
    expect: ADMIN_ONLY(200),
    request: async (fx) => ({ url: `/api/admin/leads/${await fx.leadOfAgent()}` }),
    invalid: () => ({ url: '/api/admin/leads/0' }),
  },
  {
    method: 'GET',
    path: '/api/agent/leads/:id',
    // agent B names agent A's lead: 404, as if it did not exist
    expect: AGENT_ONLY(200, 404),
    request: async (fx) => ({ url: `/api/agent/leads/${await fx.leadOfAgent()}` }),
    invalid: () => ({ url: '/api/agent/leads/abc' }),
  },
  {
    method: 'POST',
    path: '/api/agent/leads/:id/status',
    // agent B names agent A's lead: 404, as if it did not exist
    expect: AGENT_ONLY(200, 404),
    request: async (fx) => ({
      url: `/api/agent/leads/${await fx.leadOfAgent()}/status`,
      body: { status: 'CONTACTED' },
    }),
    invalid: () => ({ url: '/api/agent/leads/abc/status', body: { status: 'ASSIGNED' } }),
  },
];
