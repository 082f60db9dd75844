import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { subscriptions } from '../src/server/db/schema';
import { insertLeads, insertPackage } from './support/agent-fixtures';
import { Client, loginAdmin, registerAgent, setupTestApp } from './support/test-app';

const ctx = setupTestApp();

async function rowsOf(userId: number) {
  return ctx.database.db.select().from(subscriptions).where(eq(subscriptions.userId, userId));
}

describe('POST and DELETE /api/agent/subscription', () => {
  it('subscribes, switches and cancels, keeping one subscription per agent', async () => {
    const db = ctx.database.db;
    const medicare = await insertPackage(db, {
      name: 'Medicare Basic',
      priceMonthlyCents: 9_900,
      leadsPerDay: 5,
    });
    const aca = await insertPackage(db, {
      name: 'ACA Plus',
      category: 'ACA',
      priceMonthlyCents: 24_900,
      leadsPerDay: 12,
    });
    const agent = await registerAgent(ctx.app);

    const sub = await agent.client.post('/api/agent/subscription', { packageId: medicare.id });
    expect(sub.statusCode).toBe(200);
    expect(sub.json()).toMatchObject({
      status: 'ACTIVE',
      packageId: medicare.id,
      package: {
        name: 'Medicare Basic',
        priceMonthlyCents: 9_900,
        category: 'MEDICARE',
        leadsPerDay: 5,
      },
    });
    let stats = (await agent.client.get('/api/agent/stats')).json();
    expect(stats.subscription).toMatchObject({
      status: 'ACTIVE',
      package: { name: 'Medicare Basic' },
    });
    expect(stats.todayQuota.limit).toBe(5);

    const switched = await agent.client.post('/api/agent/subscription', { packageId: aca.id });
    expect(switched.statusCode).toBe(200);
    expect(switched.json()).toMatchObject({
      id: sub.json().id,
      status: 'ACTIVE',
      packageId: aca.id,
      package: { name: 'ACA Plus', leadsPerDay: 12 },
    });
    expect(await rowsOf(agent.id)).toHaveLength(1);
    stats = (await agent.client.get('/api/agent/stats')).json();
    expect(stats.todayQuota.limit).toBe(12);

    const canceled = await agent.client.delete('/api/agent/subscription');
    expect(canceled.statusCode).toBe(200);
    expect(canceled.json()).toMatchObject({ status: 'CANCELED', packageId: aca.id });
    stats = (await agent.client.get('/api/agent/stats')).json();
    expect(stats.subscription.status).toBe('CANCELED');
    expect(stats.todayQuota.limit).toBe(0);

    const again = await agent.client.post('/api/agent/subscription', { packageId: medicare.id });
    expect(again.json()).toMatchObject({ status: 'ACTIVE', packageId: medicare.id });
    const rows = await rowsOf(agent.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'ACTIVE', packageId: medicare.id });
  });

  it('refuses an inactive package with 400 and an unknown one with 404, changing nothing', async () => {
    const db = ctx.database.db;
    const active = await insertPackage(db);
    const inactive = await insertPackage(db, { active: false });
    const agent = await registerAgent(ctx.app);

    const first = await agent.client.post('/api/agent/subscription', { packageId: inactive.id });
    expect(first.statusCode).toBe(400);
    expect(first.json()).toEqual({ message: 'This package is no longer available' });
    expect(await rowsOf(agent.id)).toHaveLength(0);

    await agent.client.post('/api/agent/subscription', { packageId: active.id });
    const toInactive = await agent.client.post('/api/agent/subscription', {
      packageId: inactive.id,
    });
    expect(toInactive.statusCode).toBe(400);
    const unknown = await agent.client.post('/api/agent/subscription', {
      packageId: 2_000_000_000,
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ message: 'Package not found' });
    const rows = await rowsOf(agent.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'ACTIVE', packageId: active.id });
  });

  it('refuses a bad body with 400, and a cancel without a subscription with 404', async () => {
    const agent = await registerAgent(ctx.app);
    for (const body of [{}, { packageId: 'one' }, { packageId: 0 }, { packageId: 1.5 }]) {
      const res = await agent.client.post('/api/agent/subscription', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message).toMatch(/^Package (is required|must be)/);
      expect(res.json().errors[0].field).toBe('packageId');
    }
    const cancel = await agent.client.delete('/api/agent/subscription');
    expect(cancel.statusCode).toBe(404);
    expect(cancel.json()).toEqual({ message: 'Subscription not found' });
  });

  it('keeps a subscriber on a package the admin deactivates later', async () => {
    const db = ctx.database.db;
    const pkg = await insertPackage(db, { leadsPerDay: 3 });
    const agent = await registerAgent(ctx.app);
    await agent.client.post('/api/agent/subscription', { packageId: pkg.id });
    const admin = await loginAdmin(ctx);
    expect(
      (await admin.client.patch(`/api/admin/packages/${pkg.id}`, { active: false })).statusCode,
    ).toBe(200);
    const stats = (await agent.client.get('/api/agent/stats')).json();
    expect(stats.subscription.status).toBe('ACTIVE');
    expect(stats.todayQuota.limit).toBe(3);
  });

  it('answers 401 without a session and 403 to an admin', async () => {
    const pkg = await insertPackage(ctx.database.db);
    const anon = new Client(ctx.app);
    expect((await anon.post('/api/agent/subscription', { packageId: pkg.id })).statusCode).toBe(
      401,
    );
    expect((await anon.delete('/api/agent/subscription')).statusCode).toBe(401);
    const admin = await loginAdmin(ctx);
    expect(
      (await admin.client.post('/api/agent/subscription', { packageId: pkg.id })).statusCode,
    ).toBe(403);
    expect(await rowsOf(admin.id)).toHaveLength(0);
  });
});

describe('who may lift a status (issue 17 item 1: an agent lifted PAST_DUE by subscribing)', () => {
  async function subscribed(status?: 'PAST_DUE' | 'INACTIVE' | 'CANCELED') {
    const db = ctx.database.db;
    const pkg = await insertPackage(db, { leadsPerDay: 5 });
    const other = await insertPackage(db, { leadsPerDay: 7, name: 'Other package' });
    const agent = await registerAgent(ctx.app);
    const admin = await loginAdmin(ctx);
    expect(
      (await agent.client.post('/api/agent/subscription', { packageId: pkg.id })).statusCode,
    ).toBe(200);
    if (status) {
      const set = await admin.client.patch(`/api/admin/agents/${agent.id}/subscription`, {
        status,
      });
      expect(set.statusCode, set.body).toBe(200);
    }
    return { agent, admin, pkg, other };
  }

  for (const status of ['PAST_DUE', 'INACTIVE', 'CANCELED'] as const) {
    it(`an agent cannot lift ${status} set by an admin, by subscribing or switching`, async () => {
      const { agent, admin, pkg, other } = await subscribed(status);
      for (const packageId of [pkg.id, other.id]) {
        const res = await agent.client.post('/api/agent/subscription', { packageId });
        expect(res.statusCode, res.body).toBe(200);
        // the switch is recorded, the status is not lifted
        expect(res.json()).toMatchObject({ status, packageId });
      }
      // and the engine gives the agent nothing
      await insertLeads(ctx.database.db, [{ category: 'MEDICARE' }, { category: 'MEDICARE' }]);
      const run = await admin.client.post('/api/admin/assignment/run', {});
      expect(run.statusCode, run.body).toBe(200);
      const leads = await agent.client.get('/api/agent/leads');
      expect(leads.json()).toEqual([]);
      // an admin can lift it
      const lifted = await admin.client.patch(`/api/admin/agents/${agent.id}/subscription`, {
        status: 'ACTIVE',
      });
      expect(lifted.json().subscription.status).toBe('ACTIVE');
    });
  }

  for (const status of ['PAST_DUE', 'INACTIVE', 'CANCELED'] as const) {
    it(`an agent cannot cancel their way out of ${status} set by an admin (DELETE, then POST)`, async () => {
      const { agent, pkg } = await subscribed(status);
      const cancel = await agent.client.delete('/api/agent/subscription');
      expect(cancel.statusCode, cancel.body).toBe(409);
      expect(cancel.json().message).toMatch(/stays as it is until an admin or a payment/);
      expect((await rowsOf(agent.id))[0]).toMatchObject({ status, statusSetBy: 'ADMIN' });
      const again = await agent.client.post('/api/agent/subscription', { packageId: pkg.id });
      expect(again.json()).toMatchObject({ status });
    });
  }

  it("the agent's own cancellation is theirs to undo, and switching keeps ACTIVE", async () => {
    const { agent, other } = await subscribed();
    expect((await agent.client.delete('/api/agent/subscription')).json().status).toBe('CANCELED');
    const back = await agent.client.post('/api/agent/subscription', { packageId: other.id });
    expect(back.json()).toMatchObject({ status: 'ACTIVE', packageId: other.id });
    expect((await rowsOf(agent.id))[0].statusSetBy).toBe('AGENT');
  });

  it('an admin who sets ACTIVE after a cancellation by the agent records it as theirs', async () => {
    const { agent, admin } = await subscribed();
    await agent.client.delete('/api/agent/subscription');
    await admin.client.patch(`/api/admin/agents/${agent.id}/subscription`, { status: 'CANCELED' });
    expect((await rowsOf(agent.id))[0].statusSetBy).toBe('ADMIN');
    const res = await agent.client.post('/api/agent/subscription', {
      packageId: (await rowsOf(agent.id))[0].packageId,
    });
    expect(res.json().status).toBe('CANCELED');
  });
});
