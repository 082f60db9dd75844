/**
 * Offboarding (docs/domain.md, Offboarding): an admin disables an account (its sessions end at
 * once, it cannot log in nor call the API, a disabled agent gets no lead from any trigger) and
 * enables it again; and reassigns the leads an agent was working to another agent who fits them.
 */
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { leadHistory, leads, sessions, users } from '../src/server/db/schema';
import { businessDate } from '../src/server/lib/business-time';
import { createPackage, subscribe } from './support/admin-fixtures';
import { insertLeads } from './support/agent-fixtures';
import { createLeads } from './support/assignment-fixtures';
import { availabilityFixtures } from './support/availability-fixtures';
import { Client, loginAdmin, registerAgent, setupTestApp } from './support/test-app';

const ctx = setupTestApp({ ASSIGN_ON_IMPORT: false });
const { db, run, subscribedAgent, agentOf, intakeKey, postLead } = availabilityFixtures(ctx);

const disable = async (admin: { client: Client }, userId: number, disabled = true) =>
  admin.client.patch(`/api/admin/users/${userId}`, { disabled });

/** The lead's REASSIGNED history rows. */
const reassignments = (leadId: number) =>
  db()
    .select()
    .from(leadHistory)
    .where(and(eq(leadHistory.leadId, leadId), eq(leadHistory.kind, 'REASSIGNED')));

describe('disabling an account', () => {
  it('ends its sessions at once, refuses its login and API calls, and re-enabling restores login but not the old sessions', async () => {
    const admin = await loginAdmin(ctx);
    const agent = await subscribedAgent();
    const secondBrowser = new Client(ctx.app);
    await secondBrowser.post('/api/auth/login', { email: agent.email, password: agent.password });
    expect((await agent.client.get('/api/agent/leads')).statusCode).toBe(200);

    const res = await disable(admin, agent.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: agent.id, disabled: true, role: 'AGENT' });
    expect(await db().select().from(sessions).where(eq(sessions.userId, agent.id))).toHaveLength(0);
    for (const client of [agent.client, secondBrowser]) {
      expect((await client.get('/api/agent/leads')).statusCode).toBe(401);
      expect((await client.get('/api/auth/me')).statusCode).toBe(401);
    }
    const login = await new Client(ctx.app).post('/api/auth/login', {
      email: agent.email,
      password: agent.password,
    });
    expect(login.statusCode).toBe(403);
    expect(login.json().message).toBe('This account is disabled');
    // a wrong password still says only that
    const guess = await new Client(ctx.app).post('/api/auth/login', {
      email: agent.email,
      password: 'not-the-password',
    });
    expect(guess.statusCode).toBe(401);
    expect(guess.json().message).toBe('Invalid email or password');
    const listed = (await admin.client.get('/api/admin/agents')).json();
    expect(listed.find((a: { id: number }) => a.id === agent.id).disabled).toBe(true);

    const enabled = await disable(admin, agent.id, false);
    expect(enabled.json()).toMatchObject({ disabled: false, disabledAt: null });
    // the old sessions stay ended; a new login works
    expect((await agent.client.get('/api/agent/leads')).statusCode).toBe(401);
    const back = new Client(ctx.app);
    const again = await back.post('/api/auth/login', {
      email: agent.email,
      password: agent.password,
    });
    expect(again.statusCode).toBe(200);
    expect((await back.get('/api/agent/leads')).statusCode).toBe(200);
  });

  it('refuses an admin disabling themself, and answers 404 for no such user', async () => {
    const admin = await loginAdmin(ctx);
    const self = await disable(admin, admin.id);
    expect(self.statusCode).toBe(409);
    expect(self.json().message).toBe('You cannot disable your own account');
    expect((await admin.client.get('/api/auth/me')).statusCode).toBe(200);
    expect((await disable(admin, 999_999)).statusCode).toBe(404);
  });

  it('gives a disabled agent no lead from a run, the intake or an admin by hand, and gives them leads again once enabled', async () => {
    const admin = await loginAdmin(ctx);
    const agent = await subscribedAgent();
    await disable(admin, agent.id);

    const [lead] = await createLeads(db(), [{}]);
    expect(await run()).toMatchObject({ eligibleAgents: 0, assigned: 0 });
    expect(await agentOf(lead)).toBeNull();

    const key = await intakeKey();
    const posted = await postLead(key);
    expect(posted.statusCode, posted.body).toBe(201);
    expect(posted.json().status).toBe('NEW');

    const byHand = await admin.client.post('/api/admin/leads/assign', {
      leadId: lead,
      userId: agent.id,
    });
    expect(byHand.statusCode).toBe(409);
    expect(byHand.json().message).toMatch(/account is disabled/);
    expect(await agentOf(lead)).toBeNull();
    // the explanation names the reason
    const explained = (await admin.client.get(`/api/admin/leads/${lead}/explain`)).json();
    expect(explained.misfits).toContainEqual(
      expect.objectContaining({
        reason: 'DISABLED',
        agents: [expect.objectContaining({ id: agent.id })],
      }),
    );
    expect(
      (await admin.client.get(`/api/admin/leads/${lead}/fit/${agent.id}`)).json().reasons,
    ).toContain('DISABLED');

    await disable(admin, agent.id, false);
    expect(await run()).toMatchObject({ assigned: 2 });
    expect(await agentOf(lead)).toBe(agent.id);
  });
});

describe('reassigning a lead being worked', () => {
  async function twoAgents() {
    const admin = await loginAdmin(ctx);
    const leaving = await subscribedAgent();
    const taking = await subscribedAgent();
    return { admin, leaving, taking };
  }

  it('moves an IN_PROGRESS lead to another agent who fits: REASSIGNED history from whom to whom by which admin, both agents told, the old agent no longer sees it', async () => {
    const { admin, leaving, taking } = await twoAgents();
    const [lead] = await insertLeads(db(), [
      {
        agentId: leaving.id,
        status: 'IN_PROGRESS',
        firstName: 'Rita',
        lastName: 'Moss',
        city: 'Austin',
        state: 'TX',
      },
    ]);
    const res = await admin.client.post('/api/admin/leads/assign', {
      leadId: lead.id,
      userId: taking.id,
      fromAgentId: leaving.id,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: lead.id, agentId: taking.id, status: 'ASSIGNED' });

    const history = await reassignments(lead.id);
    expect(history).toEqual([
      expect.objectContaining({
        actorId: admin.id,
        fromAgentId: leaving.id,
        agentId: taking.id,
        fromStatus: 'IN_PROGRESS',
        toStatus: 'ASSIGNED',
      }),
    ]);
    // counted against the new agent's quota today, as any assignment by hand
    const [row] = await db().select().from(leads).where(eq(leads.id, lead.id));
    expect(row.assignedOn).toBe(businessDate(ctx.app.config.BUSINESS_TZ));

    const newBell = (await taking.client.get('/api/agent/notifications')).json();
    expect(newBell.items[0]).toMatchObject({ kind: 'lead.assigned', leadId: lead.id });
    const oldBell = (await leaving.client.get('/api/agent/notifications')).json();
    expect(oldBell.items[0]).toMatchObject({ kind: 'lead.reassigned', leadId: null });
    expect(oldBell.items[0].body).toContain('Rita Moss');

    expect((await leaving.client.get(`/api/agent/leads/${lead.id}`)).statusCode).toBe(404);
    const oldList = (await leaving.client.get('/api/agent/leads')).json();
    expect(oldList.map((l: { id: number }) => l.id)).not.toContain(lead.id);
    const newList = (await taking.client.get('/api/agent/leads')).json();
    expect(newList.map((l: { id: number }) => l.id)).toContain(lead.id);
    // the explanation tells it was an admin's
    const explained = (await admin.client.get(`/api/admin/leads/${lead.id}/explain`)).json();
    expect(explained.assignment).toMatchObject({
      kind: 'MANUAL',
      agent: { id: taking.id },
      admin: { id: admin.id },
    });
  });

  it('moves a CONTACTED lead the same way, the admin naming only the lead and the new agent: REASSIGNED from the one agent to the other', async () => {
    const { admin, leaving, taking } = await twoAgents();
    const [lead] = await insertLeads(db(), [{ agentId: leaving.id, status: 'CONTACTED' }]);
    const res = await admin.client.post('/api/admin/leads/assign', {
      leadId: lead.id,
      userId: taking.id,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: lead.id, agentId: taking.id, status: 'ASSIGNED' });
    const history = await reassignments(lead.id);
    expect(history).toEqual([
      expect.objectContaining({
        actorId: admin.id,
        fromAgentId: leaving.id,
        agentId: taking.id,
        fromStatus: 'CONTACTED',
        toStatus: 'ASSIGNED',
      }),
    ]);
    expect((await leaving.client.get(`/api/agent/leads/${lead.id}`)).statusCode).toBe(404);
    expect((await taking.client.get(`/api/agent/leads/${lead.id}`)).json()).toMatchObject({
      id: lead.id,
      status: 'ASSIGNED',
    });
  });

  it('refuses with 409 an agent who does not fit (naming the reason), the same agent, a CONVERTED or INVALID lead, a pending return, and a lead that moved since the admin looked', async () => {
    const { admin, leaving, taking } = await twoAgents();
    const assign = (leadId: number, userId: number, fromAgentId?: number | null) =>
      admin.client.post('/api/admin/leads/assign', { leadId, userId, fromAgentId });
    const [assigned, converted, invalid, returning] = await insertLeads(db(), [
      { agentId: leaving.id, status: 'CONTACTED' },
      { agentId: leaving.id, status: 'CONVERTED' },
      { agentId: leaving.id, status: 'INVALID' },
      { agentId: leaving.id },
    ]);

    // another category's package: CATEGORY
    const aca = await registerAgent(ctx.app, 'ACA Agent');
    await subscribe(ctx, aca.id, (await createPackage(ctx, { category: 'ACA' })).id);
    const misfit = await assign(assigned.id, aca.id);
    expect(misfit.statusCode).toBe(409);
    expect(misfit.json().message).toBe('This agent does not fit this lead: Other category');
    await db().update(users).set({ pausedAt: new Date() }).where(eq(users.id, taking.id));
    expect((await assign(assigned.id, taking.id)).json().message).toMatch(/: Paused$/);
    await db().update(users).set({ pausedAt: null }).where(eq(users.id, taking.id));

    expect((await assign(assigned.id, leaving.id)).statusCode).toBe(409);
    for (const done of [converted, invalid]) {
      const res = await assign(done.id, taking.id);
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toMatch(/no longer available/);
    }
    const asked = await leaving.client.post(`/api/agent/leads/${returning.id}/return`, {
      reason: 'WRONG_NUMBER',
    });
    expect(asked.statusCode, asked.body).toBe(201);
    expect((await assign(returning.id, taking.id)).json().message).toMatch(/return .* is pending/);
    // the dialog saw it NEW (null) or with another agent: the lead has moved since
    expect((await assign(assigned.id, taking.id, null)).statusCode).toBe(409);
    expect((await assign(assigned.id, taking.id, aca.id)).json().message).toMatch(/moved since/);

    for (const lead of [assigned, converted, invalid, returning]) {
      expect(await agentOf(lead.id)).toBe(leaving.id);
    }
    expect(
      await db().select().from(leadHistory).where(eq(leadHistory.kind, 'REASSIGNED')),
    ).toHaveLength(0);
  });
});
