import { describe, expect, it } from 'vitest';
import { createPackage, insertLeads, subscribe } from './support/admin-fixtures';
import { Client, loginAdmin, registerAgent, setupTestApp } from './support/test-app';

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
      // over the 4 leads an agent has, not the 7 stored
      conversionRate: (2 / 4) * 100,
    });
  });

  it('is for admins only', async () => {
    const agent = await registerAgent(ctx.app);
    expect((await agent.client.get('/api/admin/stats')).statusCode).toBe(403);
    expect((await new Client(ctx.app).get('/api/admin/stats')).statusCode).toBe(401);
  });
});
