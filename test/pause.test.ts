/**
 * The agent's pause (docs/domain.md, Pause), on both databases: the pause routes, the pause's
 * effect on the run, the intake's instant pick and a manual assignment, and its end at the start
 * of the next business day.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { users } from '../src/server/db/schema';
import { createAgent, createLeads } from './support/assignment-fixtures';
import { availabilityFixtures } from './support/availability-fixtures';
import { loginAdmin, setupTestApp } from './support/test-app';

const ctx = setupTestApp({ ASSIGN_ON_IMPORT: false });
const { db, run, subscribedAgent, agentOf, intakeKey, postLead } = availabilityFixtures(ctx);

describe('pause: the routes', () => {
  it('pauses until a date or until resumed, refuses a past or unreal date, and resumes', async () => {
    const agent = await subscribedAgent();
    expect((await agent.client.get('/api/agent/pause')).json()).toEqual({
      paused: false,
      since: null,
      until: null,
    });
    const dated = await agent.client.put('/api/agent/pause', { until: '2099-12-01' });
    expect(dated.statusCode).toBe(200);
    expect(dated.json()).toMatchObject({ paused: true, until: '2099-12-01' });
    // the pause ends at the start of Dec 2 in the business time zone (New York: 05:00Z)
    const [row] = await db()
      .select({ until: users.pausedUntil })
      .from(users)
      .where(eq(users.id, agent.id));
    expect(row.until?.toISOString()).toBe('2099-12-02T05:00:00.000Z');

    const open = await agent.client.put('/api/agent/pause', { until: null });
    expect(open.json()).toMatchObject({ paused: true, until: null });
    expect(open.json().since).toBe(dated.json().since); // the running pause keeps its start

    const past = await agent.client.put('/api/agent/pause', { until: '2020-01-01' });
    expect(past.statusCode).toBe(400);
    expect(past.json().message).toMatch(/cannot end in the past/);
    expect((await agent.client.put('/api/agent/pause', { until: '2099-02-30' })).statusCode).toBe(
      400,
    );
    expect((await agent.client.put('/api/agent/pause', { until: 'soon' })).statusCode).toBe(400);

    const resumed = await agent.client.delete('/api/agent/pause');
    expect(resumed.json()).toEqual({ paused: false, since: null, until: null });
  });

  it('shows the pause, the licence and the phone on the admin agents list', async () => {
    const admin = await loginAdmin(ctx);
    const agent = await subscribedAgent();
    await agent.client.put('/api/agent/pause', { until: '2099-06-30' });
    await db().update(users).set({ phone: '+12125550123' }).where(eq(users.id, agent.id));
    await admin.client.put(`/api/admin/agents/${agent.id}/licenses`, { states: ['TX', 'FL'] });
    const list = (await admin.client.get('/api/admin/agents')).json();
    expect(list.find((a: { id: number }) => a.id === agent.id)).toMatchObject({
      phone: '+12125550123',
      licensedStates: ['FL', 'TX'],
      pause: { since: expect.any(String), until: '2099-06-30' },
    });
  });
});

describe('pause: no trigger gives a paused agent anything', () => {
  it('leaves a paused agent out of the run, until the pause ends by itself at the next business day', async () => {
    const paused = await createAgent(db(), { quota: 5 });
    // paused through 2026-06-15 (New York): ends 2026-06-16 04:00Z (EDT)
    await db()
      .update(users)
      .set({
        pausedAt: new Date('2026-06-10T12:00:00Z'),
        pausedUntil: new Date('2026-06-16T04:00:00Z'),
      })
      .where(eq(users.id, paused));
    const [lead] = await createLeads(db(), [{ createdAt: new Date('2026-06-15T12:00:00Z') }]);
    const during = await run(new Date('2026-06-16T03:30:00Z')); // 23:30 on the 15th in New York
    expect(during).toMatchObject({ eligibleAgents: 0, assigned: 0 });
    expect(await agentOf(lead)).toBeNull();
    const after = await run(new Date('2026-06-16T04:30:00Z')); // 00:30 on the 16th
    expect(after).toMatchObject({ eligibleAgents: 1, assigned: 1 });
    expect(await agentOf(lead)).toBe(paused);
  });

  it("leaves a paused agent out of the intake's instant pick, and takes them back on resume", async () => {
    const key = await intakeKey();
    const agent = await subscribedAgent();
    await agent.client.put('/api/agent/pause', { until: null });
    const first = await postLead(key);
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json().status).toBe('NEW');
    expect(await agentOf(first.json().id)).toBeNull();
    await agent.client.delete('/api/agent/pause');
    const second = await postLead(key);
    expect(second.json().status).toBe('ASSIGNED');
    expect(await agentOf(second.json().id)).toBe(agent.id);
  });

  it('still lets an admin assign a lead to a paused agent by hand', async () => {
    const admin = await loginAdmin(ctx);
    const agent = await subscribedAgent();
    await agent.client.put('/api/agent/pause', { until: null });
    const [lead] = await createLeads(db(), [{}]);
    const res = await admin.client.post('/api/admin/leads/assign', {
      leadId: lead,
      userId: agent.id,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await agentOf(lead)).toBe(agent.id);
  });
});
