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

  it('answers for a period: leads stored in it, leads assigned in it and converted by now', async () => {
    const admin = await loginAdmin(ctx);
    const today = businessDate(ctx.app.config.BUSINESS_TZ);
    const ann = await registerAgent(ctx.app, 'Period Ann');
    const bob = await registerAgent(ctx.app, 'Period Bob');
    const at = (date: string) => new Date(`${date}T17:00:00Z`); // midday in the US zones
    const periodOf = async (days: number) => {
      const res = await admin.client.get(
        `/api/admin/analytics?from=${daysBefore(today, days - 1)}&to=${today}`,
      );
      expect(res.statusCode).toBe(200);
      return res.json();
    };
    // the figures the file's other tests left, then what this test adds to them
    type Figures = Awaited<ReturnType<typeof periodOf>>;
    const added = (after: Figures, before: Figures) => ({
      totalLeads: after.totalLeads - before.totalLeads,
      assignedLeads: after.assignedLeads - before.assignedLeads,
      convertedLeads: after.convertedLeads - before.convertedLeads,
      aca:
        (after.categoryDistribution.find((c: { category: string }) => c.category === 'ACA')
          ?.count ?? 0) -
        (before.categoryDistribution.find((c: { category: string }) => c.category === 'ACA')
          ?.count ?? 0),
      agents: after.conversionsByAgent.filter((a: { name: string }) =>
        a.name.startsWith('Period '),
      ),
    });
    const [weekBefore, monthBefore] = [await periodOf(7), await periodOf(30)];
    const assigned = (agentId: number, date: string, status: 'ASSIGNED' | 'CONVERTED') => ({
      agentId,
      status,
      assignedOn: date,
      assignedAt: at(date),
      createdAt: at(date),
    });
    await insertLeads(ctx, [
      // in the last 7 days: 2 stored and unassigned, 3 assigned of which 2 converted
      { createdAt: at(daysBefore(today, 1)) },
      { category: 'ACA', createdAt: at(daysBefore(today, 6)) },
      assigned(ann.id, daysBefore(today, 2), 'CONVERTED'),
      assigned(ann.id, today, 'CONVERTED'),
      assigned(bob.id, daysBefore(today, 5), 'ASSIGNED'),
      // before it: counted in 30 days, not in 7
      { createdAt: at(daysBefore(today, 10)) },
      assigned(bob.id, daysBefore(today, 12), 'CONVERTED'),
    ]);

    const week = await periodOf(7);
    expect(added(week, weekBefore)).toEqual({
      totalLeads: 5,
      assignedLeads: 3,
      convertedLeads: 2,
      aca: 1,
      agents: [{ name: 'Period Ann', converted: 2 }],
    });
    // one point a day of the period, the first day first
    expect(week.assignmentsOverTime).toHaveLength(7);
    expect(week.assignmentsOverTime[0].date).toBe(daysBefore(today, 6));

    const month = await periodOf(30);
    expect(added(month, monthBefore)).toEqual({
      totalLeads: 7,
      assignedLeads: 4,
      convertedLeads: 3,
      aca: 1,
      agents: [
        { name: 'Period Ann', converted: 2 },
        { name: 'Period Bob', converted: 1 },
      ],
    });
    expect(month.assignmentsOverTime).toHaveLength(30);

    // a period that is not one
    const backwards = await admin.client.get(`/api/admin/analytics?from=${today}&to=2020-01-01`);
    expect(backwards.statusCode).toBe(400);
  });
});
