import { AGENT_ONLY, PUBLIC, type RouteCase } from './route-case';

export const billingRoutes: RouteCase[] = [
  // billing (docs/domain.md, Billing): this app runs without Stripe, so the portal has nothing to open (409)
  // and the webhook answers 404; test/billing.test.ts runs them with Stripe
  {
    method: 'GET',
    path: '/api/agent/billing',
    expect: AGENT_ONLY(200),
    request: () => ({ url: '/api/agent/billing' }),
  },
  {
    method: 'POST',
    path: '/api/agent/billing/portal',
    expect: AGENT_ONLY(409),
    request: () => ({ url: '/api/agent/billing/portal' }),
  },
  {
    method: 'POST',
    path: '/api/billing/stripe/webhook',
    expect: PUBLIC(404),
    request: () => ({ url: '/api/billing/stripe/webhook', body: { id: 'evt_1' } }),
  },
];
