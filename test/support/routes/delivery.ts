import { ADMIN_ONLY, AGENT_ONLY, type RouteCase } from './route-case';

export const deliveryRoutes: RouteCase[] = [
  // delivery (modules/delivery): an agent's settings, the webhook test (no URL set: 400), the
  // secret's rotation (the fixture package has the CRM service: 200), a lead's timeline; the
  // admins' deliveries log and retry (no such delivery: 404)
  {
    method: 'GET',
    path: '/api/agent/delivery',
    expect: AGENT_ONLY(200),
    request: () => ({ url: '/api/agent/delivery' }),
  },
  {
    method: 'PUT',
    path: '/api/agent/delivery',
    expect: AGENT_ONLY(200),
    request: () => ({ url: '/api/agent/delivery', body: { email: { enabled: true } } }),
    invalid: () => ({ url: '/api/agent/delivery', body: { email: { enabled: 'yes' } } }),
  },
  {
    method: 'POST',
    path: '/api/agent/delivery/webhook/test',
    expect: AGENT_ONLY(400),
    request: () => ({ url: '/api/agent/delivery/webhook/test' }),
  },
  {
    method: 'POST',
    path: '/api/agent/delivery/webhook/secret/rotate',
    expect: AGENT_ONLY(200),
    request: () => ({ url: '/api/agent/delivery/webhook/secret/rotate' }),
  },
  {
    method: 'GET',
    path: '/api/agent/leads/:id/activity',
    expect: AGENT_ONLY(200, 404),
    request: async (fx) => ({ url: `/api/agent/leads/${await fx.leadOfAgent()}/activity` }),
    invalid: () => ({ url: '/api/agent/leads/abc/activity' }),
  },
  {
    method: 'GET',
    path: '/api/admin/deliveries',
    expect: ADMIN_ONLY(200),
    request: () => ({ url: '/api/admin/deliveries?status=FAILED&limit=10' }),
    invalid: () => ({ url: '/api/admin/deliveries?status=LOST' }),
  },
  {
    method: 'POST',
    path: '/api/admin/deliveries/:id/retry',
    expect: ADMIN_ONLY(404),
    request: () => ({ url: '/api/admin/deliveries/999999999/retry' }),
    invalid: () => ({ url: '/api/admin/deliveries/abc/retry' }),
  },
];
