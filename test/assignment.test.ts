import { and, eq, sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { assignmentRuns, leadHistory, leads, users } from '../src/server/db/schema';
import { maxFlow } from '../src/server/modules/assignment/max-flow.test-helper';
import { runAssignment } from '../src/server/modules/assignment/run-assignment.service';
import type { LeadCategory } from '../src/shared/domain';
import {
  byAgent,
  createAgent,
  createLeads,
  createPackage,
  leadStates,
  resetAssignmentData,
} from './support/assignment-fixtures';
import { uniqueEmail } from './support/lead-contact';
import { Client, loginAdmin, registerAgent, setupTestApp } from './support/test-app';

const ctx = setupTestApp();
const db = () => ctx.database.db;
const run = (now: Date, trigger: 'MANUAL' | 'SCHEDULE' | 'IMPORT' = 'MANUAL') =>
  runAssignment(db(), ctx.app.config, { trigger, now, events: ctx.app.leadPorts.events });

/** Mid-June: no enrollment window is open (MEDICARE Oct 15 - Dec 7, ACA Nov 1 - Jan 15). */
const JUNE = new Date('2026-06-15T16:00:00Z');
const minutesAgo = (n: number) => new Date(JUNE.getTime() - n * 60_000);

beforeEach(async () => {
  await resetAssignmentData(db());
});

describe('the greedy trap (docs/domain.md, Assignment)', () => {
  it('gives FL to A and TX to B, although A would take the newer TX lead first', async () => {
    const a = await createAgent(db(), { quota: 1, states: ['TX', 'FL'] });
    const b = await createAgent(db(), { quota: 1, states: ['TX'] });
    const [tx, fl] = await createLeads(db(), [
      { state: 'TX', createdAt: minutesAgo(1) },
      { state: 'FL', createdAt: minutesAgo(2) },
    ]);
    const result = await run(JUNE);
    expect(result).toMatchObject({ assigned: 2, agentsAssigned: 2, candidateLeads: 2 });
    const got = byAgent(await leadStates(db()));
    expect(got.get(a)).toEqual([fl]);
    expect(got.get(b)).toEqual([tx]);
  });
});

describe('quotas', () => {
  it('counts leads assigned manually today against the quota, and never goes past it', async () => {
    const admin = await loginAdmin(ctx);
    const agent = await createAgent(db(), { quota: 3 });
    const ids = await createLeads(
      db(),
      Array.from({ length: 6 }, (_, i) => ({ createdAt: new Date(Date.now() - i * 60_000) })),
    );
    for (const id of ids.slice(4)) {
      const res = await admin.client.post('/api/admin/leads/assign', { leadId: id, userId: agent });
      expect(res.statusCode, res.body).toBe(200);
    }
    const result = await run(new Date());
    expect(result).toMatchObject({ assigned: 1, eligibleAgents: 1, candidateLeads: 4 });
    const states = await leadStates(db());
    expect(byAgent(states).get(agent)).toEqual([ids[0], ids[4], ids[5]]);
    // a second run the same day has nothing left to give
    expect((await run(new Date()))?.assigned).toBe(0);
  });

  it('gives nothing to an agent already over quota through manual assignments', async () => {
    const agent = await createAgent(db(), { quota: 1 });
    const [m1, m2] = await createLeads(db(), [{}, {}]);
    await db()
      .update(leads)
      .set({ status: 'ASSIGNED', agentId: agent, assignedOn: '2026-06-15' })
      .where(sql`${leads.id} in (${m1}, ${m2})`);
    await createLeads(db(), [{}, {}]);
    expect(await run(JUNE)).toMatchObject({ assigned: 0, eligibleAgents: 1, candidateLeads: 2 });
  });
});

describe('eligibility', () => {
  it('serves an enrollment-only package only inside its category window', async () => {
    const medicare = await createAgent(db(), { category: 'MEDICARE', enrollmentOnly: true });
    const aca = await createAgent(db(), { category: 'ACA', enrollmentOnly: true });
    const finalExpense = await createAgent(db(), {
      category: 'FINAL_EXPENSE',
      enrollmentOnly: true,
      quota: 1,
    });
    await createLeads(db(), [
      { category: 'MEDICARE' },
      { category: 'ACA' },
      { category: 'FINAL_EXPENSE' },
      { category: 'FINAL_EXPENSE' },
    ]);

    // June: both windows closed; FINAL_EXPENSE has no window, so its flag changes nothing
    const june = await run(JUNE);
    expect(june).toMatchObject({ eligibleAgents: 1, assigned: 1 });
    let got = byAgent(await leadStates(db()));
    expect([...got.keys()]).toEqual([finalExpense]);

    // Oct 20 (business date in New York): MEDICARE open, ACA not yet
    const oct = await run(new Date('2026-10-20T15:00:00Z'));
    expect(oct).toMatchObject({ eligibleAgents: 2, assigned: 2 });
    got = byAgent(await leadStates(db()));
    expect(got.get(medicare)).toHaveLength(1);
    expect(got.get(aca)).toBeUndefined();

    // Jan 10 of the next year: ACA's window wraps the new year
    const jan = await run(new Date('2027-01-10T15:00:00Z'));
    expect(jan).toMatchObject({ eligibleAgents: 2, assigned: 1 });
    expect(byAgent(await leadStates(db())).get(aca)).toHaveLength(1);
  });

  it('uses the window bounds as business dates in BUSINESS_TZ', async () => {
    const agent = await createAgent(db(), { category: 'MEDICARE', enrollmentOnly: true });
    await createLeads(db(), [{}]);
    // 2026-10-15T03:30Z is still Oct 14 in New York: closed
    expect(await run(new Date('2026-10-15T03:30:00Z'))).toMatchObject({
      businessDate: '2026-10-14',
      eligibleAgents: 0,
      assigned: 0,
    });
    // 2026-10-15T04:30Z is 00:30 on Oct 15: open
    expect(await run(new Date('2026-10-15T04:30:00Z'))).toMatchObject({
      businessDate: '2026-10-15',
      eligibleAgents: 1,
      assigned: 1,
    });
    expect(byAgent(await leadStates(db())).get(agent)).toHaveLength(1);
  });

  it('gives nothing to CANCELED, INACTIVE or PAST_DUE subscribers nor to an agent without one', async () => {
    const packageId = await createPackage(db(), { leadsPerDay: 5 });
    const active = await createAgent(db(), { packageId });
    for (const status of ['CANCELED', 'INACTIVE', 'PAST_DUE', null] as const) {
      await createAgent(db(), { packageId, status });
    }
    await createLeads(
      db(),
      Array.from({ length: 10 }, () => ({})),
    );
    expect(await run(JUNE)).toMatchObject({ eligibleAgents: 1, assigned: 5 });
    const got = byAgent(await leadStates(db()));
    expect([...got.keys()]).toEqual([active]);
  });
});

describe('the business day across a DST change (America/New_York, 2026-11-01)', () => {
  it('counts the quota per business date, with midnight at 05:00Z after the change', async () => {
    const agent = await createAgent(db(), { category: 'FINAL_EXPENSE', quota: 2 });
    await createLeads(
      db(),
      Array.from({ length: 6 }, () => ({ category: 'FINAL_EXPENSE' as const })),
    );
    // Nov 1 noon: the day's quota is filled
    expect(await run(new Date('2026-11-01T16:00:00Z'))).toMatchObject({
      businessDate: '2026-11-01',
      assigned: 2,
    });
    // 2026-11-02T04:30Z is 23:30 EST on Nov 1 (a fixed UTC-4 would say Nov 2): nothing more
    expect(await run(new Date('2026-11-02T04:30:00Z'))).toMatchObject({
      businessDate: '2026-11-01',
      assigned: 0,
    });
    // 2026-11-02T05:30Z is 00:30 on Nov 2: a new quota
    expect(await run(new Date('2026-11-02T05:30:00Z'))).toMatchObject({
      businessDate: '2026-11-02',
      assigned: 2,
    });
    const days = await db()
      .select({ day: leads.assignedOn, n: sql<number>`count(*)::int` })
      .from(leads)
      .where(eq(leads.agentId, agent))
      .groupBy(leads.assignedOn)
      .orderBy(leads.assignedOn);
    expect(days).toEqual([
      { day: '2026-11-01', n: 2 },
      { day: '2026-11-02', n: 2 },
    ]);
  });

  it('starts Nov 1 at 04:00Z (still EDT, UTC-4)', async () => {
    await createAgent(db(), { category: 'FINAL_EXPENSE', quota: 1 });
    await createLeads(db(), [{ category: 'FINAL_EXPENSE' }, { category: 'FINAL_EXPENSE' }]);
    expect((await run(new Date('2026-11-01T03:59:00Z')))?.businessDate).toBe('2026-10-31');
    expect(await run(new Date('2026-11-01T04:01:00Z'))).toMatchObject({
      businessDate: '2026-11-01',
      assigned: 1,
    });
  });
});

describe('preferences', () => {
  it('matches states, cities (case- and space-insensitive), ages and categories', async () => {
    const texan = await createAgent(db(), { quota: 50, states: ['TX'] });
    const sanAntonio = await createAgent(db(), {
      category: 'ACA',
      quota: 50,
      cities: ['  San   ANTONIO ', 'el paso'],
    });
    const sixties = await createAgent(db(), {
      category: 'FINAL_EXPENSE',
      quota: 50,
      ageMin: 60,
      ageMax: 69,
    });
    const wrongCategory = await createAgent(db(), { quota: 50, categories: ['ACA'] });
    const aca = await createAgent(db(), { category: 'ACA', quota: 50, categories: ['ACA'] });
    await createAgent(db(), { category: 'ACA', quota: 50, states: ['WY'] });

    const lead = (category: LeadCategory, state: string, city: string, age: number) => ({
      category,
      state,
      city,
      age,
    });
    const [m1, m2, m3, a1, a2, a3, a4, f1, f2, f3, f4] = await createLeads(db(), [
      lead('MEDICARE', 'TX', 'Austin', 70),
      lead('MEDICARE', 'TX', 'Dallas', 66),
      lead('MEDICARE', 'FL', 'Miami', 70), // no MEDICARE agent takes FL
      lead('ACA', 'TX', 'san antonio', 30),
      lead('ACA', 'TX', ' San  Antonio', 40),
      lead('ACA', 'TX', 'EL PASO ', 40),
      lead('ACA', 'NY', 'Albany', 40), // only the ACA agent without cities fits
      lead('FINAL_EXPENSE', 'OH', 'Akron', 59),
      lead('FINAL_EXPENSE', 'OH', 'Akron', 60),
      lead('FINAL_EXPENSE', 'OH', 'Akron', 69),
      lead('FINAL_EXPENSE', 'OH', 'Akron', 70),
    ]);
    const result = await run(JUNE);
    const got = byAgent(await leadStates(db()));
    expect(got.get(texan)).toEqual([m1, m2]);
    expect(got.get(sixties)).toEqual([f2, f3]);
    expect(got.get(wrongCategory)).toBeUndefined();
    // a1..a3 fit both ACA agents (the one without preferences takes any city): fair shares
    const acaLeads = [...(got.get(sanAntonio) ?? []), ...(got.get(aca) ?? [])].sort(
      (x, y) => x - y,
    );
    expect(acaLeads).toEqual([a1, a2, a3, a4]);
    expect(got.get(aca)).toContain(a4);
    expect(got.get(sanAntonio)?.every((id) => [a1, a2, a3].includes(id))).toBe(true);
    expect(got.get(sanAntonio)).toHaveLength(2);
    expect(result).toMatchObject({ assigned: 8, candidateLeads: 11, eligibleAgents: 6 });
    const left = [...(await leadStates(db())).values()].filter((l) => l.status === 'NEW');
    expect(left.map((l) => l.id).sort((x, y) => x - y)).toEqual([m3, f1, f4]);
  });
});

describe('fairness and freshness, checked on the database', () => {
  it('shares by quota and hands out the newest leads first', async () => {
    const big = await createAgent(db(), { quota: 10 });
    const small = await createAgent(db(), { quota: 5 });
    const ids = await createLeads(
      db(),
      Array.from({ length: 9 }, (_, i) => ({ createdAt: minutesAgo(100 - i) })),
    );
    expect(await run(JUNE)).toMatchObject({ assigned: 9 });
    let got = byAgent(await leadStates(db()));
    // fill ratios equal: 6/10 and 3/5
    expect(got.get(big)).toHaveLength(6);
    expect(got.get(small)).toHaveLength(3);

    // 12 more leads, room for 6: the 6 newest go, 4 to big (10/10) and 2 to small (5/5)
    const more = await createLeads(
      db(),
      Array.from({ length: 12 }, (_, i) => ({ createdAt: minutesAgo(50 - i) })),
    );
    expect(await run(JUNE)).toMatchObject({ assigned: 6, candidateLeads: 12 });
    const states = await leadStates(db());
    got = byAgent(states);
    expect(got.get(big)).toHaveLength(10);
    expect(got.get(small)).toHaveLength(5);
    const newest = more.slice(6);
    for (const id of newest) expect(states.get(id)?.status).toBe('ASSIGNED');
    for (const id of more.slice(0, 6)) expect(states.get(id)?.status).toBe('NEW');
    expect(ids.every((id) => states.get(id)?.status === 'ASSIGNED')).toBe(true);
  });

  it('holds rules 1-4 and reaches the max-flow bound on random instances', async () => {
    const rand = mulberry32(20260615);
    const pick = <T>(items: readonly T[]) => items[Math.floor(rand() * items.length)];
    const today = '2026-06-15';
    for (let round = 0; round < 16; round++) {
      await resetAssignmentData(db());
      const agents: TestAgent[] = [];
      for (let i = 0, n = 2 + Math.floor(rand() * 4); i < n; i++) {
        const spec = {
          category: pick(['MEDICARE', 'ACA'] as const),
          quota: 1 + Math.floor(rand() * 4),
          states: rand() < 0.5 ? [] : [pick(['TX', 'FL', 'CA'])],
          cities: rand() < 0.7 ? [] : [pick(['Austin', ' MIAMI ', 'san  diego'])],
          ageMin: rand() < 0.6 ? null : pick([30, 50, 65]),
          ageMax: rand() < 0.6 ? null : pick([40, 64, 80]),
          // docs/domain.md, Pause: paused agents (open or ending later, or a pause that already ended) and
          // licences that narrow or exclude the preferred states
          paused: rand() < 0.25 ? pick(['open', 'until-later', 'ended'] as const) : null,
          licensed:
            rand() < 0.5 ? [] : [...new Set([pick(['TX', 'FL', 'CA']), pick(['TX', 'FL'])])],
        };
        const id = await createAgent(db(), spec);
        if (spec.paused || spec.licensed.length > 0) {
          const until =
            spec.paused === 'until-later'
              ? new Date(JUNE.getTime() + 86_400_000)
              : spec.paused === 'ended'
                ? minutesAgo(1)
                : null;
          await db()
            .update(users)
            .set({
              licensedStates: spec.licensed,
              pausedAt: spec.paused ? minutesAgo(60 * 24 * 3) : null,
              pausedUntil: until,
            })
            .where(eq(users.id, id));
        }
        agents.push({
          id,
          ...spec,
          paused: spec.paused === 'open' || spec.paused === 'until-later',
          before: 0,
        });
      }
      // some quota already used today
      for (const agent of agents) {
        if (rand() < 0.3) {
          const [id] = await createLeads(db(), [{ category: agent.category }]);
          await db()
            .update(leads)
            .set({ status: 'ASSIGNED', agentId: agent.id, assignedOn: today })
            .where(eq(leads.id, id));
          agent.before = 1;
        }
        // a lead returned today and approved: INVALID, assigned_on cleared, so not counted (the credit)
        if (rand() < 0.4) {
          const [id] = await createLeads(db(), [{ category: agent.category }]);
          await db()
            .update(leads)
            .set({
              status: 'INVALID',
              agentId: agent.id,
              assignedAt: minutesAgo(30),
              assignedOn: null,
              returnedAt: minutesAgo(5),
            })
            .where(eq(leads.id, id));
        }
      }
      const pool = Array.from({ length: Math.floor(rand() * 14) }, (_, i) => ({
        category: pick(['MEDICARE', 'ACA'] as const),
        state: pick(['TX', 'FL', 'CA']),
        city: pick(['Austin', 'Miami', 'San Diego', 'austin']),
        age: pick([25, 35, 45, 55, 65, 75]),
        createdAt: minutesAgo(Math.floor(rand() * 5) * 10 + i),
      }));
      const poolIds = await createLeads(db(), pool);
      const result = await run(JUNE);
      const states = await leadStates(db());
      checkRules(
        agents,
        pool.map((l, i) => ({ ...l, id: poolIds[i] })),
        states,
        result!.id,
        `round ${round}`,
      );
    }
  });
});

describe('run records', () => {
  it('records each run and which run assigned each lead, in leads and lead_history', async () => {
    const agent = await createAgent(db(), { quota: 2 });
    await createAgent(db(), { quota: 2, status: 'PAST_DUE' });
    const ids = await createLeads(db(), [{}, {}, {}]);
    const result = await run(JUNE, 'IMPORT');
    expect(result).toMatchObject({
      trigger: 'IMPORT',
      businessDate: '2026-06-15',
      eligibleAgents: 1,
      candidateLeads: 3,
      assigned: 2,
      agentsAssigned: 1,
      error: null,
    });
    expect(result!.durationMs).toBeGreaterThanOrEqual(0);
    const [row] = await db().select().from(assignmentRuns).where(eq(assignmentRuns.id, result!.id));
    expect(row.finishedAt).toBeInstanceOf(Date);
    expect(row.scheduleKey).toBeNull();
    const states = await leadStates(db());
    const assigned = ids.filter((id) => states.get(id)?.agentId === agent);
    expect(assigned).toHaveLength(2);
    for (const id of assigned) expect(states.get(id)?.assignmentRunId).toBe(result!.id);
    const history = await db()
      .select()
      .from(leadHistory)
      .where(eq(leadHistory.assignmentRunId, result!.id));
    expect(history.map((h) => h.leadId).sort()).toEqual(assigned.sort());
    for (const h of history) {
      expect(h).toMatchObject({
        kind: 'AUTO_ASSIGNED',
        fromStatus: 'NEW',
        toStatus: 'ASSIGNED',
        agentId: agent,
        actorId: null,
      });
    }
  });

  it('keeps history references whole without per-row foreign keys', async () => {
    const agent = await createAgent(db(), { quota: 2 });
    const [kept, dropped] = await createLeads(db(), [{}, {}]);
    const result = await run(JUNE);
    expect(result).toMatchObject({ assigned: 2, error: null });
    const historyOf = async (leadId: number) =>
      db().select().from(leadHistory).where(eq(leadHistory.leadId, leadId));
    // a row naming a lead, a user or a run that does not exist is refused
    const refused = async (values: Partial<typeof leadHistory.$inferInsert>) => {
      const row = { leadId: kept, kind: 'STATUS_CHANGED' as const, toStatus: 'CONTACTED' as const };
      const error = await db()
        .insert(leadHistory)
        .values({ ...row, ...values })
        .then(() => null)
        .catch((err: { cause?: { code?: string } }) => err.cause?.code ?? 'other');
      return error;
    };
    expect(await refused({ leadId: 999_999 })).toBe('23503');
    expect(await refused({ agentId: 999_999 })).toBe('23503');
    expect(await refused({ actorId: 999_999 })).toBe('23503');
    expect(await refused({ assignmentRunId: 999_999 })).toBe('23503');
    expect(await refused({})).toBeNull();
    // a run still named by history cannot go; a deleted lead takes its history with it
    await expect(
      db().delete(assignmentRuns).where(eq(assignmentRuns.id, result!.id)),
    ).rejects.toThrow();
    await db().delete(leads).where(eq(leads.id, dropped));
    expect(await historyOf(dropped)).toEqual([]);
    expect(await historyOf(kept)).toHaveLength(2);
    // a deleted agent leaves the history, without its name
    await db().execute(sql`delete from users where id = ${agent}`);
    expect((await historyOf(kept)).map((h) => h.agentId)).toEqual([null, null]);
  });

  it('records a failed run with its error and leaves every lead as it was', async () => {
    await createAgent(db(), { quota: 2 });
    await createLeads(db(), [{}, {}]);
    await db().execute(sql`create or replace function lf_test_refuse() returns trigger
      language plpgsql as $$ begin raise exception 'refused by test trigger'; end $$`);
    await db().execute(sql`create trigger lf_test_refuse before update on leads
      for each row execute function lf_test_refuse()`);
    try {
      const result = await run(JUNE);
      expect(result).toMatchObject({ assigned: 0, error: 'refused by test trigger' });
      expect(result!.eligibleAgents).toBe(1);
      expect(result!.candidateLeads).toBe(2);
      const states = [...(await leadStates(db())).values()];
      expect(states.every((l) => l.status === 'NEW' && l.agentId === null)).toBe(true);
      const runs = await db().select().from(assignmentRuns);
      expect(runs).toHaveLength(1);
      expect(runs[0].error).toBe('refused by test trigger');
    } finally {
      await db().execute(sql`drop trigger lf_test_refuse on leads`);
    }
  });

  it('a failed write of one category leaves the other categories unwritten too', async () => {
    await createAgent(db(), { quota: 2 });
    await createAgent(db(), { quota: 2, category: 'ACA' });
    await createLeads(db(), [{}, { category: 'ACA', age: 40 }]);
    await db().execute(sql`create or replace function lf_test_refuse() returns trigger
      language plpgsql as $$ begin
        if new.category = 'MEDICARE' then raise exception 'refused by test trigger'; end if;
        return new;
      end $$`);
    await db().execute(sql`create trigger lf_test_refuse before update on leads
      for each row execute function lf_test_refuse()`);
    try {
      const result = await run(JUNE);
      expect(result).toMatchObject({ assigned: 0, error: 'refused by test trigger' });
      const states = [...(await leadStates(db())).values()];
      expect(states.every((l) => l.status === 'NEW' && l.agentId === null)).toBe(true);
      // and the connection is clean for what follows
      await db().execute(sql`drop trigger lf_test_refuse on leads`);
      expect(await run(JUNE)).toMatchObject({ assigned: 2, error: null });
    } finally {
      await db().execute(sql`drop trigger if exists lf_test_refuse on leads`);
    }
  });

  it('makes the scheduled run once per business date', async () => {
    await createAgent(db(), { quota: 1 });
    await createLeads(db(), [{}, {}, {}]);
    const first = await run(JUNE, 'SCHEDULE');
    expect(first).toMatchObject({ trigger: 'SCHEDULE', assigned: 1 });
    expect(await run(new Date('2026-06-15T23:00:00Z'), 'SCHEDULE')).toBeNull();
    // the next business date has its own run
    expect(await run(new Date('2026-06-16T13:00:00Z'), 'SCHEDULE')).toMatchObject({ assigned: 1 });
    const keys = await db()
      .select({ key: assignmentRuns.scheduleKey })
      .from(assignmentRuns)
      .orderBy(assignmentRuns.id);
    expect(keys.map((k) => k.key)).toEqual(['daily:2026-06-15', 'daily:2026-06-16']);
  });
});

describe('assignment routes', () => {
  it('POST /api/admin/assignment/run runs the engine and answers the run record', async () => {
    const admin = await loginAdmin(ctx);
    await createAgent(db(), { quota: 2 });
    await createAgent(db(), { quota: 1 });
    await createLeads(db(), [{}, {}, {}, {}]);
    const res = await admin.client.post('/api/admin/assignment/run');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      trigger: 'MANUAL',
      eligibleAgents: 2,
      candidateLeads: 4,
      assigned: 3,
      agentsAssigned: 2,
      error: null,
    });
    expect(Object.keys(body).sort()).toEqual(
      [
        'agentsAssigned',
        'assigned',
        'businessDate',
        'candidateLeads',
        'durationMs',
        'eligibleAgents',
        'error',
        'id',
        'startedAt',
        'trigger',
      ].sort(),
    );
    expect(body.businessDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(new Date(body.startedAt).getTime()).toBeGreaterThan(Date.now() - 60_000);
    const health = await new Client(ctx.app).get('/api/health');
    expect(health.json().lastAssignmentRun).toMatchObject({ id: body.id, assigned: 3 });
  });

  it('answers 500 with a message when the run fails, and the run list shows its error', async () => {
    const admin = await loginAdmin(ctx);
    await createAgent(db(), { quota: 2 });
    await createLeads(db(), [{}]);
    await db().execute(sql`create or replace function lf_test_refuse() returns trigger
      language plpgsql as $$ begin raise exception 'refused by test trigger'; end $$`);
    await db().execute(sql`create trigger lf_test_refuse before update on leads
      for each row execute function lf_test_refuse()`);
    try {
      const res = await admin.client.post('/api/admin/assignment/run');
      expect(res.statusCode).toBe(500);
      const runs = (await admin.client.get('/api/admin/assignment/runs')).json();
      expect(res.json().message).toBe(
        `Assignment run #${runs[0].id} failed; the error is recorded in the run history`,
      );
      expect(runs[0]).toMatchObject({ error: 'refused by test trigger', assigned: 0 });
    } finally {
      await db().execute(sql`drop trigger lf_test_refuse on leads`);
    }
  });

  it('GET /api/admin/assignment/runs lists runs newest first, limited', async () => {
    const admin = await loginAdmin(ctx);
    const made = [];
    for (let i = 0; i < 3; i++) made.push((await run(JUNE))!.id);
    const all = await admin.client.get('/api/admin/assignment/runs');
    expect(all.statusCode).toBe(200);
    expect(all.json().map((r: { id: number }) => r.id)).toEqual([...made].reverse());
    const two = await admin.client.get('/api/admin/assignment/runs?limit=2');
    expect(two.json().map((r: { id: number }) => r.id)).toEqual([made[2], made[1]]);
    expect((await admin.client.get('/api/admin/assignment/runs?limit=0')).statusCode).toBe(400);
    expect((await admin.client.get('/api/admin/assignment/runs?limit=x')).statusCode).toBe(400);
  });

  it('is for admins only: an agent gets 403 and no session 401, and nothing runs', async () => {
    const agent = await registerAgent(ctx.app);
    const anon = new Client(ctx.app);
    for (const client of [agent.client, anon]) {
      const expected = client === anon ? 401 : 403;
      const post = await client.post('/api/admin/assignment/run');
      expect(post.statusCode).toBe(expected);
      expect(typeof post.json().message).toBe('string');
      expect((await client.get('/api/admin/assignment/runs')).statusCode).toBe(expected);
    }
    expect(await db().select().from(assignmentRuns)).toHaveLength(0);
  });
});

describe('assignment after an import', () => {
  it('runs the engine (trigger IMPORT) and answers its count as `assigned`', async () => {
    const admin = await loginAdmin(ctx);
    const agent = await createAgent(db(), { category: 'ACA', quota: 2, states: ['CA'] });
    const csv = [
      'state,city,age,category,email',
      `CA,San Jose,40,ACA,${uniqueEmail()}`,
      `CA,Fresno,41,aca,${uniqueEmail()}`,
      `CA,Fresno,42,ACA,${uniqueEmail()}`,
      `TX,Austin,43,ACA,${uniqueEmail()}`,
    ].join('\n');
    const form = new FormData();
    form.append('file', new Blob([csv], { type: 'text/csv' }), 'leads.csv');
    const res = await admin.client.request('POST', '/api/admin/leads/import', form);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ imported: 4, assigned: 2 });
    const runs = await db().select().from(assignmentRuns);
    expect(runs).toMatchObject([{ trigger: 'IMPORT', assigned: 2, candidateLeads: 4 }]);
    const mine = await db()
      .select({ state: leads.state })
      .from(leads)
      .where(and(eq(leads.agentId, agent), eq(leads.assignmentRunId, runs[0].id)));
    expect(mine).toEqual([{ state: 'CA' }, { state: 'CA' }]);
  });
});

// ---------------------------------------------------------------------------------------------
// The four run rules of docs/domain.md, Assignment, checked on the database after a run, with fits computed here.
// ---------------------------------------------------------------------------------------------

interface TestAgent {
  id: number;
  category: LeadCategory;
  quota: number;
  states: string[];
  cities: string[];
  ageMin: number | null;
  ageMax: number | null;
  /** paused at the run's clock (docs/domain.md, Pause) */
  paused: boolean;
  /** licensed states; empty: not restricted */
  licensed: string[];
  before: number;
}

interface TestLead {
  id: number;
  category: LeadCategory;
  state: string;
  city: string;
  age: number;
  createdAt: Date;
}

function fitsAgent(agent: TestAgent, lead: TestLead): boolean {
  const squash = (s: string) => s.toLowerCase().split(/\s+/).filter(Boolean).join(' ');
  return (
    !agent.paused &&
    (agent.licensed.length === 0 || agent.licensed.includes(lead.state)) &&
    lead.category === agent.category &&
    (agent.states.length === 0 || agent.states.includes(lead.state)) &&
    (agent.cities.length === 0 || agent.cities.some((c) => squash(c) === squash(lead.city))) &&
    (agent.ageMin === null || lead.age >= agent.ageMin) &&
    (agent.ageMax === null || lead.age <= agent.ageMax)
  );
}

function checkRules(
  agents: TestAgent[],
  pool: TestLead[],
  states: Map<number, { status: string; agentId: number | null; assignmentRunId: number | null }>,
  runId: number,
  label: string,
): void {
  const newer = (a: TestLead, b: TestLead) =>
    a.createdAt.getTime() > b.createdAt.getTime() ||
    (a.createdAt.getTime() === b.createdAt.getTime() && a.id > b.id);
  const given = new Map<number, TestLead[]>(agents.map((a) => [a.id, []]));
  for (const lead of pool) {
    const state = states.get(lead.id)!;
    if (state.agentId === null) {
      expect(state.status, label).toBe('NEW');
      continue;
    }
    expect(state.assignmentRunId, label).toBe(runId);
    const agent = agents.find((a) => a.id === state.agentId)!;
    expect(fitsAgent(agent, lead), `${label}: lead ${lead.id} does not fit`).toBe(true);
    given.get(agent.id)!.push(lead);
  }
  const total = (a: TestAgent) => a.before + given.get(a.id)!.length;
  let assigned = 0;
  for (const agent of agents) {
    // rule 1: no quota exceeded
    expect(total(agent), label).toBeLessThanOrEqual(Math.max(agent.quota, agent.before));
    assigned += given.get(agent.id)!.length;
  }
  // rule 2: as many as the max-flow bound
  const bound = maxFlow(
    agents.map((a) => ({ id: a.id, quota: a.quota, assignedToday: a.before })),
    pool.map((l) => ({
      leads: [{ id: l.id, createdAt: l.createdAt.getTime() }],
      fits: agents.filter((a) => fitsAgent(a, l)).map((a) => a.id),
    })),
  );
  expect(assigned, `${label}: max-flow bound`).toBe(bound);
  for (const a of agents) {
    for (const b of agents) {
      if (a === b || total(b) >= b.quota) continue;
      // rule 3: no lead A got that B fits would make the fill ratios more equal if moved
      for (const lead of given.get(a.id)!) {
        if (!fitsAgent(b, lead)) continue;
        expect((total(b) + 1) * a.quota, `${label}: fairness`).toBeGreaterThanOrEqual(
          total(a) * b.quota,
        );
      }
    }
    // rule 4: no NEW lead fitting A is newer than the oldest lead A got in this run
    const mine = given.get(a.id)!;
    if (mine.length === 0) continue;
    const oldest = mine.reduce((o, l) => (newer(o, l) ? l : o));
    for (const lead of pool) {
      if (states.get(lead.id)!.status !== 'NEW' || !fitsAgent(a, lead)) continue;
      expect(newer(lead, oldest), `${label}: freshness`).toBe(false);
    }
  }
}

function mulberry32(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
