import { eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { leadHistory, leads, packages, subscriptions } from '../src/server/db/schema';
import { businessDate } from '../src/server/lib/business-time';
import type { SubscriptionStatus } from '../src/shared/domain';
import {
  Client,
  loginAdmin,
  registerAgent,
  setupTestApp,
  type TestContext,
} from './support/test-app';

let seq = 0;
async function createPackage(
  ctx: TestContext,
  overrides: Partial<typeof packages.$inferInsert> = {},
) {
  const [row] = await ctx.database.db
    .insert(packages)
    .values({
      slug: `pkg-${process.pid}-${++seq}`,
      name: `Package ${seq}`,
      category: 'MEDICARE',
      priceMonthlyCents: 19_900,
      leadsPerDay: 5,
      commissionPct: 10,
      ...overrides,
    })
    .returning();
  return row;
}

async function subscribe(
  ctx: TestContext,
  userId: number,
  packageId: number,
  status: SubscriptionStatus = 'ACTIVE',
) {
  await ctx.database.db.insert(subscriptions).values({ userId, packageId, status });
}

async function insertLeads(ctx: TestContext, rows: Partial<typeof leads.$inferInsert>[]) {
  return ctx.database.db
    .insert(leads)
    .values(
      rows.map((r) => ({
        city: 'Austin',
        state: 'TX',
        age: 65,
        category: 'MEDICARE' as const,
        ...r,
      })),
    )
    .returning();
}

function daysBefore(date: string, days: number): string {
  const d = new Date(`${date}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() - days);
  return d.toISOString().slice(0, 10);
}

describe('GET /api/admin/stats', () => {
  const ctx = setupTestApp();

  it('counts packages, leads, agents and the conversion rate from the data', async () => {
    const admin = await loginAdmin(ctx);
    const empty = await admin.client.get('/api/admin/stats');
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toEqual({
      totalPackages: 0,
      activePackages: 0,
      totalLeads: 0,
      unassignedLeads: 0,
      totalAgents: 0,
      activeAgents: 0,
      conversionRate: 0,
    });

    const p1 = await createPackage(ctx);
    await createPackage(ctx, { active: false });
    await createPackage(ctx);
    const a = await registerAgent(ctx.app, 'A');
    const b = await registerAgent(ctx.app, 'B');
    await registerAgent(ctx.app, 'C (no subscription)');
    await subscribe(ctx, a.id, p1.id, 'ACTIVE');
    await subscribe(ctx, b.id, p1.id, 'PAST_DUE');
    await insertLeads(ctx, [
      {},
      {},
      {},
      { status: 'ASSIGNED', agentId: a.id },
      { status: 'CONVERTED', agentId: a.id },
      { status: 'CONVERTED', agentId: b.id },
      { status: 'INVALID', agentId: b.id },
    ]);

    const res = await admin.client.get('/api/admin/stats');
    expect(res.json()).toEqual({
      totalPackages: 3,
      activePackages: 2,
      totalLeads: 7,
      unassignedLeads: 3,
      totalAgents: 3,
      activeAgents: 1,
      conversionRate: (2 / 7) * 100,
    });
  });

  it('is for admins only', async () => {
    const agent = await registerAgent(ctx.app);
    expect((await agent.client.get('/api/admin/stats')).statusCode).toBe(403);
    expect((await new Client(ctx.app).get('/api/admin/stats')).statusCode).toBe(401);
  });
});

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
      totalLeads: 4,
      convertedLeads: 2,
      todayQuota: { assigned: 2, limit: 4 },
      subscription: {
        id: expect.any(Number),
        status: 'ACTIVE',
        package: { name: 'Gold', priceMonthlyCents: 49_900 },
      },
    });
    expect(list[1]).toEqual({
      id: idle.id,
      name: 'Idle Agent',
      email: idle.email,
      totalLeads: 0,
      convertedLeads: 0,
      todayQuota: null,
      subscription: null,
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

describe('GET /api/admin/analytics', () => {
  const ctx = setupTestApp();

  it('computes totals, assignments per business day, top converters and categories', async () => {
    const admin = await loginAdmin(ctx);
    const tz = ctx.app.config.BUSINESS_TZ;
    const today = businessDate(tz);

    const empty = (await admin.client.get('/api/admin/analytics')).json();
    expect(empty).toMatchObject({
      totalLeads: 0,
      assignedLeads: 0,
      convertedLeads: 0,
      conversionsByAgent: [],
      categoryDistribution: [],
    });
    expect(empty.assignmentsOverTime).toHaveLength(30);
    expect(empty.assignmentsOverTime[29]).toEqual({ date: today, count: 0 });
    expect(empty.assignmentsOverTime[0]).toEqual({ date: daysBefore(today, 29), count: 0 });

    const ann = await registerAgent(ctx.app, 'Ann');
    const bob = await registerAgent(ctx.app, 'Bob');
    const fresh = await insertLeads(ctx, [
      {},
      {},
      {},
      { category: 'ACA' },
      { category: 'FINAL_EXPENSE' },
      { category: 'FINAL_EXPENSE' },
    ]);
    // three manual assignments today (history rows dated now)
    for (const [lead, agent] of [
      [fresh[0], ann],
      [fresh[1], ann],
      [fresh[3], bob],
    ] as const) {
      const res = await admin.client.post('/api/admin/leads/assign', {
        leadId: lead.id,
        userId: agent.id,
      });
      expect(res.statusCode).toBe(200);
    }
    await ctx.database.db
      .update(leads)
      .set({ status: 'CONVERTED' })
      .where(inArray(leads.id, [fresh[0].id, fresh[1].id, fresh[3].id]));
    await ctx.database.db
      .update(leads)
      .set({ status: 'ASSIGNED' })
      .where(eq(leads.id, fresh[3].id));
    // an engine assignment 3 business days ago, and one outside the 30-day window
    const [old] = await insertLeads(ctx, [{ status: 'ASSIGNED', agentId: bob.id }]);
    const at = (date: string) => new Date(`${date}T17:00:00Z`); // midday in the US zones
    await ctx.database.db.insert(leadHistory).values([
      {
        leadId: old.id,
        kind: 'AUTO_ASSIGNED',
        toStatus: 'ASSIGNED',
        agentId: bob.id,
        createdAt: at(daysBefore(today, 3)),
      },
      {
        leadId: old.id,
        kind: 'AUTO_ASSIGNED',
        toStatus: 'ASSIGNED',
        agentId: bob.id,
        createdAt: at(daysBefore(today, 40)),
      },
      // not an assignment: not counted
      { leadId: old.id, kind: 'IMPORTED', toStatus: 'NEW', createdAt: at(daysBefore(today, 3)) },
    ]);

    const res = await admin.client.get('/api/admin/analytics');
    expect(res.statusCode).toBe(200);
    const data = res.json();
    expect(data).toMatchObject({ totalLeads: 7, assignedLeads: 4, convertedLeads: 2 });
    expect(data.assignmentsOverTime).toHaveLength(30);
    expect(data.assignmentsOverTime[29]).toEqual({ date: today, count: 3 });
    expect(data.assignmentsOverTime[26]).toEqual({ date: daysBefore(today, 3), count: 1 });
    expect(
      data.assignmentsOverTime.reduce((n: number, d: { count: number }) => n + d.count, 0),
    ).toBe(4);
    expect(data.conversionsByAgent).toEqual([{ name: 'Ann', converted: 2 }]);
    expect(data.categoryDistribution).toEqual([
      { category: 'MEDICARE', count: 4 },
      { category: 'ACA', count: 1 },
      { category: 'FINAL_EXPENSE', count: 2 },
    ]);

    const agent = await registerAgent(ctx.app);
    expect((await agent.client.get('/api/admin/analytics')).statusCode).toBe(403);
    expect((await new Client(ctx.app).get('/api/admin/analytics')).statusCode).toBe(401);
  });

  it('lists at most 10 agents by conversions, most first', async () => {
    const admin = await loginAdmin(ctx);
    const rows = [];
    for (let i = 1; i <= 12; i++) {
      const agent = await registerAgent(ctx.app, `Top ${String(i).padStart(2, '0')}`);
      for (let k = 0; k < i; k++) rows.push({ status: 'CONVERTED' as const, agentId: agent.id });
    }
    await insertLeads(ctx, rows);
    const data = (await admin.client.get('/api/admin/analytics')).json();
    expect(data.conversionsByAgent).toHaveLength(10);
    expect(data.conversionsByAgent[0]).toEqual({ name: 'Top 12', converted: 12 });
    expect(data.conversionsByAgent[9]).toEqual({ name: 'Top 03', converted: 3 });
  });
});
