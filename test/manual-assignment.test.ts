import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { leadHistory, leads } from '../src/server/db/schema';
import { businessDate } from '../src/server/lib/business-time';
import { insertLeads } from './support/admin-fixtures';
import { Client, loginAdmin, registerAgent, setupTestApp } from './support/test-app';

const ctx = setupTestApp();

let seq = 0;
/** A unique token for this file's rows, so searches only see what a test created. */
function tag(prefix = 't'): string {
  return `${prefix}${process.pid}x${Date.now().toString(36)}x${++seq}`;
}

describe('POST /api/admin/leads/assign', () => {
  it('assigns a NEW lead, records the history with the admin, and refuses a second assignment with 409', async () => {
    const admin = await loginAdmin(ctx);
    const agent = await registerAgent(ctx.app, 'Assignee');
    const other = await registerAgent(ctx.app, 'Other');
    const [lead] = await insertLeads(ctx, [{ firstName: tag('asg') }]);

    const res = await admin.client.post('/api/admin/leads/assign', {
      leadId: lead.id,
      userId: agent.id,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: lead.id, status: 'ASSIGNED', agentId: agent.id });
    const [row] = await ctx.database.db.select().from(leads).where(eq(leads.id, lead.id));
    expect(row.assignedOn).toBe(businessDate(ctx.app.config.BUSINESS_TZ));
    expect(row.assignedAt).toBeInstanceOf(Date);
    const history = await ctx.database.db
      .select()
      .from(leadHistory)
      .where(eq(leadHistory.leadId, lead.id));
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({
      kind: 'MANUAL_ASSIGNED',
      actorId: admin.id,
      fromStatus: 'NEW',
      toStatus: 'ASSIGNED',
      agentId: agent.id,
    });

    // the Assign Lead dialog's call for a NEW lead: it never reassigns one taken meanwhile
    const again = await admin.client.post('/api/admin/leads/assign', {
      leadId: lead.id,
      userId: other.id,
      fromAgentId: null,
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toMatch(/no longer available/);
    const [after] = await ctx.database.db.select().from(leads).where(eq(leads.id, lead.id));
    expect(after.agentId).toBe(agent.id);
    expect(
      await ctx.database.db.select().from(leadHistory).where(eq(leadHistory.leadId, lead.id)),
    ).toHaveLength(1);
    // the agent now sees it in the admin list as ASSIGNED
    const listed = await admin.client.get(`/api/admin/leads?q=${lead.firstName}`);
    expect(listed.json()[0]).toMatchObject({ status: 'ASSIGNED', agentId: agent.id });
  });

  it('lets only one of two simultaneous assignments win', async () => {
    const admin = await loginAdmin(ctx);
    const a = await registerAgent(ctx.app);
    const b = await registerAgent(ctx.app);
    const [lead] = await insertLeads(ctx, [{}]);
    const results = await Promise.all([
      admin.client.post('/api/admin/leads/assign', { leadId: lead.id, userId: a.id }),
      admin.client.post('/api/admin/leads/assign', { leadId: lead.id, userId: b.id }),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const history = await ctx.database.db
      .select()
      .from(leadHistory)
      .where(and(eq(leadHistory.leadId, lead.id), eq(leadHistory.kind, 'MANUAL_ASSIGNED')));
    expect(history).toHaveLength(1);
  });

  it('lets the admin exceed a quota, refuses a non-NEW lead, a missing lead and a non-agent', async () => {
    const admin = await loginAdmin(ctx);
    const agent = await registerAgent(ctx.app);
    const [contacted, fresh] = await insertLeads(ctx, [{ status: 'CONTACTED' }, {}]);
    const res = (leadId: number, userId: number) =>
      admin.client.post('/api/admin/leads/assign', { leadId, userId });
    expect((await res(contacted.id, agent.id)).statusCode).toBe(409);
    expect((await res(999_999_999, agent.id)).statusCode).toBe(404);
    expect((await res(fresh.id, 999_999)).statusCode).toBe(404);
    const toAdmin = await res(fresh.id, admin.id);
    expect(toAdmin.statusCode).toBe(400);
    expect(toAdmin.json().message).toBe('Leads can only be assigned to agents');
    expect((await admin.client.post('/api/admin/leads/assign', { leadId: 'x' })).statusCode).toBe(
      400,
    );
    const [still] = await ctx.database.db.select().from(leads).where(eq(leads.id, fresh.id));
    expect(still.status).toBe('NEW');
  });

  it('is for admins only', async () => {
    const agent = await registerAgent(ctx.app);
    const [lead] = await insertLeads(ctx, [{}]);
    const body = { leadId: lead.id, userId: agent.id };
    expect((await agent.client.post('/api/admin/leads/assign', body)).statusCode).toBe(403);
    expect((await new Client(ctx.app).post('/api/admin/leads/assign', body)).statusCode).toBe(401);
    const [row] = await ctx.database.db.select().from(leads).where(eq(leads.id, lead.id));
    expect(row.agentId).toBeNull();
  });
});
