/**
 * Returns and credits (docs/domain.md, Returns and credits), on both databases: the
 * agent's request and its refusals (another agent's lead, window, CONVERTED, twice, rate cap),
 * the admin's queue and decision, the credit and the replacement at once, the bell and the email.
 */
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AppConfig } from '../src/server/config/env';
import { assignmentRuns, leadHistory, leads, notifications } from '../src/server/db/schema';
import { businessDate } from '../src/server/lib/business-time';
import { createPackage, insertLeads, subscribe } from './support/admin-fixtures';
import { SmtpReceiver } from './support/smtp-receiver';
import { loginAdmin, registerAgent, setupTestApp } from './support/test-app';

/** A real SMTP receiver: every message, parsed back. */
const smtp = new SmtpReceiver();
const inbox = smtp.inbox;
const overrides: Partial<AppConfig> = {};

beforeAll(async () => {
  overrides.SMTP_URL = await smtp.start();
});

afterAll(async () => {
  await smtp.stop();
});

// registered after the receiver's beforeAll, so the app reads its port from `overrides`
const ctx = setupTestApp(overrides);
const db = () => ctx.database.db;
const today = () => businessDate(ctx.app.config.BUSINESS_TZ);
const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000);

beforeEach(async () => {
  // each test's agents alone compete for its leads
  await db().execute(
    sql`truncate lead_history, leads, assignment_runs, lead_returns, subscriptions restart identity cascade`,
  );
});

/** A signed-in agent with an ACTIVE MEDICARE package of `quota` leads a day. */
async function subscribedAgent(quota = 5) {
  const agent = await registerAgent(ctx.app, 'Return Agent');
  const pkg = await createPackage(ctx, { leadsPerDay: quota });
  await subscribe(ctx, agent.id, pkg.id);
  return agent;
}

/** Leads of the agent, assigned `assignedAt` (today's business date when recent). */
async function leadsOf(agentId: number, n: number, assignedAt = new Date(), status = 'ASSIGNED') {
  return insertLeads(
    ctx,
    Array.from({ length: n }, (_, i) => ({
      firstName: `Ret${i}`,
      lastName: 'Lead',
      status: status as 'ASSIGNED',
      agentId,
      assignedAt,
      assignedOn: businessDate(ctx.app.config.BUSINESS_TZ, assignedAt),
    })),
  );
}

const history = (leadId: number) =>
  db()
    .select({ kind: leadHistory.kind, actorId: leadHistory.actorId, to: leadHistory.toStatus })
    .from(leadHistory)
    .where(eq(leadHistory.leadId, leadId))
    .orderBy(leadHistory.id);

describe('POST /api/agent/leads/{id}/return', () => {
  it('records a PENDING return with RETURN_REQUESTED history; the drawer reads it back', async () => {
    const agent = await subscribedAgent();
    const [lead] = await leadsOf(agent.id, 4);
    const res = await agent.client.post(`/api/agent/leads/${lead.id}/return`, {
      reason: 'WRONG_NUMBER',
      note: '  Disconnected  ',
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      leadId: lead.id,
      reason: 'WRONG_NUMBER',
      note: 'Disconnected',
      status: 'PENDING',
      decidedAt: null,
    });
    expect(await history(lead.id)).toEqual([
      { kind: 'RETURN_REQUESTED', actorId: agent.id, to: 'ASSIGNED' },
    ]);
    const state = await agent.client.get(`/api/agent/leads/${lead.id}/return`);
    expect(state.json().return).toMatchObject({ status: 'PENDING', reason: 'WRONG_NUMBER' });
    // the lead itself is unchanged until an admin decides
    const [row] = await db().select().from(leads).where(eq(leads.id, lead.id));
    expect(row).toMatchObject({ status: 'ASSIGNED', returnedAt: null, assignedOn: today() });
  });

  it("answers 404 for another agent's lead and changes nothing", async () => {
    const owner = await subscribedAgent();
    const other = await subscribedAgent();
    const [lead] = await leadsOf(owner.id, 1);
    const res = await other.client.post(`/api/agent/leads/${lead.id}/return`, {
      reason: 'DUPLICATE',
    });
    expect(res.statusCode).toBe(404);
    expect((await other.client.get(`/api/agent/leads/${lead.id}/return`)).statusCode).toBe(404);
    expect(await history(lead.id)).toEqual([]);
  });

  it('refuses after the return window, a CONVERTED lead, and a second request', async () => {
    const agent = await subscribedAgent();
    const [old] = await leadsOf(agent.id, 1, daysAgo(ctx.app.config.RETURN_WINDOW_DAYS + 1));
    const [inWindow] = await leadsOf(agent.id, 1, daysAgo(ctx.app.config.RETURN_WINDOW_DAYS - 1));
    const [converted] = await leadsOf(agent.id, 1, new Date(), 'CONVERTED');
    await leadsOf(agent.id, 7); // volume, so the rate cap does not get in the way

    const late = await agent.client.post(`/api/agent/leads/${old.id}/return`, {
      reason: 'FAKE_INFO',
    });
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toMatch(/return window has closed.*within 7 days/);

    const conv = await agent.client.post(`/api/agent/leads/${converted.id}/return`, {
      reason: 'FAKE_INFO',
    });
    expect(conv.statusCode).toBe(409);
    expect(conv.json().message).toMatch(/converted lead cannot be returned/i);

    const ok = await agent.client.post(`/api/agent/leads/${inWindow.id}/return`, {
      reason: 'OUT_OF_AREA',
    });
    expect(ok.statusCode, ok.body).toBe(201);
    const again = await agent.client.post(`/api/agent/leads/${inWindow.id}/return`, {
      reason: 'OUT_OF_AREA',
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toMatch(/already has a return waiting/);
  });

  it('caps the return rate at 30% of the last 14 days; denied returns do not count', async () => {
    const admin = await loginAdmin(ctx);
    const agent = await subscribedAgent();
    const ten = await leadsOf(agent.id, 10, daysAgo(1));
    // leads older than 14 days are outside the rate's period
    await leadsOf(agent.id, 20, daysAgo(20));
    const ask = (id: number) =>
      agent.client.post(`/api/agent/leads/${id}/return`, { reason: 'CONSUMER_DENIES' });
    for (const lead of ten.slice(0, 3)) expect((await ask(lead.id)).statusCode).toBe(201);
    const fourth = await ask(ten[3].id);
    expect(fourth.statusCode).toBe(409);
    expect(fourth.json().message).toMatch(
      /4 returns out of 10 leads in the last 14 days \(40%\).*30%/,
    );
    // an admin denies one: it no longer counts, so the fourth goes through
    const queue = await admin.client.get('/api/admin/returns?status=PENDING');
    const first = queue.json().items[0];
    await admin.client.post(`/api/admin/returns/${first.id}/decision`, { approve: false });
    expect((await ask(ten[3].id)).statusCode).toBe(201);
  });

  it('always allows the first return of the period, even on a single lead', async () => {
    const agent = await subscribedAgent();
    const [lead] = await leadsOf(agent.id, 1);
    const res = await agent.client.post(`/api/agent/leads/${lead.id}/return`, {
      reason: 'UNDER_AGE',
    });
    expect(res.statusCode).toBe(201);
  });
});

describe('the admin decision', () => {
  it('approve: INVALID and returned, the quota credited, a replacement assigned at once, the agent told', async () => {
    const admin = await loginAdmin(ctx);
    const agent = await subscribedAgent(1); // one lead a day: the replacement needs the credit
    const [bad] = await leadsOf(agent.id, 1);
    const [spare] = await insertLeads(ctx, [{ firstName: 'Replacement', lastName: 'Lead' }]);
    // the agent is full today: a run gives nothing
    const before = await admin.client.post('/api/admin/assignment/run');
    expect(before.json()).toMatchObject({ assigned: 0 });

    const asked = await agent.client.post(`/api/agent/leads/${bad.id}/return`, {
      reason: 'WRONG_NUMBER',
      note: 'Number disconnected',
    });
    const queue = await admin.client.get('/api/admin/returns?status=PENDING');
    expect(queue.statusCode).toBe(200);
    expect(queue.json()).toMatchObject({
      pending: 1,
      items: [
        {
          id: asked.json().id,
          reason: 'WRONG_NUMBER',
          note: 'Number disconnected',
          ageHours: 0,
          lead: { name: 'Ret0 Lead', state: 'TX', status: 'ASSIGNED' },
          agent: { id: agent.id, email: agent.email },
        },
      ],
    });

    const decided = await admin.client.post(`/api/admin/returns/${asked.json().id}/decision`, {
      approve: true,
      note: 'Confirmed bad number',
    });
    expect(decided.statusCode, decided.body).toBe(200);
    expect(decided.json()).toMatchObject({
      status: 'APPROVED',
      decisionNote: 'Confirmed bad number',
      decidedBy: 'Admin',
    });

    const [returned] = await db().select().from(leads).where(eq(leads.id, bad.id));
    expect(returned).toMatchObject({ status: 'INVALID', assignedOn: null, agentId: agent.id });
    expect(returned.returnedAt).toBeInstanceOf(Date);
    expect((await history(bad.id)).map((h) => h.kind)).toEqual([
      'RETURN_REQUESTED',
      'RETURN_APPROVED',
    ]);
    // the lead's timeline in the agent's drawer shows both steps, with who acted
    const activity = await agent.client.get(`/api/agent/leads/${bad.id}/activity`);
    const steps = activity
      .json()
      .items.filter((e: { kind?: string }) => e.kind?.startsWith('RETURN_'));
    expect(steps).toMatchObject([
      { kind: 'RETURN_REQUESTED', actor: 'Return Agent', toStatus: 'ASSIGNED' },
      { kind: 'RETURN_APPROVED', actor: 'Admin', fromStatus: 'ASSIGNED', toStatus: 'INVALID' },
    ]);
    // the replacement: the engine ran with trigger RETURN and gave the spare lead to the agent
    const [replacement] = await db().select().from(leads).where(eq(leads.id, spare.id));
    expect(replacement).toMatchObject({
      status: 'ASSIGNED',
      agentId: agent.id,
      assignedOn: today(),
    });
    const [run] = await db()
      .select()
      .from(assignmentRuns)
      .where(eq(assignmentRuns.id, replacement.assignmentRunId!));
    expect(run).toMatchObject({ trigger: 'RETURN', assigned: 1 });
    // the agent sees it in My Leads, and the quota shows 1 / 1 again
    const mine = await agent.client.get('/api/agent/leads');
    expect(mine.json().map((l: { id: number }) => l.id)).toContain(spare.id);
    // the bell and the email
    const bell = await db()
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, agent.id), eq(notifications.kind, 'return.decided')));
    expect(bell).toMatchObject([
      { leadId: bad.id, title: 'Return approved: Ret0 Lead', body: 'Confirmed bad number' },
    ]);
    const mail = inbox.find((m) => m.to.includes(agent.email));
    expect(mail?.mail.subject).toBe('Return approved: Ret0 Lead');
    expect(mail?.mail.text).toMatch(/Wrong number.*approved/);
    // decided once only; the queue is empty
    const twice = await admin.client.post(`/api/admin/returns/${asked.json().id}/decision`, {
      approve: false,
    });
    expect(twice.statusCode).toBe(409);
    expect((await admin.client.get('/api/admin/returns')).json()).toMatchObject({
      pending: 0,
      items: [],
    });
    const approvedList = await admin.client.get('/api/admin/returns?status=APPROVED');
    expect(approvedList.json().items).toHaveLength(1);
  });

  it('deny: the lead unchanged, RETURN_DENIED, the agent told; the lead may be asked again', async () => {
    const admin = await loginAdmin(ctx);
    const agent = await subscribedAgent();
    const [lead] = await leadsOf(agent.id, 4);
    const asked = await agent.client.post(`/api/agent/leads/${lead.id}/return`, {
      reason: 'LANGUAGE_BARRIER',
    });
    const decided = await admin.client.post(`/api/admin/returns/${asked.json().id}/decision`, {
      approve: false,
      note: 'Spanish-speaking agents are available',
    });
    expect(decided.json()).toMatchObject({ status: 'DENIED' });
    const [row] = await db().select().from(leads).where(eq(leads.id, lead.id));
    expect(row).toMatchObject({ status: 'ASSIGNED', returnedAt: null, assignedOn: today() });
    expect((await history(lead.id)).map((h) => h.kind)).toEqual([
      'RETURN_REQUESTED',
      'RETURN_DENIED',
    ]);
    const state = await agent.client.get(`/api/agent/leads/${lead.id}/return`);
    expect(state.json().return).toMatchObject({
      status: 'DENIED',
      decisionNote: 'Spanish-speaking agents are available',
    });
    const bell = await agent.client.get('/api/agent/notifications');
    expect(bell.json().items[0]).toMatchObject({ title: 'Return denied: Ret0 Lead' });
    expect(
      (await db().select().from(assignmentRuns)).filter((r) => r.trigger === 'RETURN'),
    ).toEqual([]);
    const again = await agent.client.post(`/api/agent/leads/${lead.id}/return`, {
      reason: 'FAKE_INFO',
    });
    expect(again.statusCode).toBe(201);
  });

  it('a lead that was ever CONVERTED cannot be returned, even set back to CONTACTED (issue 24 item 10)', async () => {
    const admin = await loginAdmin(ctx);
    const agent = await subscribedAgent();
    const [sold, later] = await leadsOf(agent.id, 10);
    const set = (id: number, status: string) =>
      agent.client.post(`/api/agent/leads/${id}/status`, { status });
    expect((await set(sold.id, 'CONVERTED')).statusCode).toBe(200);
    expect((await set(sold.id, 'CONTACTED')).statusCode).toBe(200);
    const refused = await agent.client.post(`/api/agent/leads/${sold.id}/return`, {
      reason: 'FAKE_INFO',
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toMatch(/converted lead cannot be returned/i);
    // asked first, then converted and set back before the decision: no credit either
    const asked = await agent.client.post(`/api/agent/leads/${later.id}/return`, {
      reason: 'FAKE_INFO',
    });
    expect(asked.statusCode, asked.body).toBe(201);
    await set(later.id, 'CONVERTED');
    await set(later.id, 'IN_PROGRESS');
    const approve = await admin.client.post(`/api/admin/returns/${asked.json().id}/decision`, {
      approve: true,
    });
    expect(approve.statusCode).toBe(409);
    const [row] = await db().select().from(leads).where(eq(leads.id, later.id));
    expect(row).toMatchObject({ status: 'IN_PROGRESS', returnedAt: null });
  });

  it('a returned lead keeps INVALID; a lead converted since the request cannot be approved', async () => {
    const admin = await loginAdmin(ctx);
    const agent = await subscribedAgent();
    const [returned, converted] = await leadsOf(agent.id, 10); // two returns stay under 30%
    const asked = async (id: number) =>
      (await agent.client.post(`/api/agent/leads/${id}/return`, { reason: 'DUPLICATE' })).json()
        .id as number;
    const first = await asked(returned.id);
    await admin.client.post(`/api/admin/returns/${first}/decision`, { approve: true });
    const change = await agent.client.post(`/api/agent/leads/${returned.id}/status`, {
      status: 'CONVERTED',
    });
    expect(change.statusCode).toBe(409);
    expect(change.json().message).toMatch(/was returned/);

    await db().update(leads).set({ assignedAt: new Date() }).where(eq(leads.id, converted.id));
    const second = await asked(converted.id);
    await agent.client.post(`/api/agent/leads/${converted.id}/status`, { status: 'CONVERTED' });
    const late = await admin.client.post(`/api/admin/returns/${second}/decision`, {
      approve: true,
    });
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toMatch(/converted this lead/);
    const [row] = await db().select().from(leads).where(eq(leads.id, converted.id));
    expect(row).toMatchObject({ status: 'CONVERTED', returnedAt: null });
    // still pending: the admin denies it
    const denied = await admin.client.post(`/api/admin/returns/${second}/decision`, {
      approve: false,
    });
    expect(denied.json().status).toBe('DENIED');
  });

  it('answers 404 for a return that does not exist', async () => {
    const admin = await loginAdmin(ctx);
    const res = await admin.client.post('/api/admin/returns/999999/decision', { approve: true });
    expect(res.statusCode).toBe(404);
  });
});
