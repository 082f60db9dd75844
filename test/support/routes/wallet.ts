import { ADMIN_ONLY, AGENT_ONLY, type RouteCase } from './route-case';

/** The wallet (docs/domain.md, The wallet) and a pay-per-lead package's price list. */
export const walletRoutes: RouteCase[] = [
  {
    method: 'GET',
    path: '/api/agent/wallet',
    expect: AGENT_ONLY(200),
    request: () => ({ url: '/api/agent/wallet' }),
    invalid: () => ({ url: '/api/agent/wallet?page=0' }),
  },
  {
    // the matrix's server has no Stripe: an agent may ask, and is told to ask an admin
    method: 'POST',
    path: '/api/agent/wallet/top-up',
    expect: AGENT_ONLY(409),
    request: () => ({ url: '/api/agent/wallet/top-up', body: { amountCents: 5000 } }),
    invalid: () => ({ url: '/api/agent/wallet/top-up', body: { amountCents: 'lots' } }),
  },
  {
    method: 'PUT',
    path: '/api/agent/wallet/auto-recharge',
    expect: AGENT_ONLY(200),
    request: () => ({
      url: '/api/agent/wallet/auto-recharge',
      body: { enabled: false, belowCents: null, amountCents: null },
    }),
    invalid: () => ({
      url: '/api/agent/wallet/auto-recharge',
      body: { enabled: true, belowCents: null, amountCents: null },
    }),
  },
  {
    method: 'GET',
    path: '/api/admin/wallets',
    expect: ADMIN_ONLY(200),
    request: () => ({ url: '/api/admin/wallets' }),
  },
  {
    method: 'POST',
    path: '/api/admin/agents/:id/wallet',
    expect: ADMIN_ONLY(200),
    request: (fx) => ({
      url: `/api/admin/agents/${fx.agent.id}/wallet`,
      body: { amountCents: 1000, note: 'Matrix credit' },
    }),
    invalid: (fx) => ({
      url: `/api/admin/agents/${fx.agent.id}/wallet`,
      body: { amountCents: -5, note: '' },
    }),
  },
  {
    method: 'GET',
    path: '/api/admin/packages/:id/prices',
    expect: ADMIN_ONLY(200),
    request: (fx) => ({ url: `/api/admin/packages/${fx.packageId}/prices` }),
    invalid: () => ({ url: '/api/admin/packages/not-a-number/prices' }),
  },
  {
    method: 'PUT',
    path: '/api/admin/packages/:id/prices',
    expect: ADMIN_ONLY(200),
    request: async (fx) => {
      const id = await fx.perLeadPackage();
      return {
        url: `/api/admin/packages/${id}/prices`,
        body: { rules: [{ state: 'FL', priceCents: 2500 }] },
      };
    },
    invalid: (fx) => ({
      url: `/api/admin/packages/${fx.packageId}/prices`,
      body: { rules: [{ priceCents: 0 }] },
    }),
  },
];
