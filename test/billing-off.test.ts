/** Without Stripe (docs/domain.md, Billing): subscribing activates at once, billing says OFF, nothing is paid. */
import { describe, expect, it } from 'vitest';
import { insertPackage } from './support/agent-fixtures';
import { registerAgent, setupTestApp } from './support/test-app';

const ctx = setupTestApp();

describe('without Stripe configured', () => {
  it('subscribing activates at once; billing is OFF; the portal and the webhook are not there', async () => {
    const pkg = await insertPackage(ctx.database.db);
    const agent = await registerAgent(ctx.app);
    const res = await agent.client.post('/api/agent/subscription', { packageId: pkg.id });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'ACTIVE', packageId: pkg.id });
    expect(res.json()).not.toHaveProperty('checkoutUrl');
    expect((await agent.client.get('/api/agent/billing')).json()).toEqual({
      state: 'OFF',
      pendingPackageId: null,
      currentPeriodEnd: null,
      canManage: false,
      lastInvoice: null,
    });
    const portal = await agent.client.post('/api/agent/billing/portal');
    expect(portal.statusCode).toBe(409);
    expect(portal.json()).toEqual({ message: 'Billing is not set up on this server' });
    const webhook = await ctx.app.inject({
      method: 'POST',
      url: '/api/billing/stripe/webhook',
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=00' },
      payload: '{"id":"evt_1"}',
    });
    expect(webhook.statusCode).toBe(404);
    const canceled = await agent.client.delete('/api/agent/subscription');
    expect(canceled.json()).toMatchObject({ status: 'CANCELED' });
  });
});
