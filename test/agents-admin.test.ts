import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { subscriptions } from '../src/server/db/schema';
import { businessDate } from '../src/server/lib/business-time';
import { createPackage, daysBefore, insertLeads, subscribe } from './support/admin-fixtures';
import { loginAdmin, registerAgent, setupTestApp } from './support/test-app';

describe('GET /api/admin/agents and PATCH .../subscription', () => {
  const ctx = setupTestApp();

  it("lists every agent with package, status, today's quota and lead counts", async () => {
    const admin = await loginAdmin(ctx);
    const pkg = await createPackage(ctx, {
      name: 'Gold',
      priceMonthlyCents: 49_900,
      leadsPerDay: 4,
    });
    const busy = await registerAgent(ctx.app, 'Busy Agent');
    const idle = await registerAgent(ctx.app, 'Idle Agent');
    await subscribe(ctx, busy.id, pkg.id, 'ACTIVE');
    const today = businessDate(ctx.app.config.BUSINESS_TZ);
    const yesterday = daysBefore(today, 1);
    await insertLeads(ctx, [
      { status: 'ASSIGNED', agentId: busy.id, assignedOn: today },
      { status: 'CONVERTED', agentId: busy.id, assignedOn: today },
      { status: 'CONVERTED', agentId: busy.id, assignedOn: yesterday },
      { status: 'CONTACTED', agentId: busy.id, assignedOn: yesterday },
      { status: 'NEW' },
    ]);

    const res = await admin.client.get('/api/admin/agents');
    expect(res.statusCode).toBe(200);
    const list = res.json();
    expect(list.map((a: { name: string }) => a.name)).toEqual(['Busy Agent', 'Idle Agent']);
    expect(list[0]).toEqual({
      id: busy.id,
      name: 'Busy Agent',
      email: busy.email,
      approval: 'APPROVED',
      disabled: false,
      totalLeads: 4,
      convertedLeads: 2,
      todayQuota: { assigned: 2, limit: 4 },
      subscription: {
        id: expect.any(Number),
        status: 'ACTIVE',
        package: { name: 'Gold', priceMonthlyCents: 49_900, category: 'MEDICARE', leadsPerDay: 4 },
      },
      // without Stripe no agent is billed (test/billing.test.ts covers the billed ones)
      billing: null,
      // no phone, no licence recorded, not paused
      phone: null,
      licensedStates: [],
      pause: null,
      // speed to lead: none of the leads was assigned through a timed path here
    });
    expect(list[1]).toEqual({
      id: idle.id,
      name: 'Idle Agent',
      email: idle.email,
      approval: 'APPROVED',
      disabled: false,
      totalLeads: 0,
      convertedLeads: 0,
      todayQuota: null,
      subscription: null,
      billing: null,
      phone: null,
      licensedStates: [],
      pause: null,
    });
    // admins are not agents
    expect(list.map((a: { id: number }) => a.id)).not.toContain(admin.id);
  });

  it("changes an agent's subscription status; 404 without a subscription or agent", async () => {
    const admin = await loginAdmin(ctx);
    const pkg = await createPackage(ctx);
    const agent = await registerAgent(ctx.app, 'Sub Agent');
    const none = await registerAgent(ctx.app, 'No Sub');
    await subscribe(ctx, agent.id, pkg.id, 'ACTIVE');
    const before = (await admin.client.get('/api/admin/stats')).json().activeAgents;

    const res = await admin.client.patch(`/api/admin/agents/${agent.id}/subscription`, {
      status: 'PAST_DUE',
    });
    expect(res.statusCode).toBe(200);
    // only an ACTIVE subscription receives leads, so its daily limit is now 0
    expect(res.json()).toMatchObject({
      id: agent.id,
      subscription: { status: 'PAST_DUE' },
      todayQuota: { assigned: 0, limit: 0 },
    });
    const listed = (await admin.client.get('/api/admin/agents'))
      .json()
      .find((a: { id: number }) => a.id === agent.id);
    expect(listed.subscription.status).toBe('PAST_DUE');
    expect((await admin.client.get('/api/admin/stats')).json().activeAgents).toBe(before - 1);

    const missing = await admin.client.patch(`/api/admin/agents/${none.id}/subscription`, {
      status: 'ACTIVE',
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe('This agent has no subscription');
    expect(
      (await admin.client.patch('/api/admin/agents/999999/subscription', { status: 'ACTIVE' }))
        .statusCode,
    ).toBe(404);
    expect(
      (await admin.client.patch(`/api/admin/agents/${admin.id}/subscription`, { status: 'ACTIVE' }))
        .statusCode,
    ).toBe(404);
    expect(
      (await admin.client.patch(`/api/admin/agents/${agent.id}/subscription`, { status: 'PAUSED' }))
        .statusCode,
    ).toBe(400);
    expect(
      (await agent.client.patch(`/api/admin/agents/${agent.id}/subscription`, { status: 'ACTIVE' }))
        .statusCode,
    ).toBe(403);
    expect((await agent.client.get('/api/admin/agents')).statusCode).toBe(403);
    const [row] = await ctx.database.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.userId, agent.id));
    expect(row.status).toBe('PAST_DUE');
  });
});
