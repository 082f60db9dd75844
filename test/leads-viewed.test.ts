/**
 * A lead opened by its agent (docs/domain.md, Alerts to the agent's phone: opened): the agent's
 * own lead only, the first view of each assignment kept, and speed to open (assignment to first
 * view) beside speed to lead on the admin's analytics.
 */
import { describe, expect, it } from 'vitest';
import { businessDate } from '../src/server/lib/business-time';
import { createPackage, insertLeads, subscribe } from './support/admin-fixtures';
import { loginAdmin, registerAgent, setupTestApp } from './support/test-app';

const ctx = setupTestApp();

async function activeAgent(name: string) {
  const agent = await registerAgent(ctx.app, name);
  const pkg = await createPackage(ctx, { leadsPerDay: 50 });
  await subscribe(ctx, agent.id, pkg.id);
  return agent;
}

const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000);

describe('POST /api/agent/leads/{id}/viewed', () => {
  it('keeps the first view of the agent’s own lead; another agent’s lead is a 404', async () => {
    const agent = await activeAgent('Viewer');
    const other = await activeAgent('Other Viewer');
    const [lead] = await insertLeads(ctx, [
      { agentId: agent.id, status: 'ASSIGNED', assignedAt: minutesAgo(5) },
    ]);
    const first = await agent.client.post(`/api/agent/leads/${lead!.id}/viewed`);
    expect(first.statusCode, first.body).toBe(200);
    const firstViewedAt = first.json().firstViewedAt as string;
    expect(Date.parse(firstViewedAt)).toBeGreaterThan(Date.now() - 60_000);
    await new Promise((r) => setTimeout(r, 20));
    const again = await agent.client.post(`/api/agent/leads/${lead!.id}/viewed`);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ firstViewedAt });

    const theirs = await other.client.post(`/api/agent/leads/${lead!.id}/viewed`);
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json().message).toBe('Lead not found');
    expect((await agent.client.post('/api/agent/leads/999999999/viewed')).statusCode).toBe(404);
    const [unassigned] = await insertLeads(ctx, [{}]);
    expect((await agent.client.post(`/api/agent/leads/${unassigned!.id}/viewed`)).statusCode).toBe(
      404,
    );
  });

  it('counts a lead given to another agent afresh for them, and no longer for the first', async () => {
    const first = await activeAgent('First Holder');
    const second = await activeAgent('Second Holder');
    const [lead] = await insertLeads(ctx, [
      { agentId: first.id, status: 'ASSIGNED', assignedAt: minutesAgo(30) },
    ]);
    const seen = await first.client.post(`/api/agent/leads/${lead!.id}/viewed`);
    expect(seen.statusCode).toBe(200);
    const admin = await loginAdmin(ctx);
    const moved = await admin.client.post('/api/admin/leads/assign', {
      leadId: lead!.id,
      userId: second.id,
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect((await first.client.post(`/api/agent/leads/${lead!.id}/viewed`)).statusCode).toBe(404);
    const theirs = await second.client.post(`/api/agent/leads/${lead!.id}/viewed`);
    expect(theirs.statusCode).toBe(200);
    expect(Date.parse(theirs.json().firstViewedAt)).toBeGreaterThanOrEqual(
      Date.parse(seen.json().firstViewedAt),
    );
  });
});

describe('speed to open', () => {
  it('median and p90 minutes from assignment to first view, per agent and overall; unopened counted', async () => {
    const agent = await activeAgent('Opener');
    const today = businessDate(ctx.app.config.BUSINESS_TZ);
    const ago = [10, 20, 30, 40];
    const leads = await insertLeads(
      ctx,
      [...ago, 50].map((m) => ({
        agentId: agent.id,
        status: 'ASSIGNED' as const,
        assignedAt: minutesAgo(m),
        assignedOn: today,
      })),
    );
    // the first four opened now, one of them twice; the fifth never
    for (const lead of leads.slice(0, 4)) {
      const res = await agent.client.post(`/api/agent/leads/${lead.id}/viewed`);
      expect(res.statusCode).toBe(200);
    }
    await agent.client.post(`/api/agent/leads/${leads[0]!.id}/viewed`);

    const admin = await loginAdmin(ctx);
    const res = await admin.client.get(
      `/api/admin/analytics/speed-to-lead?from=${today}&to=${today}`,
    );
    expect(res.statusCode, res.body).toBe(200);
    const mine = res.json().agents.find((a: { agentId: number }) => a.agentId === agent.id);
    expect(mine.assigned).toBe(5);
    expect(mine.open.opened).toBe(4);
    expect(mine.open.notOpened).toBe(1);
    // percentile_cont over 10, 20, 30, 40 minutes (and the seconds the test took)
    expect(mine.open.medianMinutes).toBeCloseTo(25, 0);
    expect(mine.open.p90Minutes).toBeCloseTo(37, 0);
    // none contacted: speed to lead has no figure, speed to open has
    expect(mine.medianMinutes).toBeNull();
    expect(res.json().overall.open.opened).toBeGreaterThanOrEqual(4);
    const day = res.json().trend.find((t: { date: string }) => t.date === today);
    expect(day.open.opened).toBeGreaterThanOrEqual(4);
  });
});
