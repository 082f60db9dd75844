import { ADMIN_ONLY, AGENT_ONLY, type RouteCase } from './route-case';

export const subscriptionsRoutes: RouteCase[] = [
  {
    method: 'PATCH',
    path: '/api/admin/agents/:id/subscription',
    expect: ADMIN_ONLY(200),
    request: async (fx) => {
      await fx.ensureSubscription(fx.agent.id);
      return { url: `/api/admin/agents/${fx.agent.id}/subscription`, body: { status: 'PAST_DUE' } };
    },
    invalid: (fx) => ({
      url: `/api/admin/agents/${fx.agent.id}/subscription`,
      body: { status: 'SUPERUSER' },
    }),
  },
  {
    method: 'POST',
    path: '/api/agent/subscription',
    expect: AGENT_ONLY(200),
    request: (fx) => ({ url: '/api/agent/subscription', body: { packageId: fx.packageId } }),
    invalid: () => ({ url: '/api/agent/subscription', body: { packageId: -1 } }),
  },
  {
    method: 'DELETE',
    path: '/api/agent/subscription',
    expect: AGENT_ONLY(200),
    request: async (fx, caller) => {
      if (caller === 'agent' || caller === 'otherAgent') await fx.ensureSubscription(fx[caller].id);
      return { url: '/api/agent/subscription' };
    },
  },
];
