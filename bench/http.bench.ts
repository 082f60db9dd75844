/**
 * HTTP bench: autocannon on loopback (BENCH_CONNECTIONS=50 connections, BENCH_DURATION=10 s per
 * endpoint, after a 2 s warm-up) against the real server on PostgreSQL holding BENCH_HTTP_LEADS
 * (default 1,000,000) leads, 1,000 of them held by one subscribed agent; the baseline is a run of
 * GET /api/health (the cheapest route that still reaches the database) just before each endpoint.
 *
 * For each endpoint it also records what explains the latency: the unloaded latency of one
 * request at a time, the server's and the database backends' CPU per request, and what the
 * database was running (pg_stat_activity samples). The plans (EXPLAIN ANALYZE via auto_explain) of
 * the statements the server really runs for each endpoint go to bench/.work/http-explain.txt;
 * then, unless BENCH_PROFILE=0, a CPU profile of the server under each load (bench/.work/profiles).
 *
 * Env: BENCH_HTTP_LEADS, BENCH_DURATION, BENCH_CONNECTIONS, BENCH_PG_URL, BENCH_KEEP=1.
 */
import { writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { api, apiOk, loginAdmin, registerAgent } from './lib/client';
import {
  describeProfile,
  mainThreadProfile,
  monotonicUs,
  summarizeProfile,
} from './lib/cpu-profile';
import {
  databaseUrl,
  dropDatabase,
  PgActivitySampler,
  query,
  recreateDatabase,
  serverSettings,
  waitDatabaseQuiet,
} from './lib/pg';
import { describePlan, PlanCapture, planLogProblem, withAutoExplain } from './lib/plans';
import { cpuSeconds, loadAverage, waitProcessQuiet } from './lib/proc';
import { type BenchReport, figure, isMain, log, measure, runStandalone } from './lib/report';
import { seedLeads } from './lib/seed-leads';
import { type BenchServer, startServer, WORK_DIR } from './lib/server';

const LEADS = Number(process.env.BENCH_HTTP_LEADS ?? 1_000_000);
const AGENT_LEADS = 1000;
const OTHER_AGENTS = 49;
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const DB_NAME = 'lf_bench_http';
const TIME_ZONE = 'America/New_York';

interface Target {
  label: string;
  path: string;
  who: 'none' | 'agent' | 'admin';
  goalMs?: number;
}

// biome-ignore format: one target a line
const TARGETS: Target[] = [
  { label: 'GET /api/agent/leads?limit=50 (My Leads page; agent with 1,000 leads)', path: '/api/agent/leads?limit=50', who: 'agent', goalMs: 50 },
  { label: 'GET /api/agent/leads (all 1,000 at once, the spec call without paging)', path: '/api/agent/leads', who: 'agent' },
  { label: 'GET /api/admin/leads?limit=50', path: '/api/admin/leads?limit=50', who: 'admin', goalMs: 50 },
  { label: 'GET /api/admin/leads?q=smith&limit=50', path: '/api/admin/leads?q=smith&limit=50', who: 'admin', goalMs: 50 },
  { label: 'GET /api/admin/stats', path: '/api/admin/stats', who: 'admin', goalMs: 200 },
  { label: 'GET /api/admin/analytics', path: '/api/admin/analytics', who: 'admin', goalMs: 200 },
];

interface Run {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  /** non-2xx answers by status code, e.g. "500x14" */
  codes: string;
  errors: number;
  timeouts: number;
  bytesPerReq: number;
  unloadedMs: number;
  serverCpuMsPerReq: number;
  dbCpuMsPerReq: number;
  load: number;
  profile: string;
  /** what the server logged as errors during the run */
  serverErrors: string;
}

export function runHttpBench(): Promise<BenchReport> {
  const workload = `autocannon ${CONNECTIONS} connections x ${DURATION} s per endpoint (after a 2 s warm-up), loopback, against the server on PostgreSQL with ${LEADS.toLocaleString('en-US')} leads (a year of imports; ${AGENT_LEADS} held by the bench agent, ~55% of the rest by ${OTHER_AGENTS} other agents, the rest NEW) and their history rows; autocannon runs in the bench process on the same 2 cores`;
  return measure('http', workload, async (figures, notes) => {
    const url = await recreateDatabase(DB_NAME);
    let server: BenchServer | null = null;
    try {
      notes.push(`PostgreSQL: ${await serverSettings(url)}`);
      server = await startServer({ database: { databaseUrl: url } });
      let base = server.url;
      const admin = await loginAdmin(base);
      const pkg = await apiOk<{ id: number }>(
        base,
        '/api/admin/packages',
        {
          cookie: admin.cookie,
          body: {
            name: 'Bench Medicare 50',
            slug: 'bench-medicare-50',
            priceMonthlyCents: 19900,
            leadsPerDay: 50,
            commissionPct: 10,
            category: 'MEDICARE',
            enrollmentOnly: false,
            services: { crm: true, callRecording: true, followUpMessage: false },
            active: true,
          },
        },
        201,
      );
      const agent = await registerAgent(base, 'Bench Agent', 'bench-agent@bench.test');
      await apiOk(base, '/api/agent/subscription', {
        cookie: agent.cookie,
        body: { packageId: pkg.id },
      });
      const others = await query<{ id: number }>(
        url,
        `insert into users (name, email, password_hash, role)
         select 'Other Agent ' || g, 'other-' || g || '@bench.test', 'not-a-hash', 'AGENT'
         from generate_series(1, ${OTHER_AGENTS}) g returning id`,
      );
      await query(
        url,
        `insert into subscriptions (user_id, package_id) select id, $1 from users
         where email like 'other-%@bench.test'`,
        [pkg.id],
      );

      log(`http: loading ${LEADS} leads by COPY`);
      const seeded = await seedLeads(url, {
        leads: LEADS,
        agentId: agent.userId,
        agentLeads: AGENT_LEADS,
        otherAgentIds: others.map((o) => o.id),
        adminId: admin.userId,
        timeZone: TIME_ZONE,
      });
      notes.push(
        `data: COPY of ${LEADS} leads ${(seeded.copyMs / 1000).toFixed(1)} s, history rows ${(seeded.historyMs / 1000).toFixed(1)} s, indexes ${(seeded.indexMs / 1000).toFixed(1)} s; ${seeded.assigned} assigned, ${seeded.converted} converted`,
      );

      // A restart lets the server pick up work it defers after large inserts (it does so at
      // start); measure only once it and the database are quiet, then VACUUM ANALYZE.
      await server.stop();
      server = await startServer({ database: { databaseUrl: url } });
      base = server.url;
      const settledMs = await waitDatabaseQuiet(DB_NAME);
      const serverQuietMs = await waitProcessQuiet(server.pid);
      const started = performance.now();
      await query(url, 'vacuum analyze');
      notes.push(
        `after a restart the server and database were busy ${((settledMs + serverQuietMs) / 1000).toFixed(1)} s more (deferred work), then VACUUM ANALYZE ${((performance.now() - started) / 1000).toFixed(1)} s`,
      );

      // What a caller sees must match the data, or the speed means nothing.
      const stats = await apiOk<{ totalLeads: number }>(base, '/api/admin/stats', {
        cookie: admin.cookie,
      });
      if (stats.totalLeads !== LEADS) throw new Error(`stats say ${stats.totalLeads} leads`);
      const own = await apiOk<unknown[]>(base, '/api/agent/leads', { cookie: agent.cookie });
      if (own.length !== seeded.agentLeads) throw new Error(`agent sees ${own.length} leads`);
      const page = await api<unknown[]>(base, '/api/admin/leads?limit=50', {
        cookie: admin.cookie,
      });
      if (page.body.length !== Math.min(50, LEADS)) throw new Error('admin page is not 50 leads');
      const smith = await api<unknown[]>(base, '/api/admin/leads?q=smith', {
        cookie: admin.cookie,
      });
      const [{ n: smithCount }] = await query<{ n: number }>(
        url,
        `select count(*)::int as n from leads where first_name ilike '%smith%' or last_name ilike '%smith%' or phone ilike '%smith%' or email ilike '%smith%'`,
      );
      notes.push(
        `checked: stats.totalLeads=${stats.totalLeads}, agent leads=${own.length}, admin page=${page.body.length} of X-Total-Count ${page.headers.get('x-total-count')}, q=smith page=${smith.body.length} of X-Total-Count ${smith.headers.get('x-total-count')} (the database holds ${smithCount} matches)`,
      );

      const cookieOf = (who: Target['who']) =>
        who === 'agent' ? agent.cookie : who === 'admin' ? admin.cookie : undefined;

      // A server that has just started is slower for a while (V8 compiles the request path,
      // the new database sessions fill their caches and prepare their statements): the first
      // endpoint measured paid for it (its health run too: 2,090 req/s against 2,500-2,900 for
      // the later ones). The goals are about a running server, so every endpoint is loaded for
      // 2 s once, in turn, before any is measured.
      log('http: warm-up round (2 s of load on each endpoint)');
      for (const t of [{ path: '/api/health', who: 'none' as const }, ...TARGETS]) {
        const cookie = cookieOf(t.who);
        await autocannon({
          url: `${base}${t.path}`,
          connections: CONNECTIONS,
          duration: 2,
          headers: cookie ? { cookie } : undefined,
        });
      }

      // The machine is shared: each endpoint is measured right after its own GET /api/health
      // run, so a figure and its baseline see the same load.
      const healthRuns: Run[] = [];
      for (const t of TARGETS) {
        log(`http: GET /api/health, then ${t.label}`);
        const health = await loadRun(server, '/api/health', undefined);
        healthRuns.push(health);
        const run = await loadRun(server, t.path, cookieOf(t.who));
        figures.push(
          figure(`${t.label}: req/s`, run.rps, 'req/s', {
            baseline: { label: 'GET /api/health just before', value: health.rps },
            detail: `non-2xx ${run.non2xx}${run.codes ? ` (${run.codes})` : ''}, errors/timeouts ${run.errors + run.timeouts}, ${Math.round(run.bytesPerReq / 1024)} KB/answer`,
          }),
          figure(`${t.label}: p99`, run.p99, 'ms', {
            baseline: { label: 'GET /api/health p99 just before', value: health.p99 },
            goal: t.goalMs
              ? { text: `p99 < ${t.goalMs} ms`, met: run.p99 < t.goalMs && run.non2xx === 0 }
              : undefined,
            detail: `p50 ${run.p50} ms; one at a time ${run.unloadedMs} ms`,
          }),
        );
        notes.push(
          `${t.label}: server CPU ${run.serverCpuMsPerReq} ms/req, DB backends CPU ${run.dbCpuMsPerReq} ms/req, load ${run.load}; DB: ${run.profile}${run.serverErrors ? `; server errors: ${run.serverErrors}` : ''}`,
        );
      }
      const best = healthRuns.reduce((a, b) => (b.rps > a.rps ? b : a));
      figures.unshift(
        figure('GET /api/health: req/s (best of its runs)', best.rps, 'req/s', {
          detail: `p50 ${best.p50} ms, p99 ${best.p99} ms; all runs ${healthRuns.map((h) => `${h.rps} req/s p99 ${h.p99} ms`).join(', ')}`,
        }),
      );
      notes.unshift(
        `GET /api/health: server CPU ${best.serverCpuMsPerReq} ms/req, DB backends CPU ${best.dbCpuMsPerReq} ms/req, one at a time ${best.unloadedMs} ms`,
      );

      log('http: query plans (auto_explain)');
      await server.stop();
      server = null;
      const plans = await capturePlans(url, cookieOf);
      writeFileSync(join(WORK_DIR, 'http-explain.txt'), plans.text);
      notes.push(...plans.summary);

      if (process.env.BENCH_PROFILE !== '0') {
        for (const t of TARGETS) {
          log(`http: CPU profile of the server under ${t.label}`);
          const summary = await profileTarget(url, t.path, cookieOf(t.who));
          notes.push(`server CPU profile under ${t.label}: ${summary}`);
        }
      }
    } finally {
      await server?.stop();
      await dropDatabase(DB_NAME);
    }
  });
}

async function loadRun(
  server: BenchServer,
  path: string,
  cookie: string | undefined,
): Promise<Run> {
  const headers = cookie ? { cookie } : undefined;
  const url = `${server.url}${path}`;
  // one request at a time: the cost of the request itself, without queueing
  const times: number[] = [];
  for (let i = 0; i < 9; i++) {
    const started = performance.now();
    const res = await fetch(url, { headers });
    await res.arrayBuffer();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const unloadedMs = Math.round(times[Math.floor(times.length / 2)] * 10) / 10;

  await autocannon({ url, connections: CONNECTIONS, duration: 2, headers });
  const activity = await new PgActivitySampler(
    databaseUrl('postgres'),
    DB_NAME,
    100,
    cpuSeconds,
  ).start();
  server.drainErrors(); // only the measured run's errors count
  const cpuBefore = cpuSeconds(server.pid);
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION, headers });
  const serverCpu = cpuSeconds(server.pid) - cpuBefore;
  const serverErrors = server.drainErrors();
  const profile = await activity.stop();
  const done = result.latency.totalCount;
  return {
    rps: Math.round(done / result.duration),
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    codes: Object.entries(result.statusCodeStats)
      .filter(([code]) => !code.startsWith('2'))
      .map(([code, s]) => `${code}x${s.count}`)
      .join(', '),
    errors: result.errors,
    timeouts: result.timeouts,
    bytesPerReq: done ? result.throughput.total / done : 0,
    unloadedMs,
    serverCpuMsPerReq: done ? Math.round((serverCpu / done) * 1e4) / 10 : 0,
    dbCpuMsPerReq: done ? Math.round((profile.backendCpuS / done) * 1e4) / 10 : 0,
    load: loadAverage(),
    serverErrors,
    profile: `busy ${Math.round(profile.busyShare * 100)}% of samples, ${profile.meanActive} statements running on average; top: ${profile.top
      .slice(0, 3)
      .map((t) => `${Math.round(t.share * 100)}% [${t.waits}] ${t.query.slice(0, 110)}`)
      .join(' | ')}`,
  };
}

/**
 * A fresh server (same database: the sessions still hold) with --cpu-prof, 5 s of the same load,
 * then where its CPU went. Run after the measurements: the profiler slows the server down.
 */
async function profileTarget(url: string, path: string, cookie: string | undefined) {
  const dir = join(
    WORK_DIR,
    'profiles',
    `http-${path.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '')}`,
  );
  await rm(dir, { recursive: true, force: true });
  const server = await startServer({
    database: { databaseUrl: url },
    nodeFlags: ['--cpu-prof', '--cpu-prof-dir', dir],
  });
  const window = { fromUs: 0, toUs: 0 };
  try {
    const headers = cookie ? { cookie } : undefined;
    window.fromUs = monotonicUs();
    await autocannon({
      url: `${server.url}${path}`,
      connections: CONNECTIONS,
      duration: 5,
      headers,
    });
    window.toUs = monotonicUs();
  } finally {
    await server.stop();
  }
  return describeProfile(summarizeProfile(mainThreadProfile(dir), window));
}

/**
 * Two requests to each endpoint, one at a time, against a server whose database sessions run
 * auto_explain: the plans of the statements it really runs (bench/.work/http-explain.txt).
 */
const WARM_UP = 'warm-up of';

async function capturePlans(
  url: string,
  cookieOf: (who: Target['who']) => string | undefined,
): Promise<{ text: string; summary: string[] }> {
  const problem = planLogProblem();
  if (problem) return { text: '', summary: [`query plans not captured: ${problem}`] };
  const server = await startServer({ database: { databaseUrl: withAutoExplain(url) } });
  const capture = new PlanCapture(url, DB_NAME);
  try {
    await capture.start();
    for (const t of TARGETS) {
      const headers = cookieOf(t.who) ? { cookie: cookieOf(t.who) as string } : undefined;
      await capture.mark(`${WARM_UP} ${t.label}`);
      await (await fetch(`${server.url}${t.path}`, { headers })).arrayBuffer();
      await capture.mark(t.label);
      await (await fetch(`${server.url}${t.path}`, { headers })).arrayBuffer();
    }
  } finally {
    await server.stop();
  }
  const plans = await capture.stop();
  let text = '';
  const summary: string[] = [];
  for (const [label, entries] of plans) {
    if (label.startsWith(WARM_UP)) continue;
    text += `==== ${label}\n\n`;
    for (const e of entries) text += `-- ${e.ms} ms\n${e.query}\n${e.plan.join('\n')}\n\n`;
    const slow = entries.filter((e) => !/from "sessions"/.test(e.query) && e.ms >= 1);
    summary.push(
      `plans under ${label}: ${
        slow
          .map((e) => `[${e.query.replace(/\s+/g, ' ').slice(0, 70)}…] ${describePlan(e)}`)
          .join('; ') || 'every statement under 1 ms'
      }`,
    );
  }
  return { text, summary };
}

if (isMain(import.meta.url)) runStandalone(runHttpBench);
