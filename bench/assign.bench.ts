/**
 * npm run bench:assign — the assignment engine on PostgreSQL (see bench/README.md).
 *
 * For each case (100,000 leads x 1,000 agents, then 1,000,000 x 10,000) it loads a deterministic
 * pool (seeded PRNG, COPY) into its own database, then:
 *   - runs the engine once in a child process: wall time end to end (read, classes, solve,
 *     write) and peak RSS of that process;
 *   - runs a naive baseline in another child process on the same data: one SELECT of the
 *     candidate leads, then agent by agent, each takes the matching free leads it meets until its
 *     quota is full (no write);
 *   - computes the max-flow bound here, from the generated data, with its own class building and
 *     its own Dinic (nothing shared with the engine), and checks the engine's result in the
 *     database (quotas, one agent per lead, history rows).
 * Env: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test), BENCH_CASES
 * (e.g. "100000x1000"), BENCH_NATIONWIDE (share of agents without a state preference, default
 * 0.03), BENCH_KEEP=1 keeps the database.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { loadConfig } from '../src/server/config/env';
import { migrateDatabase, openDatabase, queryRows } from '../src/server/db/client';
import { createLeadPorts } from '../src/server/events/handlers';
import { NO_JOB_QUEUE } from '../src/server/jobs/job-queue';
import { createPgBossQueue } from '../src/server/jobs/pg-boss-queue';
import { runAssignment } from '../src/server/modules/assignment/run-assignment.service';
import { LEAD_CATEGORIES, type LeadCategory, STATE_CODES } from '../src/shared/domain';
import {
  type Agent,
  generate,
  leadCity,
  load,
  NATIONWIDE,
  normalize,
  POOL_SEED,
  type Pool,
} from './lib/assign-pool';
import { mulberry32 } from './lib/leads-data';

const BASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const DB_NAME = 'lf_bench_assign';

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}
const BENCH_URL = withDatabase(BASE_URL, DB_NAME);
/** BENCH_AGENCIES: agencies of 10 in the agencies variant (default: agents / 10; 0: no variant) */
const AGENCIES = process.env.BENCH_AGENCIES ? Number(process.env.BENCH_AGENCIES) : null;
/** BENCH_DELIVERED=0 skips the run with deliveries */
const DELIVERED = process.env.BENCH_DELIVERED !== '0';

// ---------------------------------------------------------------------------------------------
// The bound: independent classes (exact fit sets) and Dinic
// ---------------------------------------------------------------------------------------------

function fits(agent: Agent, state: string, city: string, age: number): boolean {
  if (agent.categories.length > 0 && !agent.categories.includes(agent.category)) return false;
  if (agent.states.length > 0 && !agent.states.includes(state)) return false;
  if (agent.cities.length > 0 && !agent.cities.some((c) => normalize(c) === city)) return false;
  if (agent.ageMin !== null && age < agent.ageMin) return false;
  if (agent.ageMax !== null && age > agent.ageMax) return false;
  return true;
}

interface BoundGraph {
  /** class sizes */
  size: number[];
  /** agent indexes per class */
  fitsOf: number[][];
}

function classGraph(pool: Pool): BoundGraph {
  // leads by exact (category, state, normalized city, age)
  const groups = new Map<string, { c: number; s: number; city: string; age: number; n: number }>();
  for (let i = 0; i < pool.age.length; i++) {
    const city = normalize(leadCity(pool, i));
    const key = `${pool.category[i]}|${pool.state[i]}|${city}|${pool.age[i]}`;
    const g = groups.get(key);
    if (g) g.n++;
    else groups.set(key, { c: pool.category[i], s: pool.state[i], city, age: pool.age[i], n: 1 });
  }
  // candidate agents per (category, state)
  const byCatState = new Map<string, number[]>();
  pool.agents.forEach((a, idx) => {
    const c = LEAD_CATEGORIES.indexOf(a.category);
    const states = a.states.length > 0 ? a.states : STATE_CODES;
    for (const s of states) {
      const key = `${c}|${s}`;
      const list = byCatState.get(key);
      if (list) list.push(idx);
      else byCatState.set(key, [idx]);
    }
  });
  const classes = new Map<string, { fits: number[]; n: number }>();
  for (const g of groups.values()) {
    const state = STATE_CODES[g.s];
    const list = (byCatState.get(`${g.c}|${state}`) ?? []).filter((idx) =>
      fits(pool.agents[idx], state, g.city, g.age),
    );
    if (list.length === 0) continue;
    const key = list.join(',');
    const cls = classes.get(key);
    if (cls) cls.n += g.n;
    else classes.set(key, { fits: list, n: g.n });
  }
  const graph: BoundGraph = { size: [], fitsOf: [] };
  for (const cls of classes.values()) {
    graph.size.push(cls.n);
    graph.fitsOf.push(cls.fits);
  }
  return graph;
}

/**
 * Max flow source -> class (size) -> agent (unbounded) -> sink (quota), Dinic. With agencies:
 * a member's arc (its quota) goes to its agency's node instead, and the agency's node to the
 * sink with the agency's daily cap (docs/domain.md, Agencies).
 */
function maxFlowBound(graph: BoundGraph, quotas: number[], agencies?: BenchAgencies): number {
  const k = graph.size.length;
  const n = quotas.length;
  const J = agencies?.caps.length ?? 0;
  const S = 0;
  const T = 1;
  const nodes = 2 + k + n + J;
  let m = 0;
  for (const f of graph.fitsOf) m += f.length;
  m += k + n + J;
  const to = new Int32Array(2 * m);
  const cap = new Float64Array(2 * m);
  const next = new Int32Array(2 * m);
  const head = new Int32Array(nodes).fill(-1);
  let e = 0;
  const add = (u: number, v: number, c: number) => {
    to[e] = v;
    cap[e] = c;
    next[e] = head[u];
    head[u] = e++;
    to[e] = u;
    cap[e] = 0;
    next[e] = head[v];
    head[v] = e++;
  };
  for (let c = 0; c < k; c++) {
    add(S, 2 + c, graph.size[c]);
    for (const a of graph.fitsOf[c]) add(2 + c, 2 + k + a, graph.size[c]);
  }
  for (let a = 0; a < n; a++) {
    const j = agencies?.agencyOf[a] ?? -1;
    if (quotas[a] > 0)
      add(2 + k + a, j >= 0 && agencies?.caps[j] != null ? 2 + k + n + j : T, quotas[a]);
  }
  for (let j = 0; j < J; j++) {
    const cap = agencies?.caps[j];
    if (cap != null) add(2 + k + n + j, T, cap);
  }

  const level = new Int32Array(nodes);
  const it = new Int32Array(nodes);
  const queue = new Int32Array(nodes);
  const stackNode = new Int32Array(nodes);
  const stackEdge = new Int32Array(nodes);
  let flow = 0;
  for (;;) {
    level.fill(-1);
    level[S] = 0;
    let qh = 0;
    let qt = 0;
    queue[qt++] = S;
    while (qh < qt) {
      const u = queue[qh++];
      for (let x = head[u]; x >= 0; x = next[x]) {
        if (cap[x] > 0 && level[to[x]] < 0) {
          level[to[x]] = level[u] + 1;
          queue[qt++] = to[x];
        }
      }
    }
    if (level[T] < 0) return flow;
    it.set(head);
    // iterative DFS for blocking flow
    for (;;) {
      let depth = 0;
      stackNode[0] = S;
      let found = false;
      while (depth >= 0) {
        const u = stackNode[depth];
        if (u === T) {
          found = true;
          break;
        }
        let x = it[u];
        while (x >= 0 && !(cap[x] > 0 && level[to[x]] === level[u] + 1)) x = next[x];
        it[u] = x;
        if (x < 0) {
          level[u] = -1;
          depth--;
          if (depth >= 0) it[stackNode[depth]] = next[it[stackNode[depth]]];
          continue;
        }
        stackEdge[depth] = x;
        stackNode[++depth] = to[x];
      }
      if (!found) break;
      let push = Number.POSITIVE_INFINITY;
      for (let d = 0; d < depth; d++) push = Math.min(push, cap[stackEdge[d]]);
      for (let d = 0; d < depth; d++) {
        cap[stackEdge[d]] -= push;
        cap[stackEdge[d] ^ 1] += push;
      }
      flow += push;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Agencies (issue 25): the same pool, its agents in agencies of 10 with a mix of daily caps
// ---------------------------------------------------------------------------------------------

interface BenchAgencies {
  /** agent index -> agency index */
  agencyOf: Int32Array;
  /** per agency: its daily cap, null for none */
  caps: (number | null)[];
  /** how many caps were drawn below the members' summed quotas (can bind) */
  binding: number;
}

const AGENCY_SIZE = 10;

/**
 * Agents shuffled (seeded) into agencies of AGENCY_SIZE, so an agency mixes categories, states
 * and quotas as a real downline does. Caps: 40% none, 35% at 50-80% of the members' summed
 * quotas (they bind), 25% at 100-150% (they do not).
 */
function makeAgencies(pool: Pool, count: number): BenchAgencies {
  const n = pool.agents.length;
  const rand = mulberry32(POOL_SEED ^ 0x25a9e ^ n);
  const order = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  const agencyOf = new Int32Array(n).fill(-1);
  const caps: (number | null)[] = [];
  let binding = 0;
  for (let j = 0; j < count && (j + 1) * AGENCY_SIZE <= n; j++) {
    let quotaSum = 0;
    for (let i = j * AGENCY_SIZE; i < (j + 1) * AGENCY_SIZE; i++) {
      agencyOf[order[i]] = j;
      quotaSum += pool.agents[order[i]].quota;
    }
    const x = rand();
    if (x < 0.4) caps.push(null);
    else if (x < 0.75) {
      caps.push(Math.round(quotaSum * (0.5 + 0.3 * rand())));
      binding++;
    } else caps.push(Math.round(quotaSum * (1 + 0.5 * rand())));
  }
  return { agencyOf, caps, binding };
}

/** Writes the agencies and their members (the first member of each is its OWNER). */
async function loadAgencies(pool: Pool, agencies: BenchAgencies): Promise<void> {
  const client = new pg.Client({ connectionString: BENCH_URL });
  await client.connect();
  try {
    // the pool's load emptied the table (and restarted its ids): agency j is id j + 1
    const names = agencies.caps.map((_, j) => `Agency ${j + 1}`);
    await client.query(
      `insert into agencies (name, daily_cap)
       select name, cap from unnest($1::text[], $2::int[]) as t(name, cap)`,
      [names, agencies.caps],
    );
    const users: number[] = [];
    const ids: number[] = [];
    const roles: string[] = [];
    const seen = new Set<number>();
    agencies.agencyOf.forEach((j, a) => {
      if (j < 0) return;
      users.push(pool.agents[a].id);
      ids.push(j + 1);
      roles.push(seen.has(j) ? 'AGENT' : 'OWNER');
      seen.add(j);
    });
    await client.query(
      `insert into agency_members (user_id, agency_id, role)
       select u, g, r::agency_role from unnest($1::int[], $2::int[], $3::text[]) as t(u, g, r)`,
      [users, ids, roles],
    );
  } finally {
    await client.end();
  }
}

/** Leads per agency today, counted from the members' leads (not from leads.agency_id). */
async function agencyCounts(): Promise<Map<number, number>> {
  const rows = await queryBench<{ agency_id: number; n: number }>(
    `select am.agency_id, count(*)::int as n from leads l
       join agency_members am on am.user_id = l.agent_id group by am.agency_id`,
  );
  return new Map(rows.map((r) => [r.agency_id, r.n]));
}

// ---------------------------------------------------------------------------------------------
// Child processes: the engine, and the naive baseline
// ---------------------------------------------------------------------------------------------

interface ChildReport {
  wallMs: number;
  /** CPU time of this process and of its PostgreSQL backend (null when not on this host) */
  nodeCpuMs: number;
  pgCpuMs: number | null;
  /** PostgreSQL CPU per step (engine only) */
  pgSteps?: Record<string, number>;
  steps: Record<string, number>;
  peakRssMb: number;
  startRssMb: number;
  assigned: number;
  agentsAssigned?: number;
  candidateLeads?: number;
  eligibleAgents?: number;
  /** after the delivered run's commit: until its fan-out job had recorded every delivery */
  fanOutMs?: number;
}

const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);

/** CPU milliseconds a local process has used (utime + stime, 100 ticks a second), or null. */
function processCpuMs(pid: number): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

function nodeCpuMs(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return Math.round((used.user + used.system) / 1000);
}

/**
 * The engine run. `deliver`: as every real run, with the deliveries of its leads enqueued in its
 * transaction (the bench gives every agent a CRM webhook and the server an SMTP_URL, so each
 * assigned lead has a webhook delivery and each agent an email); otherwise without them, the
 * figure the delivered run is compared with.
 */
async function engineChild(deliver: boolean): Promise<ChildReport> {
  const config = loadConfig({
    NODE_ENV: 'production',
    SCHEDULER: 'false',
    // never connected to: the run only enqueues
    SMTP_URL: 'smtp://127.0.0.1:2525',
  } as NodeJS.ProcessEnv);
  // one connection: the run's transaction, whose backend's CPU time is read from /proc
  const database = await openDatabase({ databaseUrl: BENCH_URL, poolSize: 1 });
  const [{ pid }] = await queryRows<{ pid: number }>(
    database.db,
    sql`select pg_backend_pid() as pid`,
  );
  const startRssMb = mb(process.memoryUsage().rss);
  const pgBefore = processCpuMs(pid);
  // each step's PostgreSQL CPU: the backend's counter read as the engine records the step
  const pgSteps: Record<string, number> = {};
  let pgMark = pgBefore;
  const timings = new Proxy<Record<string, number>>(
    {},
    {
      set(target, key: string, value: number) {
        const now = processCpuMs(pid);
        // steps repeat per category: their PostgreSQL time adds up, as their wall time does
        if (now !== null && pgMark !== null) pgSteps[key] = (pgSteps[key] ?? 0) + now - pgMark;
        pgMark = now;
        target[key] = value;
        return true;
      },
    },
  );
  // as in the server: with a queue, the run's transaction writes its fan-out job
  const queue = deliver
    ? createPgBossQueue(database, { error: () => undefined }, { sweepIntervalMs: 3_600_000 })
    : null;
  const ports = createLeadPorts(config, queue?.port ?? NO_JOB_QUEUE);
  await queue?.start({ db: database.db, ...ports });
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const run = await runAssignment(database.db, config, {
    trigger: 'MANUAL',
    now: new Date('2026-06-15T16:00:00Z'),
    timings,
    deliver,
    events: ports.events,
  });
  const wallMs = Math.round(performance.now() - t0);
  const cpuMs = nodeCpuMs(cpu0);
  const pgAfter = processCpuMs(pid);
  if (!run || run.error) throw new Error(`engine run failed: ${run?.error}`);
  // after the commit: the fan-out job records the run's deliveries and their batch jobs
  let fanOutMs: number | undefined;
  if (queue) {
    const key = `run:${run.id}`;
    // its own connection: the fan-out job holds the run's one pool connection while it works
    const watcher = new pg.Client({ connectionString: BENCH_URL });
    await watcher.connect();
    for (;;) {
      // run ids start again with each case's data: the newest job of the key is this run's
      const { rows } = await watcher.query<{ state: string }>(
        `select state::text as state from pgboss.job where singleton_key = $1
          order by created_on desc limit 1`,
        [key],
      );
      const state = rows[0]?.state;
      if (state === 'failed') throw new Error('the fan-out job failed');
      if (state === 'completed') break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await watcher.end();
    fanOutMs = Math.round(performance.now() - t0) - wallMs;
    await queue.stop();
  }
  await database.close();
  return {
    wallMs,
    nodeCpuMs: cpuMs,
    pgCpuMs: pgBefore === null || pgAfter === null ? null : pgAfter - pgBefore,
    steps: { ...timings },
    pgSteps,
    peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
    startRssMb,
    assigned: run.assigned,
    agentsAssigned: run.agentsAssigned,
    candidateLeads: run.candidateLeads,
    eligibleAgents: run.eligibleAgents,
    fanOutMs,
  };
}

/** Agent by agent (by id), each takes the free leads it matches, newest first per state list. */
async function baselineChild(): Promise<ChildReport> {
  const client = new pg.Client({ connectionString: BENCH_URL });
  await client.connect();
  const { rows: backend } = await client.query<{ pid: number }>('select pg_backend_pid() as pid');
  const pgBefore = processCpuMs(backend[0].pid);
  const startRssMb = mb(process.memoryUsage().rss);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const { rows: agentRows } = await client.query<{
    id: number;
    category: LeadCategory;
    quota: number;
    states: string[];
    cities: string[];
    age_min: number | null;
    age_max: number | null;
    categories: string[];
  }>(`select u.id, p.category::text as category, p.leads_per_day as quota,
             coalesce(pr.states, '{}')::text[] as states, coalesce(pr.cities, '{}')::text[] as cities,
             pr.age_min, pr.age_max, coalesce(pr.categories, '{}')::text[] as categories
        from users u join subscriptions s on s.user_id = u.id and s.status = 'ACTIVE'
        join packages p on p.id = s.package_id left join preferences pr on pr.user_id = u.id
       where u.role = 'AGENT' order by u.id`);
  const { rows: leadRows } = await client.query<{
    id: string;
    category: string;
    state: string;
    city: string;
    age: number;
  }>(`select id, category::text as category, state, city, age from leads
       where status = 'NEW' and agent_id is null order by created_at desc, id desc`);
  const pgAfter = processCpuMs(backend[0].pid);
  await client.end();
  const readMs = performance.now() - t0;

  const t1 = performance.now();
  const lists = new Map<string, number[]>(); // category|state -> lead indexes, newest first
  const cities = leadRows.map((l) => normalize(l.city));
  leadRows.forEach((l, i) => {
    const key = `${l.category}|${l.state}`;
    const list = lists.get(key);
    if (list) list.push(i);
    else lists.set(key, [i]);
  });
  const taken = new Uint8Array(leadRows.length);
  let assigned = 0;
  let agentsAssigned = 0;
  for (const a of agentRows) {
    if (a.categories.length > 0 && !a.categories.includes(a.category)) continue;
    const wanted = new Set(a.cities.map(normalize));
    let need = a.quota;
    const states = a.states.length > 0 ? a.states : STATE_CODES;
    for (const s of states) {
      const list = lists.get(`${a.category}|${s}`);
      if (!list) continue;
      for (let j = 0; j < list.length && need > 0; j++) {
        const i = list[j];
        if (taken[i]) continue;
        const l = leadRows[i];
        if (wanted.size > 0 && !wanted.has(cities[i])) continue;
        if (a.age_min !== null && l.age < a.age_min) continue;
        if (a.age_max !== null && l.age > a.age_max) continue;
        taken[i] = 1;
        need--;
      }
      if (need === 0) break;
    }
    const got = a.quota - need;
    assigned += got;
    if (got > 0) agentsAssigned++;
  }
  const solveMs = performance.now() - t1;
  return {
    wallMs: Math.round(performance.now() - t0),
    nodeCpuMs: nodeCpuMs(cpu0),
    pgCpuMs: pgBefore === null || pgAfter === null ? null : pgAfter - pgBefore,
    steps: { read: Math.round(readMs), solve: Math.round(solveMs) },
    peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
    startRssMb,
    assigned,
    agentsAssigned,
  };
}

type ChildMode = 'engine' | 'engine-undelivered' | 'baseline';

/** A child still running after this many seconds is stopped and the bench fails. */
const CHILD_TIMEOUT_S = Number(process.env.BENCH_CHILD_TIMEOUT_S ?? 1800);

function runChild(mode: ChildMode): Promise<ChildReport> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [...process.execArgv, fileURLToPath(import.meta.url), '--child', mode],
      { stdio: ['ignore', 'pipe', 'inherit'], env: process.env },
    );
    const timer = setTimeout(() => child.kill('SIGKILL'), CHILD_TIMEOUT_S * 1000);
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      if (code !== 0) {
        return reject(
          new Error(`${mode} child exited with ${code} (timeout ${CHILD_TIMEOUT_S} s)`),
        );
      }
      resolve(JSON.parse(out.trim().split('\n').pop()!));
    });
  });
}

// ---------------------------------------------------------------------------------------------
// Checks on the engine's result, and the report
// ---------------------------------------------------------------------------------------------

async function checkEngineResult(pool: Pool): Promise<{ assigned: number; overQuota: number }> {
  const client = new pg.Client({ connectionString: BENCH_URL });
  await client.connect();
  try {
    const { rows } = await client.query<{ agent_id: number; n: number }>(
      'select agent_id, count(*)::int as n from leads where agent_id is not null group by agent_id',
    );
    let overQuota = 0;
    let assigned = 0;
    for (const r of rows) {
      assigned += r.n;
      if (r.n > pool.agents[r.agent_id - 1].quota) overQuota++;
    }
    const { rows: hist } = await client.query<{ n: number; bad: number }>(
      `select count(*)::int as n,
              count(*) filter (where h.agent_id is distinct from l.agent_id)::int as bad
         from lead_history h join leads l on l.id = h.lead_id where h.kind = 'AUTO_ASSIGNED'`,
    );
    if (hist[0].n !== assigned || hist[0].bad !== 0)
      throw new Error(`history mismatch: ${JSON.stringify(hist[0])} vs ${assigned}`);
    return { assigned, overQuota };
  } finally {
    await client.end();
  }
}

async function queryBench<T extends pg.QueryResultRow>(text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: BENCH_URL });
  await client.connect();
  try {
    return (await client.query<T>(text)).rows;
  } finally {
    await client.end();
  }
}

/** Every agent has a CRM webhook (never called: the run only enqueues) and email on. */
async function giveEveryAgentAWebhook(): Promise<void> {
  await queryBench(
    `insert into delivery_settings (user_id, webhook_url, webhook_enabled, webhook_secret)
     select id, 'http://127.0.0.1:9/leads', true,
            'whsec_' || encode(decode(md5(id::text) || md5(random()::text), 'hex'), 'base64')
       from users where role = 'AGENT'`,
  );
}

async function resetDatabase(): Promise<void> {
  const admin = new pg.Client({ connectionString: BASE_URL });
  await admin.connect();
  await admin.query(`drop database if exists ${DB_NAME} with (force)`);
  await admin.query(`create database ${DB_NAME}`);
  await admin.end();
  const database = await openDatabase({ databaseUrl: BENCH_URL, poolSize: 1 });
  await migrateDatabase(database);
  await database.close();
}

async function dropDatabase(): Promise<void> {
  const admin = new pg.Client({ connectionString: BASE_URL });
  await admin.connect();
  await admin.query(`drop database if exists ${DB_NAME} with (force)`);
  await admin.end();
}

const fmt = (n: number) => n.toLocaleString('en-US');
const secs = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

async function benchCase(leadCount: number, agentCount: number): Promise<void> {
  console.log(
    `\n## ${fmt(leadCount)} leads x ${fmt(agentCount)} agents (${NATIONWIDE * 100}% of agents without a state preference)`,
  );
  let t = performance.now();
  const pool = generate(leadCount, agentCount);
  await load(pool, BENCH_URL);
  console.log(`loaded in ${secs(performance.now() - t)} (generate + COPY + vacuum analyze)`);

  t = performance.now();
  const graph = classGraph(pool);
  const quotas = pool.agents.map((a) => a.quota);
  const bound = maxFlowBound(graph, quotas);
  const totalQuota = quotas.reduce((a, b) => a + b, 0);
  const edges = graph.fitsOf.reduce((s, f) => s + f.length, 0);
  console.log(
    `max-flow bound: ${fmt(bound)} (total quota ${fmt(totalQuota)}; ${fmt(graph.size.length)} exact classes, ${fmt(edges)} edges; ${secs(performance.now() - t)})`,
  );

  const loadBefore = loadavg()[0].toFixed(1);
  const baseline = await runChild('baseline');
  const undelivered = await runChild('engine-undelivered');
  if (undelivered.assigned !== bound)
    throw new Error(`engine ${undelivered.assigned} != bound ${bound}`);
  let engine: ChildReport | null = null;
  let queued = { deliveries: 0, notifications: 0 };
  let check = { assigned: 0, overQuota: 0 };
  if (DELIVERED) {
    t = performance.now();
    await load(pool, BENCH_URL);
    await giveEveryAgentAWebhook();
    console.log(`reloaded in ${secs(performance.now() - t)} for the delivered run`);
    engine = await runChild('engine');
    check = await checkEngineResult(pool);
    [queued] = await queryBench<{ deliveries: number; notifications: number }>(
      `select (select count(*)::int from deliveries) as deliveries,
              (select count(*)::int from notifications) as notifications`,
    );
    if (check.assigned !== engine.assigned)
      throw new Error('engine count differs from the database');
  }

  // The agencies variant: the same pool and leads, the agents in agencies with daily caps; its
  // own bound (agency nodes in the network), and the engine again without deliveries, to be
  // compared with the run without agencies above.
  let withAgencies: { report: ChildReport; bound: number; agencies: BenchAgencies } | null = null;
  const agencyCount = AGENCIES ?? Math.floor(agentCount / AGENCY_SIZE);
  if (agencyCount > 0) {
    t = performance.now();
    const agencies = makeAgencies(pool, agencyCount);
    const agencyBound = maxFlowBound(graph, quotas, agencies);
    console.log(
      `agencies: ${fmt(agencies.caps.length)} of ${AGENCY_SIZE} (${agencies.caps.filter((c) => c === null).length} without a cap, ${agencies.binding} capped at 50-80% of their members' quotas, the rest at 100-150%); max-flow bound with the caps ${fmt(agencyBound)} (${secs(performance.now() - t)})`,
    );
    t = performance.now();
    await load(pool, BENCH_URL);
    await loadAgencies(pool, agencies);
    console.log(`reloaded in ${secs(performance.now() - t)} for the agencies run`);
    const report = await runChild('engine-undelivered');
    const checked = await checkEngineResult(pool);
    if (checked.assigned !== report.assigned)
      throw new Error('agencies run: count differs from the database');
    if (checked.overQuota !== 0)
      throw new Error(`agencies run: ${checked.overQuota} agents over quota`);
    if (report.assigned !== agencyBound) {
      throw new Error(
        `agencies run: ${report.assigned} assigned, the bound is ${agencyBound}: ${JSON.stringify(report)}`,
      );
    }
    const counts = await agencyCounts();
    agencies.caps.forEach((cap, j) => {
      const got = counts.get(j + 1) ?? 0;
      if (cap !== null && got > cap) throw new Error(`agency ${j + 1}: ${got} leads, cap ${cap}`);
    });
    const full = agencies.caps.filter((cap, j) => cap !== null && counts.get(j + 1) === cap).length;
    console.log(`agencies run: at the bound, no agency over its cap (${full} at it)`);
    withAgencies = { report, bound: agencyBound, agencies };
  }

  const row = (name: string, r: ChildReport) =>
    `| ${name} | ${fmt(r.assigned)} | ${((100 * r.assigned) / bound).toFixed(2)} % | ${secs(r.wallMs)} | ${Object.entries(
      r.steps,
    )
      .map(([k, v]) => `${k} ${secs(v)}${r.pgSteps?.[k] ? ` (PG ${secs(r.pgSteps[k])})` : ''}`)
      .join(
        ', ',
      )} | ${secs(r.nodeCpuMs)} + ${r.pgCpuMs === null ? '?' : secs(r.pgCpuMs)} | ${fmt(r.peakRssMb)} MB |`;
  console.log('');
  console.log(`load average before the runs: ${loadBefore}, after: ${loadavg()[0].toFixed(1)}`);
  console.log('');
  console.log(
    '| | assigned | of the bound | wall time | steps (wall) | CPU node + PostgreSQL | peak RSS |',
  );
  console.log('|---|---|---|---|---|---|---|');
  if (engine) console.log(row('engine, deliveries enqueued', engine));
  console.log(row('engine without deliveries', undelivered));
  if (withAgencies) {
    const r = withAgencies.report;
    console.log(
      row('engine without deliveries, with agencies', r).replace(
        /\| [\d.]+ % \|/,
        `| ${((100 * r.assigned) / withAgencies.bound).toFixed(2)} % of ${fmt(withAgencies.bound)} |`,
      ),
    );
  }
  console.log(row('naive baseline', baseline));
  console.log('');
  if (engine) {
    console.log(
      `engine: ${fmt(engine.eligibleAgents ?? 0)} eligible agents, ${fmt(engine.candidateLeads ?? 0)} candidate leads, ${fmt(engine.agentsAssigned ?? 0)} agents served; agents over quota: ${check.overQuota}; history rows match`,
    );
    console.log(
      `deliveries: the run's transaction wrote ${fmt(queued.notifications)} notifications and its fan-out job; the job recorded ${fmt(queued.deliveries)} delivery rows (an email and a webhook per lead; the email job sends one digest per agent) ${secs(engine.fanOutMs ?? 0)} after the commit; wall time with delivery / without ${(engine.wallMs / undelivered.wallMs).toFixed(2)}x (goal <= 1.2x)`,
    );
  }
  if (withAgencies) {
    const r = withAgencies.report;
    console.log(
      `agencies: ${fmt(r.assigned)} assigned = the bound with the caps (${fmt(bound)} without agencies); wall time with agencies / without ${(r.wallMs / undelivered.wallMs).toFixed(2)}x, solve step ${secs(r.steps.solve ?? 0)} / ${secs(undelivered.steps.solve ?? 0)} (goal <= 1.2x)`,
    );
  }
  console.log(
    `baseline: ${fmt(baseline.agentsAssigned ?? 0)} agents served; engine/baseline assigned ${(undelivered.assigned / baseline.assigned).toFixed(4)}x, ${fmt(undelivered.assigned - baseline.assigned)} more leads; wall time ratio ${(undelivered.wallMs / baseline.wallMs).toFixed(2)}x`,
  );
}

async function main(): Promise<void> {
  const childAt = process.argv.indexOf('--child');
  if (childAt >= 0) {
    const mode = process.argv[childAt + 1];
    const report =
      mode === 'baseline' ? await baselineChild() : await engineChild(mode === 'engine');
    console.log(JSON.stringify(report));
    return;
  }
  const cases = (process.env.BENCH_CASES ?? '100000x1000,1000000x10000')
    .split(',')
    .map((c) => c.split('x').map(Number) as [number, number]);
  console.log(`# assignment engine benchmark (${BENCH_URL.replace(/\/\/[^@]*@/, '//')})`);
  await resetDatabase();
  try {
    for (const [leads, agents] of cases) await benchCase(leads, agents);
  } finally {
    if (!process.env.BENCH_KEEP) await dropDatabase();
  }
}

await main();
