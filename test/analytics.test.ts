import { eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { leadHistory, leads } from '../src/server/db/schema';
import { businessDate } from '../src/server/lib/business-time';
import { daysBefore, insertLeads } from './support/admin-fixtures';
import { Client, loginAdmin, registerAgent, setupTestApp } from './support/test-app';

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
