/**
 * npm run bench -- explain (or `npx tsx bench/explain.bench.ts`): analytics that explain (issue
 * 18; docs/domain.md, Analytics that explain) on PostgreSQL with the assignment bench's pool (bench/lib/assign-pool.ts:
 * 10,000 agents with random preferences and quotas, 1,000,000 leads, one engine run so that
 * leads are both assigned and NEW). Each endpoint is loaded right after GET /api/health at the
 * same connections, so every p99 sits beside its baseline from the same minute:
 *   - GET /api/agent/preferences/preview with a different agent's preferences on each request;
 *   - GET /api/admin/leads/{id}/explain on random leads (assigned and NEW);
 *   - GET /api/admin/leads/unfit-reasons and the speed-to-lead and sources answers, a few
 *     sequential calls each (no latency goal: screens that load once).
 * The pool's leads (two weeks) are moved to end an hour before the run, so the preview's 30 days
 * hold all of them. Goal: preview and explanation p99 < 100 ms.
 * Env: BENCH_EXPLAIN_LEADS (1000000), BENCH_EXPLAIN_AGENTS (10000), BENCH_EXPLAIN_S (15 s per
 * endpoint), BENCH_EXPLAIN_CONNECTIONS (8), BENCH_EXPLAIN_RUN (1: run the engine once first),
 * BENCH_KEEP=1 keeps the database; BENCH_EXPLAIN_PROFILE=1 profiles the server while the
 * explanation is loaded (a note says where its CPU went). Small: BENCH_EXPLAIN_LEADS=20000 BENCH_EXPLAIN_AGENTS=500
 * BENCH_EXPLAIN_S=5 npx tsx bench/explain.bench.ts
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { loadConfig } from '../src/server/config/env';
import { migrateDatabase, openDatabase } from '../src/server/db/client';
import { createLeadPorts } from '../src/server/events/handlers';
import { NO_JOB_QUEUE } from '../src/server/jobs/job-queue';
import { runAssignment } from '../src/server/modules/assignment/run-assignment.service';
import { generate, indexForSearch, load } from './lib/assign-pool';
import { loginAdmin, registerAgent } from './lib/client';
import {
  describeProfile,
  mainThreadProfile,
  monotonicUs,
  profileFlags,
  summarizeProfile,
} from './lib/cpu-profile';
import { dropDatabase, keepDatabases, query, recreateDatabase } from './lib/pg';
import { type BenchReport, figure, isMain, log, measure, runStandalone } from './lib/report';
import { type BenchServer, startServer, WORK_DIR } from './lib/server';

const DB_NAME = 'lf_bench_explain';
const LEADS = Number(process.env.BENCH_EXPLAIN_LEADS ?? 1_000_000);
const AGENTS = Number(process.env.BENCH_EXPLAIN_AGENTS ?? 10_000);
const SECONDS = Number(process.env.BENCH_EXPLAIN_S ?? 15);
const CONNECTIONS = Number(process.env.BENCH_EXPLAIN_CONNECTIONS ?? 8);
const RUN_ENGINE = process.env.BENCH_EXPLAIN_RUN !== '0';
const GOAL_MS = 100;
/** BENCH_EXPLAIN_PROFILE=1: the server runs with --cpu-prof (bench/.work/profiles/explain) */
const PROFILE = process.env.BENCH_EXPLAIN_PROFILE === '1';
const PROFILE_DIR = join(WORK_DIR, 'profiles', 'explain');

const fmt = (n: number) => n.toLocaleString('en-US');

interface Load {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
}

/** autocannon at CONNECTIONS for SECONDS, each request's path from `path()` (warmed 2 s first). */
async function loadPaths(server: BenchServer, path: () => string, cookie?: string): Promise<Load> {
  const run = (duration: number) =>
    autocannon({
      url: server.url,
      connections: CONNECTIONS,
      duration,
      headers: cookie ? { cookie } : undefined,
      requests: [{ setupRequest: (req) => ({ ...req, path: path() }) }],
    });
  await run(2);
  const r = await run(SECONDS);
  return {
    rps: Math.round(r.latency.totalCount / r.duration),
    p50: r.latency.p50,
    p99: r.latency.p99,
    non2xx: r.non2xx,
  };
}

/** Median of `times` sequential calls, ms. */
async function sequentialMs(server: BenchServer, path: string, cookie: string, times = 5) {
  const ms: number[] = [];
  for (let i = 0; i < times; i++) {
    const t = performance.now();
    const res = await fetch(`${server.url}${path}`, { headers: { cookie } });
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`${path}: ${res.status}`);
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  return Math.round(ms[Math.floor(ms.length / 2)]);
}

export function runExplainBench(): Promise<BenchReport> {
  const workload = `PostgreSQL with ${fmt(AGENTS)} agents (random preferences, quotas 5-50 a day) and ${fmt(LEADS)} leads${RUN_ENGINE ? ' after one engine run' : ''}; the real server; autocannon at ${CONNECTIONS} connections, ${SECONDS} s per endpoint, in the bench process on the same cores`;
  return measure('explain', workload, async (figures, notes) => {
    const url = await recreateDatabase(DB_NAME);
    let server: BenchServer | null = null;
    try {
      const migrated = await openDatabase({ databaseUrl: url, poolSize: 2 });
      await migrateDatabase(migrated);
      let t = performance.now();
      const pool = generate(LEADS, AGENTS);
      // the pool's two weeks of leads moved to end an hour ago: all of them inside the preview's
      // 30 days (its worst case: every lead of a category is read)
      let newest = 0;
      for (const us of pool.createdUs) newest = Math.max(newest, us);
      const shiftUs = (Date.now() - 3_600_000) * 1000 - newest;
      for (let i = 0; i < pool.createdUs.length; i++) pool.createdUs[i] += shiftUs;
      await load(pool, url);
      log(
        `loaded ${fmt(LEADS)} leads and ${fmt(AGENTS)} agents in ${Math.round(performance.now() - t)} ms`,
      );
      log(`indexed the pool for the admin's search in ${await indexForSearch(url)} ms`);
      if (RUN_ENGINE) {
        t = performance.now();
        const config = loadConfig({ ...process.env, DATABASE_URL: url } as NodeJS.ProcessEnv);
        const run = await runAssignment(migrated.db, config, {
          trigger: 'MANUAL',
          events: createLeadPorts(config, NO_JOB_QUEUE).events,
        });
        log(
          `engine run: ${run?.assigned ?? 0} assigned in ${Math.round(performance.now() - t)} ms`,
        );
        // what autovacuum does within a minute of a run: the run's writes to leads and to
        // lead_history analyzed (unanalyzed, the lead's last assignment is read by a backward
        // scan of the whole history: 23 ms a call at 270,000 rows, instead of 0.2 ms)
        await query(url, 'vacuum analyze leads');
        await query(url, 'vacuum analyze lead_history');
      }
      await migrated.close();

      await rm(PROFILE_DIR, { recursive: true, force: true });
      server = await startServer({
        database: { databaseUrl: url },
        nodeFlags: profileFlags(PROFILE, PROFILE_DIR),
      });
      const explainWindow = { fromUs: 0, toUs: 0 };
      const admin = await loginAdmin(server.url);
      // the previewing agent: subscribed to a package of the pool (MEDICARE, 10 a day)
      const agent = await registerAgent(
        server.url,
        'Bench Previewer',
        `previewer-${Date.now()}@bench.test`,
      );
      await query(
        url,
        `insert into subscriptions (user_id, package_id)
         select $1, id from packages where category = 'MEDICARE' and leads_per_day = 10`,
        [agent.userId],
      );
      const [{ max }] = await query<{ max: string }>(url, 'select max(id)::text as max from leads');
      const maxId = Number(max);
      const [{ n: assigned }] = await query<{ n: number }>(
        url,
        'select count(*)::int as n from leads where agent_id is not null',
      );
      notes.push(`${fmt(assigned)} of ${fmt(maxId)} leads assigned before the reads`);

      // every preview request: another pool agent's preferences
      let k = 0;
      const previewPath = () => {
        const a = pool.agents[k++ % pool.agents.length];
        const q = new URLSearchParams();
        if (a.states.length) q.set('states', a.states.join(','));
        if (a.cities.length) q.set('cities', a.cities.join(','));
        if (a.ageMin !== null) q.set('ageMin', String(a.ageMin));
        if (a.ageMax !== null) q.set('ageMax', String(a.ageMax));
        if (a.categories.length) q.set('categories', a.categories.join(','));
        const s = q.toString();
        return `/api/agent/preferences/preview${s ? `?${s}` : ''}`;
      };
      let seed = 12345;
      const randomLead = () => {
        seed = (seed * 1103515245 + 12345) % 2147483648;
        return 1 + (seed % maxId);
      };

      const parts: [string, () => string, string | undefined][] = [
        ['preferences preview', previewPath, agent.cookie],
        ['lead explanation', () => `/api/admin/leads/${randomLead()}/explain`, admin.cookie],
      ];
      for (const [label, path, cookie] of parts) {
        const health = await loadPaths(server, () => '/api/health');
        const fromUs = monotonicUs();
        const r = await loadPaths(server, path, cookie);
        if (label === 'lead explanation')
          Object.assign(explainWindow, { fromUs, toUs: monotonicUs() });
        const baseline = { label: 'GET /api/health p99, same run', value: health.p99 };
        figures.push(
          figure(`${label} p99`, r.p99, 'ms', {
            baseline,
            goal: { text: `< ${GOAL_MS} ms`, met: r.p99 < GOAL_MS },
            detail: `p50 ${r.p50} ms, ${fmt(r.rps)} req/s, non-2xx ${r.non2xx}; health p50 ${health.p50} ms, ${fmt(health.rps)} req/s`,
          }),
        );
        log(
          `${label}: p99 ${r.p99} ms (health p99 ${health.p99} ms), ${r.rps} req/s, non-2xx ${r.non2xx}`,
        );
        const errors = server.drainErrors();
        if (errors) notes.push(`${label}: server errors: ${errors}`);
      }

      for (const [label, path] of [
        ['NEW leads unfit by reason', '/api/admin/leads/unfit-reasons'],
        ['speed to lead, 30 days', '/api/admin/analytics/speed-to-lead'],
        ['sources, 30 days', '/api/admin/analytics/sources'],
      ] as const) {
        const ms = await sequentialMs(server, path, admin.cookie);
        figures.push(figure(`${label} (sequential median)`, ms, 'ms'));
        log(`${label}: ${ms} ms`);
      }
      await server.stop();
      server = null;
      if (PROFILE) {
        notes.push(
          `lead explanation, the server's CPU profile: ${describeProfile(summarizeProfile(mainThreadProfile(PROFILE_DIR), explainWindow, 14))}`,
        );
      }
    } finally {
      await server?.stop();
      if (!keepDatabases()) await dropDatabase(DB_NAME);
    }
  });
}

if (isMain(import.meta.url)) runStandalone(runExplainBench);
