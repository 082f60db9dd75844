import { eq } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { subscriptions } from '../src/server/db/schema';
import { businessDate } from '../src/server/lib/business-time';
import { dayBefore, insertLeads, insertPackage } from './support/agent-fixtures';
import { Client, loginAdmin, registerAgent, setupTestApp } from './support/test-app';

// UTC+14: at noon UTC its business date is already tomorrow, while UTC, New York and any
// server zone west of +12 are still on today (see the time zone test).
const BUSINESS_TZ = 'Etc/GMT-14';
const ctx = setupTestApp({ BUSINESS_TZ });
const today = () => businessDate(BUSINESS_TZ);

describe('GET /api/agent/stats', () => {
  it('answers zeros and no subscription for a new agent', async () => {
    const agent = await registerAgent(ctx.app);
    const res = await agent.client.get('/api/agent/stats');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      todayQuota: { assigned: 0, limit: 0 },
      totalLeads: 0,
      convertedLeads: 0,
    });
  });

  it('counts the agent own leads by status and today, with the package limit', async () => {
    const db = ctx.database.db;
    const pkg = await insertPackage(db, {
      name: 'Medicare Pro',
      priceMonthlyCents: 14_900,
      leadsPerDay: 7,
    });
    const agent = await registerAgent(ctx.app);
    const other = await registerAgent(ctx.app, 'Other Agent');
    await db.insert(subscriptions).values({ userId: agent.id, packageId: pkg.id });
    const d = today();
    await insertLeads(db, [
      // today: 3, of which 1 converted
      { agentId: agent.id, assignedOn: d, status: 'ASSIGNED' },
      { agentId: agent.id, assignedOn: d, status: 'CONTACTED' },
      { agentId: agent.id, assignedOn: d, status: 'CONVERTED' },
      // earlier days: 4, of which 2 converted
      { agentId: agent.id, assignedOn: dayBefore(d), status: 'CONVERTED' },
      { agentId: agent.id, assignedOn: dayBefore(d), status: 'INVALID' },
      { agentId: agent.id, assignedOn: dayBefore(dayBefore(d)), status: 'CONVERTED' },
      { agentId: agent.id, assignedOn: dayBefore(dayBefore(d)), status: 'IN_PROGRESS' },
      // someone else's today, and unassigned leads: none of them count
      { agentId: other.id, assignedOn: d, status: 'CONVERTED' },
      { agentId: other.id, assignedOn: d, status: 'ASSIGNED' },
      { status: 'NEW' },
      { status: 'NEW' },
    ]);

    const res = await agent.client.get('/api/agent/stats');
    expect(res.statusCode).toBe(200);
    const stats = res.json();
    expect(stats.todayQuota).toEqual({ assigned: 3, limit: 7 });
    expect(stats.totalLeads).toBe(7);
    expect(stats.convertedLeads).toBe(3);
    expect(stats.subscription).toMatchObject({
      status: 'ACTIVE',
      packageId: pkg.id,
      package: { name: 'Medicare Pro', priceMonthlyCents: 14_900, leadsPerDay: 7 },
    });

    const otherStats = (await other.client.get('/api/agent/stats')).json();
    expect(otherStats).toEqual({
      todayQuota: { assigned: 2, limit: 0 },
      totalLeads: 2,
      convertedLeads: 1,
    });
  });

  it('counts today in BUSINESS_TZ, not in UTC, New York or the server zone', async () => {
    const db = ctx.database.db;
    const pkg = await insertPackage(db, { leadsPerDay: 5 });
    const agent = await registerAgent(ctx.app);
    await db.insert(subscriptions).values({ userId: agent.id, packageId: pkg.id });
    // noon UTC of the real day, so sessions stay valid: +14 is on the next date by then
    const noonUtc = new Date(`${new Date().toISOString().slice(0, 10)}T12:00:00Z`);
    const businessToday = businessDate(BUSINESS_TZ, noonUtc);
    const utcToday = businessDate('UTC', noonUtc);
    expect(businessToday).not.toBe(utcToday);
    expect(businessDate('America/New_York', noonUtc)).toBe(utcToday);
    await insertLeads(db, [
      { agentId: agent.id, assignedOn: businessToday },
      { agentId: agent.id, assignedOn: utcToday },
      { agentId: agent.id, assignedOn: utcToday },
    ]);
    vi.useFakeTimers({ toFake: ['Date'], now: noonUtc });
    try {
      const stats = (await agent.client.get('/api/agent/stats')).json();
      expect(stats.todayQuota).toEqual({ assigned: 1, limit: 5 });
      expect(stats.totalLeads).toBe(3);
    } finally {
      vi.useRealTimers();
    }
  });

  it('shows a canceled subscription with a limit of 0', async () => {
    const db = ctx.database.db;
    const pkg = await insertPackage(db, { name: 'ACA Starter', category: 'ACA', leadsPerDay: 4 });
    const agent = await registerAgent(ctx.app);
    await db
      .insert(subscriptions)
      .values({ userId: agent.id, packageId: pkg.id, status: 'CANCELED' });
    await insertLeads(db, [{ agentId: agent.id, assignedOn: today(), status: 'CONTACTED' }]);
    const stats = (await agent.client.get('/api/agent/stats')).json();
    expect(stats.subscription).toMatchObject({
      status: 'CANCELED',
      package: { name: 'ACA Starter' },
    });
    expect(stats.todayQuota).toEqual({ assigned: 1, limit: 0 });
    const [row] = await db.select().from(subscriptions).where(eq(subscriptions.userId, agent.id));
    expect(row.status).toBe('CANCELED');
  });

  it('answers 401 without a session and 403 to an admin', async () => {
    expect((await new Client(ctx.app).get('/api/agent/stats')).statusCode).toBe(401);
    const admin = await loginAdmin(ctx);
    const res = await admin.client.get('/api/agent/stats');
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ message: 'Forbidden' });
  });
});
