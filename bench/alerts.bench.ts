/**
 * npm run bench -- alerts: the alerts to the agent's phone (docs/domain.md, Alerts to the agent's
 * phone) at a steady intake rate, on PostgreSQL, modelled on part 2 of intake.bench.ts. Every
 * agent has an ACTIVE subscription to a MEDICARE package with room for the run, a push device at
 * a local push service that decrypts each message (test/support/push-service.ts: RFC 8291 and the
 * VAPID JWT checked), SMS alerts on with a verified phone (the Twilio stand-in,
 * test/support/twilio-stand-in.ts, through the real `twilio` SDK), and a CRM webhook to a local
 * HTTP receiver; quiet hours off, a schedule open all day every day. The rows are written by SQL;
 * the leads and their alerts go through the real server (a child process): POST /api/v1/leads,
 * each lead made to fit some agent so that it is ASSIGNED in its own request, then the server's
 * `lead-push`, `lead-sms-alert` and `lead-delivery` jobs.
 * Measured, from the intake's answer reaching the client: (a) the webhook's arrival, (b) the
 * push's arrival at the push service (matched by the lead id in the decrypted url), (c) the SMS's
 * arrival at the Twilio stand-in (matched by the lead link in its body); p50, p99 and how many
 * never arrived, beside GET /api/health's unloaded round trip in the same run.
 * Goal (the issue): p99 < 3 s for the push and for the SMS at a steady 50 leads/s.
 * Env: BENCH_ALERTS_AGENTS (1000), BENCH_ALERTS_RATE (50 leads/s), BENCH_ALERTS_S (20),
 * BENCH_KEEP=1 keeps the database.
 */

import { migrateDatabase, openDatabase } from '../src/server/db/client';
import { STATE_CODES } from '../src/shared/domain';
import { TestPushService } from '../test/support/push-service';
import { TwilioStandIn } from '../test/support/twilio-stand-in';
import {
  percentile,
  sourceWithKeys,
  unloadedHealthMs,
  waitFor,
  webhookReceiver,
} from './intake.bench';
import {
  type Agent,
  CITIES_PER_STATE,
  cityName,
  generate,
  indexForSearch,
  load,
} from './lib/assign-pool';
import { dropDatabase, PgActivitySampler, query, recreateDatabase } from './lib/pg';
import { cpuSeconds } from './lib/proc';
import { type BenchReport, figure, isMain, log, measure, runStandalone } from './lib/report';
import { type BenchServer, startServer } from './lib/server';

const DB_NAME = 'lf_bench_alerts';
const AGENTS = Number(process.env.BENCH_ALERTS_AGENTS ?? 1_000);
const RATE = Number(process.env.BENCH_ALERTS_RATE ?? 50);
const SECONDS = Number(process.env.BENCH_ALERTS_S ?? 20);
/** a short run first, not measured: the server warmed up and the whole path checked */
const WARMUP_S = 2;
/** how long the alerts of the last lead may take before they count as never arrived */
const ARRIVAL_TIMEOUT_MS = 60_000;
/** each key has its own rate limit (50 requests/s): a few keys keep the bench under it */
const KEYS = Math.max(4, Math.ceil(RATE / 10));
/** the agents' schedules and the business's: the run's leads are all today's there */
const TIME_ZONE = 'America/New_York';

const fmt = (n: number) => n.toLocaleString('en-US');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A MEDICARE lead that fits this agent (its first state, one of its cities, an age in its range;
 * licences are unrestricted); the pick may still give it to another agent that fits it too.
 */
function leadFor(agent: Agent, n: number) {
  const state = agent.states[0] ?? STATE_CODES[n % STATE_CODES.length];
  const city =
    agent.cities.length > 0
      ? agent.cities[n % agent.cities.length].trim().replace(/\s+/g, ' ')
      : cityName(STATE_CODES.indexOf(state as never), n % CITIES_PER_STATE);
  const age = Math.min(agent.ageMax ?? 95, Math.max(agent.ageMin ?? 65, 65 + (n % 31)));
  return {
    firstName: `A${n}x`,
    lastName: 'Bench',
    // a valid number of its own (Lead quality refuses an invalid phone and a repeated one)
    phone: `212${200 + (Math.floor(n / 10_000) % 800)}${String(n % 10_000).padStart(4, '0')}`,
    city,
    state,
    age,
    category: 'MEDICARE',
  };
}

const leadIdOf = (url: unknown) => {
  const m = typeof url === 'string' ? /[?&]lead=(\d+)\b/.exec(url) : null;
  return m ? Number(m[1]) : null;
};

/** The push service, with the first arrival of each lead's push (by the decrypted url). */
async function pushService() {
  const service = new TestPushService();
  await service.start();
  const arrivals = new Map<number, number>();
  let seen = 0;
  /** reads the pushes received since the last call */
  const update = () => {
    for (; seen < service.received.length; seen++) {
      const r = service.received[seen];
      const leadId = leadIdOf((r.payload as { url?: unknown } | null)?.url);
      if (leadId !== null && !r.decryptError && !r.vapidError && !arrivals.has(leadId))
        arrivals.set(leadId, r.at);
    }
    return arrivals;
  };
  return { service, arrivals: update };
}

/** The Twilio stand-in, with the first arrival of each lead's SMS (by the link in its body). */
async function twilioService() {
  const standIn = new TwilioStandIn();
  await standIn.start();
  const arrivals = new Map<number, number>();
  // the stand-in keeps each message once its request is read: the arrival
  const keep = standIn.messages.set.bind(standIn.messages);
  standIn.messages.set = (sid, params) => {
    const leadId = leadIdOf(params.Body);
    if (leadId !== null && !arrivals.has(leadId)) arrivals.set(leadId, Date.now());
    return keep(sid, params);
  };
  return { standIn, arrivals };
}

/**
 * The agents' alerts, devices, webhooks and schedules, by SQL: a verified phone, push and SMS on,
 * no quiet hours, a schedule open all day every day, a webhook (email off), one push device each.
 */
async function equipAgents(
  url: string,
  push: TestPushService,
  hooksUrl: string,
  room: number,
): Promise<void> {
  await query(url, `update packages set leads_per_day = $1 where category = 'MEDICARE'`, [room]);
  await query(
    url,
    `update users set phone = '+1' || (2122000000 + id)::text, phone_verified_at = now(),
            paused_at = null, paused_until = null, licensed_states = '{}'
      where role = 'AGENT'`,
  );
  await query(
    url,
    `insert into alert_settings (user_id, push, sms, quiet_start, quiet_end)
     select id, true, true, null, null from users where role = 'AGENT'
     on conflict (user_id) do update set push = true, sms = true, quiet_start = null, quiet_end = null`,
  );
  const day = { start: '00:00', end: '24:00' };
  const days = { mon: day, tue: day, wed: day, thu: day, fri: day, sat: day, sun: day };
  await query(
    url,
    `insert into agent_schedules (user_id, time_zone, days)
     select id, $1, $2::jsonb from users where role = 'AGENT'
     on conflict (user_id) do update set time_zone = excluded.time_zone, days = excluded.days`,
    [TIME_ZONE, JSON.stringify(days)],
  );
  await query(url, 'delete from agent_caps');
  await query(
    url,
    `insert into delivery_settings (user_id, email_enabled, webhook_url, webhook_enabled, webhook_secret)
     select id, false, $1, true, 'whsec_' || encode(decode(md5(random()::text) || md5(random()::text), 'hex'), 'base64')
       from users where role = 'AGENT'
     on conflict (user_id) do update
       set email_enabled = false, webhook_url = excluded.webhook_url, webhook_enabled = true`,
    [hooksUrl],
  );
  const agents = await query<{ id: number }>(
    url,
    `select id from users where role = 'AGENT' order by id`,
  );
  const devices = agents.map(() => push.device());
  await query(
    url,
    `insert into push_subscriptions (user_id, endpoint, p256dh, auth)
     select * from unnest($1::int[], $2::text[], $3::text[], $4::text[])`,
    [
      agents.map((a) => a.id),
      devices.map((d) => d.endpoint),
      devices.map((d) => d.keys.p256dh),
      devices.map((d) => d.keys.auth),
    ],
  );
  await query(url, 'analyze');
}

interface SteadyResult {
  /** lead id -> when the intake's answer reached the client */
  answered: Map<number, number>;
  sent: number;
  sentInS: number;
  /** the intake's answers that were not 201 ASSIGNED, counted */
  others: Map<string, number>;
  answerMs: number[];
}

/** `rate` leads a second for `seconds`, each sent at its time whatever the answers before. */
async function steady(
  server: BenchServer,
  agents: Agent[],
  keys: string[],
  counter: { n: number },
  seconds: number,
): Promise<SteadyResult> {
  const answered = new Map<number, number>();
  const others = new Map<string, number>();
  const answerMs: number[] = [];
  const sends: Promise<void>[] = [];
  const start = Date.now();
  const total = Math.round(RATE * seconds);
  for (let i = 0; i < total; i++) {
    const due = start + (i * 1000) / RATE;
    const wait = due - Date.now();
    if (wait > 0) await sleep(wait);
    const n = ++counter.n;
    const lead = leadFor(agents[n % agents.length], n);
    const sentAt = performance.now();
    sends.push(
      fetch(`${server.url}/api/v1/leads`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${keys[n % keys.length]}`,
        },
        body: JSON.stringify(lead),
      })
        .then(async (res) => {
          const at = Date.now();
          answerMs.push(performance.now() - sentAt);
          const answer = (await res.json()) as { id?: number; status?: string };
          if (res.status === 201 && answer.status === 'ASSIGNED' && answer.id)
            answered.set(answer.id, at);
          else {
            const key = `${res.status} ${answer.status ?? ''}`.trim();
            others.set(key, (others.get(key) ?? 0) + 1);
          }
        })
        .catch((err: unknown) => {
          const key = `fetch failed: ${err instanceof Error ? err.message : String(err)}`;
          others.set(key, (others.get(key) ?? 0) + 1);
        }),
    );
  }
  await Promise.all(sends);
  return { answered, sent: total, sentInS: (Date.now() - start) / 1000, others, answerMs };
}

/** Each lead's time from its answer to its arrival; the ones that never arrived, counted. */
function delays(answered: Map<number, number>, arrivals: Map<number, number>) {
  const ms: number[] = [];
  let missing = 0;
  for (const [id, at] of answered) {
    const arrived = arrivals.get(id);
    if (arrived === undefined) missing++;
    else ms.push(Math.max(0, arrived - at));
  }
  ms.sort((a, b) => a - b);
  return { ms, missing, p50: percentile(ms, 0.5), p99: percentile(ms, 0.99) };
}

/**
 * The server's jobs of the run (pg-boss's own rows): from the job's insert (the intake's
 * transaction) to a worker starting it, and from the start to its end; p50 and p99 by queue.
 */
async function jobTimes(url: string, since: number): Promise<string> {
  const rows = await query<{
    name: string;
    n: number;
    wait50: number;
    wait99: number;
    run50: number;
    run99: number;
  }>(
    url,
    `with j as (
       select name, extract(epoch from started_on - created_on) * 1000 as wait,
              extract(epoch from completed_on - started_on) * 1000 as run
         from pgboss.job
        where name in ('lead-delivery', 'lead-push', 'lead-sms-alert')
          and created_on >= to_timestamp($1 / 1000.0) and started_on is not null)
     select name, count(*)::int as n,
            round(percentile_cont(0.5) within group (order by wait))::int as wait50,
            round(percentile_cont(0.99) within group (order by wait))::int as wait99,
            round(percentile_cont(0.5) within group (order by run))::int as run50,
            round(percentile_cont(0.99) within group (order by run))::int as run99
       from j group by name order by name`,
    [since],
  );
  return rows
    .map(
      (r) =>
        `${r.name} x${r.n}: waited p50 ${fmt(r.wait50)} ms, p99 ${fmt(r.wait99)} ms; ran p50 ${fmt(r.run50)} ms, p99 ${fmt(r.run99)} ms`,
    )
    .join('; ');
}

/** The alerts' and deliveries' outcomes the server recorded, counted: "SENT x950, SKIPPED (Quiet hours) x2". */
async function outcomes(url: string, table: 'push_attempts' | 'sms_alerts'): Promise<string> {
  const rows = await query<{ status: string; error: string | null; n: number }>(
    url,
    `select status, case when status = 'SENT' then null else left(error, 80) end as error,
            count(*)::int as n
       from ${table} group by 1, 2 order by 3 desc`,
  );
  return (
    rows.map((r) => `${r.status}${r.error ? ` (${r.error})` : ''} x${r.n}`).join(', ') || 'none'
  );
}

export function runAlertsBench(): Promise<BenchReport> {
  const total = Math.round(RATE * SECONDS);
  const workload = `PostgreSQL with ${fmt(AGENTS)} agents (the assignment pool's random preferences, each on a MEDICARE package with room for the run), each with a push device at a local push service that decrypts, SMS on with a verified phone (Twilio stand-in), a CRM webhook to a local receiver, no quiet hours and an all-day schedule; ${fmt(total)} leads at a steady ${RATE}/s, each fitting some agent; the real server; the receivers run in the bench process on the same 2 cores`;
  return measure('alerts', workload, async (figures, notes) => {
    const url = await recreateDatabase(DB_NAME);
    let server: BenchServer | null = null;
    const hooks = await webhookReceiver();
    const push = await pushService();
    const twilio = await twilioService();
    try {
      const migrated = await openDatabase({ databaseUrl: url, poolSize: 1 });
      await migrateDatabase(migrated);
      await migrated.close();
      const t = performance.now();
      // the pool's agents (random states, cities, ages), all of them on MEDICARE
      const pool = generate(0, AGENTS);
      for (const agent of pool.agents) {
        agent.category = 'MEDICARE';
        agent.categories = [];
        agent.quota = 50;
      }
      await load(pool, url);
      const room = Math.max(50, total + Math.round(RATE * WARMUP_S));
      await equipAgents(url, push.service, hooks.url, room);
      log(
        `${fmt(AGENTS)} agents with devices, phones, webhooks and schedules in ${Math.round(performance.now() - t)} ms`,
      );
      log(`indexed the pool for the admin's search in ${await indexForSearch(url)} ms`);

      server = await startServer({
        database: { databaseUrl: url },
        env: {
          // the push service and the CRM receiver are on loopback
          WEBHOOK_ALLOW_PRIVATE: 'true',
          BUSINESS_TZ: TIME_ZONE,
          TWILIO_ACCOUNT_SID: twilio.standIn.accountSid,
          TWILIO_AUTH_TOKEN: twilio.standIn.authToken,
          TWILIO_FROM_NUMBER: twilio.standIn.fromNumber,
          TWILIO_API_BASE: twilio.standIn.base,
        },
      });
      const { keys } = await sourceWithKeys(server, KEYS);
      const counter = { n: 0 };
      const arrivedAll = (answered: Map<number, number>) => () => {
        const pushed = push.arrivals();
        return [...answered.keys()].every(
          (id) => hooks.arrivals.has(id) && pushed.has(id) && twilio.arrivals.has(id),
        );
      };

      // warm-up, not measured: the whole path works before the run counts
      const warm = await steady(server, pool.agents, keys, counter, WARMUP_S);
      await waitFor(arrivedAll(warm.answered), 30_000);
      const warmPush = delays(warm.answered, push.arrivals());
      const warmSms = delays(warm.answered, twilio.arrivals);
      log(
        `warm-up: ${warm.answered.size} of ${warm.sent} ASSIGNED; push arrived ${warmPush.ms.length}, SMS ${warmSms.ms.length}, webhook ${delays(warm.answered, hooks.arrivals).ms.length}`,
      );
      if (warm.answered.size === 0 || warmPush.ms.length === 0 || warmSms.ms.length === 0) {
        throw new Error(
          `the warm-up's alerts did not arrive: intake answers ${JSON.stringify([...warm.others])}; push ${await outcomes(url, 'push_attempts')}; SMS ${await outcomes(url, 'sms_alerts')}; server errors: ${server.drainErrors() || 'none'}\n${server.output()}`,
        );
      }
      server.drainErrors();
      await sleep(2000);

      const healthMs = await unloadedHealthMs(server);
      // where the CPU goes during the run and until its alerts are in: the server, the database's
      // sessions, and this process (the sender, the push service's decryption, the stand-ins)
      const activity = await new PgActivitySampler(url, DB_NAME, 100, cpuSeconds).start();
      const serverCpu = cpuSeconds(server.pid);
      const benchCpu = process.cpuUsage();
      const runStart = Date.now();
      const run = await steady(server, pool.agents, keys, counter, SECONDS);
      const waitStart = Date.now();
      const allArrived = await waitFor(arrivedAll(run.answered), ARRIVAL_TIMEOUT_MS);
      const waitedS = (Date.now() - waitStart) / 1000;
      const wallS = (Date.now() - runStart) / 1000;
      const serverCpuS = cpuSeconds(server.pid) - serverCpu;
      const benchUsage = process.cpuUsage(benchCpu);
      const benchCpuS = (benchUsage.user + benchUsage.system) / 1e6;
      const db = await activity.stop();
      const webhook = delays(run.answered, hooks.arrivals);
      const pushed = delays(run.answered, push.arrivals());
      const sms = delays(run.answered, twilio.arrivals);
      const base = { label: 'GET /api/health, unloaded round trip', value: healthMs };
      const under3s = (d: ReturnType<typeof delays>) => d.p99 < 3000 && d.missing === 0;
      const detail = (d: ReturnType<typeof delays>) =>
        `p50 ${fmt(d.p50)} ms; ${fmt(d.ms.length)} leads, ${d.missing} never arrived`;
      figures.push(
        figure('alerts: push p99 (intake answer to push service)', pushed.p99, 'ms', {
          baseline: base,
          goal: { text: 'p99 < 3 s', met: under3s(pushed) },
          detail: detail(pushed),
        }),
        figure('alerts: SMS p99 (intake answer to Twilio stand-in)', sms.p99, 'ms', {
          baseline: base,
          goal: { text: 'p99 < 3 s', met: under3s(sms) },
          detail: detail(sms),
        }),
        figure('alerts: webhook p99, same run', webhook.p99, 'ms', {
          baseline: base,
          detail: detail(webhook),
        }),
      );
      run.answerMs.sort((a, b) => a - b);
      const agentsHit = await query<{ n: number; most: number }>(
        url,
        `select count(*)::int as n, max(c)::int as most
           from (select agent_id, count(*) as c from leads where agent_id is not null group by 1) x`,
      );
      const badPushes = push.service.received.filter((r) => r.decryptError || r.vapidError);
      notes.push(
        `steady run: ${fmt(run.sent)} leads at ${RATE}/s (sent in ${run.sentInS.toFixed(1)} s, after ${fmt(warm.sent)} of warm-up), ${fmt(run.answered.size)} answered 201 ASSIGNED${run.others.size > 0 ? `, others: ${[...run.others].map(([k, v]) => `${k} x${v}`).join(', ')}` : ''}; the intake's answer p50 ${Math.round(percentile(run.answerMs, 0.5))} ms, p99 ${Math.round(percentile(run.answerMs, 0.99))} ms; the leads went to ${fmt(agentsHit[0].n)} agents (at most ${agentsHit[0].most} each); ${allArrived ? 'every alert arrived' : `NOT every alert arrived within ${ARRIVAL_TIMEOUT_MS / 1000} s`} (waited ${waitedS.toFixed(1)} s after the last answer)`,
        `CPU over the run and its wait (${wallS.toFixed(1)} s wall, 2 cores): server ${serverCpuS.toFixed(1)} s (${Math.round((serverCpuS * 1000) / Math.max(1, run.sent))} ms a lead), database sessions ${db.backendCpuS} s, bench process ${benchCpuS.toFixed(1)} s; the database had ${db.meanActive} statements running on average; its busiest: ${db.top
          .slice(0, 3)
          .map((q) => `${Math.round(q.share * 100)}% ${q.query.slice(0, 90)} (${q.waits})`)
          .join('; ')}`,
        `the server's jobs of the run, from the insert to a worker taking it and from there to its end: ${await jobTimes(url, runStart)}`,
        `recorded by the server (warm-up included): push ${await outcomes(url, 'push_attempts')}; SMS ${await outcomes(url, 'sms_alerts')}; pushes the push service could not decrypt or whose VAPID it refused: ${badPushes.length}; SMS requests at the stand-in: ${fmt(twilio.standIn.messages.size)}; server errors: ${server.drainErrors() || 'none'}`,
      );
      for (const f of figures) log(`${f.label}: ${f.value} ${f.unit} (${f.detail ?? ''})`);
      for (const note of notes) log(note);
    } finally {
      await server?.stop();
      await hooks.close();
      await push.service.close();
      await twilio.standIn.stop();
      await dropDatabase(DB_NAME);
    }
  });
}

if (isMain(import.meta.url)) runStandalone(runAlertsBench);
