/**
 * Schedule and caps (docs/domain.md, Schedule and caps): the routes and their validation; an agent
 * outside their schedule gets no lead from a run or the intake, and the explanation says so; the
 * schedule across midnight and the US daylight-saving changes, in both twins of the fit rule; each
 * cap at its edge (daily, weekly from Monday, monthly from the 1st).
 */
import { sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { queryRows } from '../src/server/db/client';
import { runAssignment } from '../src/server/modules/assignment/run-assignment.service';
import { agentReasonsForLead } from '../src/server/modules/explanation/explanation.repository';
import { explainLead } from '../src/server/modules/explanation/explanation.service';
import { type AgentSchedule, inSchedule } from '../src/server/modules/fit/fit-rule.service';
import { fitSqlParams } from '../src/server/modules/fit/fit-rule-sql.service';
import { MISFIT_LABELS, MISFIT_REASONS } from '../src/shared/contracts/explanation';
import {
  createAgent,
  createLeads,
  createPackage,
  leadStates,
  resetAssignmentData,
} from './support/assignment-fixtures';
import { newSourceKey, postIntakeLead } from './support/intake-post';
import { uniqueEmail, uniquePhone } from './support/lead-contact';
import { loginAdmin, registerAgent, setupTestApp } from './support/test-app';

const ctx = setupTestApp({ ASSIGN_ON_IMPORT: false });
const db = () => ctx.database.db;
const run = (now: Date) =>
  runAssignment(db(), ctx.app.config, { trigger: 'MANUAL', now, events: ctx.app.leadPorts.events });

/** Wednesday 17 June 2026, midday in New York: no enrollment window is open. */
const WED = new Date('2026-06-17T16:00:00Z');
const NONE = { mon: null, tue: null, wed: null, thu: null, fri: null, sat: null, sun: null };
const ALL_DAY = { start: '00:00', end: '24:00' };
const EVERY_DAY = {
  mon: ALL_DAY,
  tue: ALL_DAY,
  wed: ALL_DAY,
  thu: ALL_DAY,
  fri: ALL_DAY,
  sat: ALL_DAY,
  sun: ALL_DAY,
};

beforeEach(async () => {
  await resetAssignmentData(db());
  await db().execute(sql`truncate agent_schedules, agent_caps`);
});

async function setSchedule(agentId: number, timeZone: string, days: object) {
  await db().execute(
    sql`insert into agent_schedules (user_id, time_zone, days)
        values (${agentId}, ${timeZone}, ${JSON.stringify(days)}::jsonb)`,
  );
}

async function setCaps(
  agentId: number,
  caps: { daily?: number; weekly?: number; monthly?: number },
) {
  await db().execute(
    sql`insert into agent_caps (user_id, daily, weekly, monthly)
        values (${agentId}, ${caps.daily ?? null}, ${caps.weekly ?? null}, ${caps.monthly ?? null})`,
  );
}

/** Leads the agent received on these business dates (by any trigger). */
async function given(agentId: number, dates: string[]) {
  for (const d of dates) {
    await db().execute(
      sql`insert into leads (city, state, age, category, status, agent_id, assigned_at, assigned_on)
          values ('Elsewhere', 'ZZ', 70, 'MEDICARE', 'ASSIGNED', ${agentId},
                  ${d}::date + time '12:00', ${d}::date)`,
    );
  }
}

async function agentOf(leadId: number) {
  return (await leadStates(db())).get(leadId)?.agentId ?? null;
}

describe('the routes', () => {
  it('GET and PUT /api/agent/schedule: none at first, then the saved hours', async () => {
    const agent = await registerAgent(ctx.app);
    expect((await agent.client.get('/api/agent/schedule')).json()).toEqual({
      timeZone: null,
      days: null,
    });
    const days = {
      ...NONE,
      mon: { start: '09:00', end: '17:30' },
      sat: { start: '10:00', end: '24:00' },
    };
    const put = await agent.client.put('/api/agent/schedule', {
      timeZone: 'America/Chicago',
      days,
    });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toEqual({ timeZone: 'America/Chicago', days });
    expect((await agent.client.get('/api/agent/schedule')).json()).toEqual(put.json());
  });

  it('refuses a schedule with 400 naming the field', async () => {
    const agent = await registerAgent(ctx.app);
    const refused = async (body: object) => {
      const res = await agent.client.put('/api/agent/schedule', body);
      expect(res.statusCode, res.body).toBe(400);
      return (res.json().errors as { field: string }[]).map((e) => e.field);
    };
    expect(await refused({ timeZone: 'Mars/Olympus', days: NONE })).toEqual(['timeZone']);
    expect(
      await refused({ timeZone: 'UTC', days: { ...NONE, tue: { start: '17:00', end: '09:00' } } }),
    ).toEqual(['days.tue.end']);
    expect(
      await refused({ timeZone: 'UTC', days: { ...NONE, wed: { start: '10:00', end: '10:00' } } }),
    ).toEqual(['days.wed.end']);
    expect(
      (
        await refused({ timeZone: 'UTC', days: { ...NONE, thu: { start: '9:00', end: '17:00' } } })
      )[0],
    ).toContain('thu');
    expect(
      (
        await refused({ timeZone: 'UTC', days: { ...NONE, fri: { start: '24:00', end: '24:00' } } })
      )[0],
    ).toContain('fri');
    expect((await agent.client.get('/api/agent/schedule')).json().timeZone).toBeNull();
  });

  it('GET and PUT /api/agent/caps: none at first; daily at most the package, positive integers', async () => {
    const agent = await registerAgent(ctx.app);
    const none = { daily: null, weekly: null, monthly: null, monthlyBudgetCents: null };
    expect((await agent.client.get('/api/agent/caps')).json()).toEqual(none);
    const packageId = await createPackage(db(), { leadsPerDay: 5 });
    await db().execute(
      sql`insert into subscriptions (user_id, package_id, status) values (${agent.id}, ${packageId}, 'ACTIVE')`,
    );
    const caps = { daily: 5, weekly: 20, monthly: 60, monthlyBudgetCents: 150_00 };
    const put = await agent.client.put('/api/agent/caps', caps);
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toEqual(caps);
    expect((await agent.client.get('/api/agent/caps')).json()).toEqual(caps);

    const over = await agent.client.put('/api/agent/caps', { ...caps, daily: 6 });
    expect(over.statusCode).toBe(400);
    expect(over.json().errors).toEqual([{ field: 'daily', message: expect.stringContaining('5') }]);
    for (const [field, value] of [
      ['weekly', 0],
      ['monthly', 2.5],
      ['monthlyBudgetCents', -100],
      ['daily', '3'],
    ] as const) {
      const res = await agent.client.put('/api/agent/caps', { ...caps, [field]: value });
      expect(res.statusCode, field).toBe(400);
      expect(JSON.stringify(res.json().errors), field).toContain(field);
    }
    expect((await agent.client.get('/api/agent/caps')).json()).toEqual(caps);
    expect((await agent.client.put('/api/agent/caps', none)).json()).toEqual(none);
  });
});

describe('the schedule', () => {
  it('an agent outside their schedule gets no lead from a run; the explanation says why', async () => {
    const away = await createAgent(db(), { name: 'Away' });
    await setSchedule(away, 'America/New_York', NONE);
    const [first] = await createLeads(db(), [{}]);
    await run(WED);
    expect(await agentOf(first)).toBeNull();

    const admin = await loginAdmin(ctx);
    const explained = (await admin.client.get(`/api/admin/leads/${first}/explain`)).json();
    const misfit = explained.misfits.find((m: { agents: { id: number }[] }) =>
      m.agents.some((a) => a.id === away),
    );
    expect(misfit.reason).toBe('OUTSIDE_SCHEDULE');
    expect(MISFIT_LABELS[misfit.reason as 'OUTSIDE_SCHEDULE']).toBe('Outside schedule');

    // within the hours (Wednesday from noon, New York), the same agent takes it
    await db().execute(sql`truncate agent_schedules`);
    await setSchedule(away, 'America/New_York', { ...NONE, wed: { start: '12:00', end: '13:00' } });
    await run(WED);
    expect(await agentOf(first)).toBe(away);
  });

  it('an agent outside their schedule gets no lead from the intake', async () => {
    const away = await createAgent(db(), { name: 'Away' });
    await setSchedule(away, 'UTC', NONE);
    const { key } = await newSourceKey(ctx);
    const post = (externalId: string) => postIntakeLead(ctx, key, { externalId });
    const refused = await post('outside');
    expect(refused.statusCode, refused.body).toBe(201);
    expect(await agentOf(refused.json().id)).toBeNull();

    await db().execute(sql`truncate agent_schedules`);
    await setSchedule(away, 'UTC', EVERY_DAY);
    const taken = await post('inside');
    expect(taken.statusCode).toBe(201);
    expect(await agentOf(taken.json().id)).toBe(away);
  });

  /** Both twins of the rule at one instant: the TypeScript check and the SQL rendering. */
  async function bothTwins(agentId: number, schedule: AgentSchedule, at: string) {
    const now = new Date(at);
    const ts = inSchedule(schedule, now);
    const groups = await agentReasonsForLead(
      db(),
      fitSqlParams(
        { category: 'MEDICARE', state: 'TX', city: 'austin', age: 70 },
        { now, businessDate: at.slice(0, 10), windows: {} },
      ),
      100,
    );
    const group = groups.find((g) => g.agents.some((a) => a.id === agentId));
    const sqlIn = group?.reason !== MISFIT_REASONS.indexOf('OUTSIDE_SCHEDULE');
    expect(sqlIn, `SQL at ${at}`).toBe(ts);
    return ts;
  }

  it('across midnight in the agent zone: the day is the local one, the end excluded', async () => {
    const agent = await createAgent(db());
    const schedule: AgentSchedule = {
      timeZone: 'America/New_York',
      days: {
        ...NONE,
        mon: { start: '22:00', end: '24:00' },
        tue: { start: '00:00', end: '01:00' },
      },
    };
    await setSchedule(agent, schedule.timeZone, schedule.days);
    // Monday 21:59 / 22:00 / 23:59 in New York (EDT, UTC-4) = Tuesday 01:59 / 02:00 / 03:59 UTC
    expect(await bothTwins(agent, schedule, '2026-06-16T01:59:00Z')).toBe(false);
    expect(await bothTwins(agent, schedule, '2026-06-16T02:00:00Z')).toBe(true);
    expect(await bothTwins(agent, schedule, '2026-06-16T03:59:59Z')).toBe(true);
    // Tuesday 00:00 and 00:59 local in; 01:00 out
    expect(await bothTwins(agent, schedule, '2026-06-16T04:00:00Z')).toBe(true);
    expect(await bothTwins(agent, schedule, '2026-06-16T04:59:00Z')).toBe(true);
    expect(await bothTwins(agent, schedule, '2026-06-16T05:00:00Z')).toBe(false);
    // Wednesday 00:30 local: a day off
    expect(await bothTwins(agent, schedule, '2026-06-17T04:30:00Z')).toBe(false);
  });

  it('across the US daylight-saving changes (8 March and 1 November 2026, New York)', async () => {
    const agent = await createAgent(db());
    const schedule: AgentSchedule = {
      timeZone: 'America/New_York',
      days: { ...NONE, sun: { start: '01:00', end: '03:00' } },
    };
    await setSchedule(agent, schedule.timeZone, schedule.days);
    // spring forward: 01:59 EST is 06:59 UTC; a minute later it is 03:00 EDT, past the end
    expect(await bothTwins(agent, schedule, '2026-03-08T06:59:00Z')).toBe(true);
    expect(await bothTwins(agent, schedule, '2026-03-08T07:00:00Z')).toBe(false);
    // the same UTC time a week earlier is 02:00 EST: still in
    expect(await bothTwins(agent, schedule, '2026-03-01T07:00:00Z')).toBe(true);
    // fall back: 01:30 happens twice (EDT at 05:30 UTC, EST at 06:30 UTC), both in; 03:00 EST out
    expect(await bothTwins(agent, schedule, '2026-11-01T05:30:00Z')).toBe(true);
    expect(await bothTwins(agent, schedule, '2026-11-01T06:30:00Z')).toBe(true);
    expect(await bothTwins(agent, schedule, '2026-11-01T07:59:00Z')).toBe(true); // 02:59 EST
    expect(await bothTwins(agent, schedule, '2026-11-01T08:00:00Z')).toBe(false); // 03:00 EST
    // a run at the spring change: in at 01:59, out at 03:00
    const [lead] = await createLeads(db(), [{ category: 'FINAL_EXPENSE' }]);
    const fe = await createAgent(db(), { category: 'FINAL_EXPENSE' });
    await setSchedule(fe, schedule.timeZone, schedule.days);
    await run(new Date('2026-03-08T07:00:00Z'));
    expect(await agentOf(lead)).toBeNull();
    await run(new Date('2026-03-08T06:59:00Z'));
    expect(await agentOf(lead)).toBe(fe);
  });
});

describe('the caps', () => {
  it('a weekly cap of 3 with 3 leads this week: the 4th goes elsewhere; last week does not count', async () => {
    const capped = await createAgent(db(), { name: 'Capped' });
    await setCaps(capped, { weekly: 3 });
    // Monday and Tuesday of this week; Sunday 14 June is last week
    await given(capped, ['2026-06-15', '2026-06-15', '2026-06-16', '2026-06-14']);
    const [alone] = await createLeads(db(), [{}]);
    await run(WED);
    expect(await agentOf(alone)).toBeNull(); // nobody else: it waits
    const other = await createAgent(db(), { name: 'Other' });
    // the other agent has more today, so without the cap the capped agent would be preferred
    await given(other, ['2026-06-17', '2026-06-17']);
    await run(WED);
    expect(await agentOf(alone)).toBe(other);

    const [next] = await createLeads(db(), [{}]);
    await setCaps(other, { daily: 3 }); // the other is full today by its daily cap (3 today)
    const explained = await explainLead(db(), ctx.app.config, next, WED);
    const reasons = Object.fromEntries(
      explained.misfits.map((m: { reason: string; agents: { id: number }[] }) => [
        m.agents[0].id,
        m.reason,
      ]),
    );
    expect(reasons[capped]).toBe('WEEKLY_CAP');
    expect(reasons[other]).toBe('QUOTA_FULL');
    // the next Monday the week starts again (the other has two that day: the capped agent first)
    await given(other, ['2026-06-22', '2026-06-22']);
    await run(new Date('2026-06-22T16:00:00Z'));
    expect(await agentOf(next)).toBe(capped);
  });

  it('a weekly cap at its edge: 2 this week and a cap of 3 takes one more, not two', async () => {
    const capped = await createAgent(db(), { name: 'Capped' });
    await setCaps(capped, { weekly: 3 });
    await given(capped, ['2026-06-15', '2026-06-16']);
    const ids = await createLeads(db(), [{}, {}]);
    await run(WED);
    const states = await leadStates(db());
    expect(ids.filter((id) => states.get(id)?.agentId === capped)).toHaveLength(1);
  });

  it('a monthly cap of 3 with 3 leads this month: the 4th goes elsewhere; last month does not count', async () => {
    const capped = await createAgent(db(), { name: 'Capped' });
    await setCaps(capped, { monthly: 3 });
    // this month (not this week) and the last day of May
    await given(capped, ['2026-06-01', '2026-06-02', '2026-06-10', '2026-05-31']);
    const other = await createAgent(db(), { name: 'Other' });
    await given(other, ['2026-06-17', '2026-06-17']);
    const [lead] = await createLeads(db(), [{}]);
    await run(WED);
    expect(await agentOf(lead)).toBe(other);
    // 1 July: a new month
    const [july] = await createLeads(db(), [{}]);
    // the other has one today, so the capped agent, under its cap again, comes first
    await given(other, ['2026-07-01']);
    await run(new Date('2026-07-01T16:00:00Z'));
    expect(await agentOf(july)).toBe(capped);
  });

  it("a daily cap lowers the day's quota: with 1 today and a daily cap of 1, the lead goes elsewhere", async () => {
    const capped = await createAgent(db(), { name: 'Capped', quota: 5 });
    await setCaps(capped, { daily: 1 });
    await given(capped, ['2026-06-17']);
    const [lead] = await createLeads(db(), [{}]);
    await run(WED);
    expect(await agentOf(lead)).toBeNull();
    const other = await createAgent(db(), { name: 'Other', quota: 5 });
    await given(other, ['2026-06-17', '2026-06-17', '2026-06-17']);
    await run(WED);
    expect(await agentOf(lead)).toBe(other);
  });

  it('the intake respects a weekly cap', async () => {
    const capped = await createAgent(db(), { name: 'Capped' });
    await setCaps(capped, { weekly: 1 });
    const [row] = await queryRows<{ d: string }>(
      db(),
      sql`select to_char((now() at time zone ${ctx.app.config.BUSINESS_TZ})::date, 'YYYY-MM-DD') as d`,
    );
    await given(capped, [row.d]);
    const admin = await loginAdmin(ctx);
    const source = (
      await admin.client.post('/api/admin/sources', {
        name: `Source ${uniquePhone()}`,
        costPerLeadCents: 1,
      })
    ).json();
    const key = (await admin.client.post(`/api/admin/sources/${source.id}/keys`)).json().key;
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/leads',
      headers: { authorization: `Bearer ${key}` },
      payload: {
        firstName: 'Bo',
        lastName: 'Lee',
        phone: uniquePhone(),
        email: uniqueEmail('bo'),
        city: 'Austin',
        state: 'TX',
        zip: '78701',
        age: 67,
        category: 'MEDICARE',
        externalId: `cap-${uniquePhone()}`,
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(await agentOf(res.json().id)).toBeNull();
  });
});
