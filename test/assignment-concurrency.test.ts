/**
 * Races that only a real PostgreSQL can show (PGlite has one connection, so nothing overlaps).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Database, openDatabase, queryRows } from '../src/server/db/client';
import { assignmentRuns } from '../src/server/db/schema';
import { startAssignmentScheduler } from '../src/server/jobs/assignment-scheduler';
import { businessDate } from '../src/server/lib/business-time';
import { lockRuns } from '../src/server/modules/assignment/assignment.repository';
import { runAssignment } from '../src/server/modules/assignment/run-assignment.service';
import { createAgent, createLeads, resetAssignmentData } from './support/assignment-fixtures';
import { loginAdmin, setupTestApp } from './support/test-app';
import { TEST_DB } from './support/test-db';

const run = promisify(execFile);

describe.runIf(TEST_DB === 'postgres')('concurrency on PostgreSQL', () => {
  const ctx = setupTestApp();
  const db = () => ctx.database.db;
  /** A second connection pool on the same database: what another app process would hold. */
  let other: Database;

  beforeAll(async () => {
    other = await openDatabase({ databaseUrl: (ctx.database as Database & { url: string }).url });
  });
  afterAll(async () => {
    await other?.close();
  });
  beforeEach(async () => {
    await resetAssignmentData(db());
  });

  it('four runs and 50 manual assignments at once: no lead twice, no quota exceeded by runs', async () => {
    const admin = await loginAdmin(ctx);
    const quotas = new Map<number, number>();
    for (let i = 0; i < 40; i++) {
      const quota = 3 + (i % 6);
      quotas.set(await createAgent(db(), { quota }), quota);
    }
    const agentIds = [...quotas.keys()];
    const now = Date.now();
    const leadIds = await createLeads(
      db(),
      Array.from({ length: 3000 }, (_, i) => ({ createdAt: new Date(now - i * 1000) })),
    );
    // manual picks among the 400 newest leads (the runs want the newest 220); some picked twice
    const picks = Array.from({ length: 50 }, (_, i) => ({
      leadId: leadIds[(i * 13) % 400],
      userId: agentIds[(i * 3) % agentIds.length],
      // what the Assign Lead dialog sends for a NEW lead: taken by a run meanwhile, a 409
      fromAgentId: null,
    }));
    const config = ctx.app.config;
    const later = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    // runs from two pools (two processes) start while the manual calls are landing
    const runsStarted = [0, 80, 160, 240, 320, 400].map(async (delay, i) => {
      await later(delay);
      return runAssignment(i % 2 ? other.db : db(), config, {
        trigger: 'MANUAL',
        events: ctx.app.leadPorts.events,
      });
    });
    const manualSent = picks.map(async (body, i) => {
      await later(i * 8);
      return admin.client.post('/api/admin/leads/assign', body);
    });
    const runs = await Promise.all(runsStarted);
    const manual = await Promise.all(manualSent);
    for (const r of runs) expect(r?.error).toBeNull();
    const okManual = manual.filter((r) => r.statusCode === 200);
    expect(manual.every((r) => r.statusCode === 200 || r.statusCode === 409)).toBe(true);
    // each lead picked can be won by one manual call at most
    expect(okManual.length).toBeLessThanOrEqual(new Set(picks.map((p) => p.leadId)).size);

    // every assigned lead has exactly one assignment in its history, to the agent it holds
    const history = await queryRows<{ leadId: number; n: number; agents: number; agreed: boolean }>(
      db(),
      sql`select h.lead_id as "leadId", count(*)::int as n,
                 count(distinct h.agent_id)::int as agents,
                 bool_and(h.agent_id = l.agent_id) as agreed
            from lead_history h join leads l on l.id = h.lead_id
           where h.kind in ('AUTO_ASSIGNED', 'MANUAL_ASSIGNED')
           group by h.lead_id`,
    );
    expect(history.filter((h) => h.n !== 1 || !h.agreed)).toEqual([]);
    const [{ assigned }] = await queryRows<{ assigned: number }>(
      db(),
      sql`select count(*)::int as assigned from leads where agent_id is not null`,
    );
    expect(history).toHaveLength(assigned);
    expect(assigned).toBe(runs.reduce((sum, r) => sum + r!.assigned, 0) + okManual.length);
    for (const res of okManual) {
      const lead = res.json();
      expect(history.find((h) => h.leadId === lead.id)).toBeDefined();
    }

    // per agent: what the runs gave never passes the quota, counting what the agent had before
    const perAgent = await queryRows<{ agentId: number; auto: number; manual: number }>(
      db(),
      sql`select agent_id as "agentId",
                 count(*) filter (where assignment_run_id is not null)::int as auto,
                 count(*) filter (where assignment_run_id is null)::int as manual
            from leads where agent_id is not null group by agent_id`,
    );
    for (const row of perAgent) {
      expect(row.auto, `agent ${row.agentId}`).toBeLessThanOrEqual(quotas.get(row.agentId)!);
    }
    // and counting the manual assignments made before it: runs and manual assignments take
    // the quota lock, so history ids follow their order; at each run's last row for an agent,
    // the agent's assignments so far stay within the quota (later manual ones are the admin's)
    const overshoot = await queryRows<{ agentId: number; runId: number; upTo: number }>(
      db(),
      sql`with last as (
            select assignment_run_id as run_id, agent_id, max(id) as last_id
              from lead_history where kind = 'AUTO_ASSIGNED' group by 1, 2
          )
          select l.agent_id as "agentId", l.run_id as "runId",
                 (select count(*)::int from lead_history h
                   where h.agent_id = l.agent_id and h.id <= l.last_id
                     and h.kind in ('AUTO_ASSIGNED', 'MANUAL_ASSIGNED')) as "upTo"
            from last l`,
    );
    expect(overshoot.length).toBeGreaterThan(0);
    expect(overshoot.filter((o) => o.upTo > quotas.get(o.agentId)!)).toEqual([]);
    // 3000 leads for 220 places: the runs filled every quota that manual picks left open
    const room = [...quotas.values()].reduce((a, b) => a + b, 0);
    const fill = perAgent.reduce(
      (sum, r) => sum + Math.min(r.auto + r.manual, quotas.get(r.agentId)!),
      0,
    );
    expect(fill).toBe(room);
  });

  it('a manual assignment waits for a run in flight, which counts it if it came first', async () => {
    const admin = await loginAdmin(ctx);
    const agentId = await createAgent(db(), { quota: 2 });
    const [first] = await createLeads(db(), [{}, {}, {}, {}, {}]);
    // another process's run holds the quota lock: it has read the quota (2 left) and not written
    let answered = false;
    let pending: Promise<{ statusCode: number }> | undefined;
    await other.db.transaction(async (tx) => {
      await lockRuns(tx);
      pending = admin.client
        .post('/api/admin/leads/assign', { leadId: first, userId: agentId })
        .then((res) => {
          answered = true;
          return res;
        });
      await new Promise((resolve) => setTimeout(resolve, 400));
      // without the lock the manual assignment would be in, and this run would give 2 more
      expect(answered).toBe(false);
    });
    expect((await pending!).statusCode).toBe(200);
    // the next run reads the quota after it: one place left
    const result = await runAssignment(db(), ctx.app.config, {
      trigger: 'MANUAL',
      events: ctx.app.leadPorts.events,
    });
    expect(result).toMatchObject({ assigned: 1, error: null });
    const [{ n }] = await queryRows<{ n: number }>(
      db(),
      sql`select count(*)::int as n from leads where agent_id = ${agentId}`,
    );
    expect(n).toBe(2);
  });

  it('two processes asked for the same business date make one scheduled run', async () => {
    await createAgent(db(), { quota: 2 });
    await createLeads(db(), [{}, {}, {}]);
    const config = { ...ctx.app.config, ASSIGNMENT_SCHEDULE: '0 0 * * *' };
    const quiet = { info: () => {}, error: () => {} };
    // two schedulers on two pools, both starting after today's time: both try to catch up
    const schedulers = [db(), other.db].map((handle) =>
      startAssignmentScheduler({
        db: handle,
        config,
        events: ctx.app.leadPorts.events,
        log: quiet,
      }),
    );
    const outcomes = await Promise.all(schedulers.map((s) => s.catchUp));
    await Promise.all(schedulers.map((s) => s.stop()));
    expect(outcomes.filter((o) => o !== null)).toHaveLength(1);
    expect(outcomes.find((o) => o !== null)).toMatchObject({ assigned: 2 });

    // and two real processes (npm run assign:run -- --schedule) after that: both skip
    const env = {
      ...process.env,
      DATABASE_URL: (ctx.database as Database & { url: string }).url,
      LOG_LEVEL: 'silent',
    };
    const cli = () =>
      run('npx', ['tsx', 'scripts/run-assignment.ts', '--schedule'], { env, timeout: 60_000 });
    const outputs = await Promise.all([cli(), cli()]);
    for (const out of outputs) expect(out.stdout).toContain('skipped');
    const runs = await db().select().from(assignmentRuns);
    expect(runs.map((r) => r.scheduleKey)).toEqual([
      `daily:${businessDate(ctx.app.config.BUSINESS_TZ)}`,
    ]);
  });

  it('two processes started together make one scheduled run between them', async () => {
    await createAgent(db(), { quota: 3 });
    await createLeads(db(), [{}, {}, {}, {}]);
    const env = {
      ...process.env,
      DATABASE_URL: (ctx.database as Database & { url: string }).url,
      LOG_LEVEL: 'silent',
    };
    const cli = () =>
      run('npx', ['tsx', 'scripts/run-assignment.ts', '--schedule'], { env, timeout: 60_000 });
    const outputs = (await Promise.all([cli(), cli(), cli()])).map((o) => o.stdout.trim());
    const made = outputs.filter((o) => o.startsWith('{'));
    expect(made).toHaveLength(1);
    expect(JSON.parse(made[0])).toMatchObject({ trigger: 'SCHEDULE', assigned: 3 });
    expect(outputs.filter((o) => o.startsWith('skipped'))).toHaveLength(2);
    expect(await db().select().from(assignmentRuns)).toHaveLength(1);
  });
});
