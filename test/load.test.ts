/**
 * Load: the real server (a child process on PostgreSQL) under a mix of agent and admin traffic
 * from autocannon on loopback for LOAD_SECONDS (60 by default), with one CSV import and one
 * assignment run landing in the middle. No 5xx, no connection error, and afterwards every count
 * reconciles.
 */

import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, queryRows } from '../src/server/db/client';
import { businessDate } from '../src/server/lib/business-time';
import { AGENT_SETTABLE_STATUSES, LEAD_CATEGORIES, STATE_CODES } from '../src/shared/domain';
import { insertPackage } from './support/agent-fixtures';
import { type AutocannonRequest, type AutocannonResult, autocannon } from './support/autocannon';
import { phoneAt, reservePhones } from './support/lead-contact';
import {
  login,
  SERVER_ADMIN,
  type ServerProcess,
  sleep,
  startServer,
  uploadCsv,
} from './support/server-process';
import { createTestDatabase, TEST_DB } from './support/test-db';

const LOAD_SECONDS = Number(process.env.LOAD_SECONDS ?? 60);
const AGENTS = 20;
const SEEDED_LEADS = 20_000;
const IMPORTED_ROWS = 20_000;
const MANUAL_PER_AGENT = 5;
const QUOTA = 40;

interface Agent {
  id: number;
  cookie: string;
  leadIds: number[];
}

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)];

async function json<T>(res: Response): Promise<T> {
  const text = await res.text();
  if (!res.ok) throw new Error(`${res.status} ${res.url}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}

async function writeCsvFile(path: string, prefix: string, rows: number): Promise<void> {
  const out = createWriteStream(path);
  out.write('externalId,firstName,lastName,phone,email,city,state,age,category\n');
  let chunk = '';
  const phones = reservePhones(rows);
  for (let i = 0; i < rows; i++) {
    chunk += `${prefix}-${i},Load${i},Lead${i},${phoneAt(phones + i)},${prefix}-${i}@example.com,Town ${i % 50},${STATE_CODES[i % 50]},${20 + (i % 80)},FINAL_EXPENSE\n`;
    if (chunk.length > 64_000) {
      if (!out.write(chunk)) await once(out, 'drain');
      chunk = '';
    }
  }
  out.end(chunk);
  await once(out, 'finish');
}

function summary(name: string, r: AutocannonResult): string {
  const codes = Object.entries(r.statusCodeStats)
    .map(([code, s]) => `${code}: ${s.count}`)
    .join(', ');
  return (
    `  ${name.padEnd(6)} ${String(r.requests.total).padStart(7)} requests, ` +
    `${r.requests.average.toFixed(0).padStart(5)} req/s, latency p50 ${r.latency.p50} ms, ` +
    `p99 ${r.latency.p99} ms, max ${r.latency.max} ms; errors ${r.errors}, timeouts ` +
    `${r.timeouts}, non-2xx ${r.non2xx} (${codes})`
  );
}

describe.runIf(TEST_DB === 'postgres')(`load for ${LOAD_SECONDS} s on PostgreSQL`, () => {
  let database: Database & { url?: string };
  let server: ServerProcess | undefined;
  let dir: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    dir = await mkdtemp(join(tmpdir(), 'lf-load-'));
  });
  afterAll(async () => {
    await server?.stop();
    await database?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it(
    'serves a mix of agent and admin traffic with no 5xx or error, and every count reconciles',
    async () => {
      const url = database.url;
      if (!url) throw new Error('the PostgreSQL test database has no url');
      const db = database.db;
      server = await startServer(url);
      const base = server.url;
      const adminCookie = await login(base, SERVER_ADMIN.email, SERVER_ADMIN.password);
      const asAdmin = (path: string, body?: unknown) =>
        fetch(`${base}${path}`, {
          method: body === undefined ? 'GET' : 'POST',
          headers: {
            cookie: adminCookie,
            origin: base,
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
        });

      // seed: one package per category, agents who registered and subscribed over HTTP,
      // NEW leads, and a few leads per agent assigned by hand (so each can update its own)
      const packageIds: number[] = [];
      for (const category of LEAD_CATEGORIES) {
        packageIds.push((await insertPackage(db, { category, leadsPerDay: QUOTA })).id);
      }
      await db.execute(sql`
        insert into leads (first_name, last_name, phone, email, city, state, age, category)
        select 'Seed' || g, 'Lead' || g, '555-' || lpad((g % 10000)::text, 4, '0'),
               'seed' || g || '@example.com', 'Town ' || (g % 50),
               (array['TX','FL','CA','NY','OH'])[1 + g % 5], 20 + g % 80,
               (array['MEDICARE','ACA'])[1 + g % 2]::lead_category
        from generate_series(1, ${SEEDED_LEADS}) g`);
      const seedLeads = await queryRows<{ id: number }>(
        db,
        sql`select id from leads order by id limit ${AGENTS * MANUAL_PER_AGENT}`,
      );
      const agents: Agent[] = [];
      for (let i = 0; i < AGENTS; i++) {
        const email = `load-agent-${i}-${process.pid}@example.com`;
        const password = 'load-secret';
        const reg = await fetch(`${base}/api/auth/register`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: base },
          body: JSON.stringify({ name: `Load Agent ${i}`, email, password }),
        });
        const { user } = await json<{ user: { id: number } }>(reg);
        const cookie = await login(base, email, password);
        const sub = await fetch(`${base}/api/agent/subscription`, {
          method: 'POST',
          headers: { cookie, origin: base, 'content-type': 'application/json' },
          body: JSON.stringify({ packageId: packageIds[i % packageIds.length] }),
        });
        await json(sub);
        const leadIds: number[] = [];
        for (let k = 0; k < MANUAL_PER_AGENT; k++) {
          const lead = seedLeads[i * MANUAL_PER_AGENT + k];
          await json(
            await asAdmin('/api/admin/leads/assign', { leadId: lead.id, userId: user.id }),
          );
          leadIds.push(lead.id);
        }
        agents.push({ id: user.id, cookie, leadIds });
      }
      const csvFile = join(dir, 'load-import.csv');
      await writeCsvFile(csvFile, `load-${process.pid}`, IMPORTED_ROWS);

      // the traffic: every request picks an agent (and one of its own leads) at random
      const asAgent = (path: string | (() => string), extra: Partial<AutocannonRequest> = {}) => ({
        method: 'GET',
        ...extra,
        setupRequest: (request: AutocannonRequest) => {
          const agent = pick(agents);
          const leadId = pick(agent.leadIds);
          return {
            ...request,
            path: (typeof path === 'function' ? path() : path).replace(':id', String(leadId)),
            headers: { ...request.headers, cookie: agent.cookie },
          };
        },
      });
      const agentTraffic = autocannon({
        url: base,
        title: 'agents',
        connections: 8,
        duration: LOAD_SECONDS,
        timeout: 30,
        requests: [
          asAgent('/api/agent/leads'),
          asAgent('/api/agent/stats'),
          asAgent(() => `/api/agent/leads?status=${pick(['ASSIGNED', 'CONTACTED', 'CONVERTED'])}`),
          {
            method: 'POST',
            setupRequest: (request) => {
              const agent = pick(agents);
              return {
                ...request,
                path: `/api/agent/leads/${pick(agent.leadIds)}/status`,
                headers: { cookie: agent.cookie, 'content-type': 'application/json' },
                body: JSON.stringify({ status: pick(AGENT_SETTABLE_STATUSES) }),
              };
            },
          },
        ],
      });
      const admin = (path: () => string): AutocannonRequest => ({
        method: 'GET',
        setupRequest: (request) => ({ ...request, path: path() }),
      });
      const adminTraffic = autocannon({
        url: base,
        title: 'admin',
        connections: 3,
        duration: LOAD_SECONDS,
        timeout: 30,
        headers: { cookie: adminCookie },
        requests: [
          admin(() => `/api/admin/leads?offset=${50 * Math.floor(Math.random() * 100)}`),
          admin(() => '/api/admin/stats'),
          admin(() => `/api/admin/leads?status=${pick(['NEW', 'ASSIGNED', 'CONVERTED'])}`),
          admin(() => '/api/admin/analytics'),
          admin(() => `/api/admin/leads?q=${pick(['Seed1', 'lead2', '555-01', 'Load3'])}`),
          admin(() => '/api/admin/agents'),
        ],
      });
      const connectionErrors: string[] = [];
      for (const instance of [agentTraffic, adminTraffic]) {
        instance.on('reqError', (err) => connectionErrors.push(String(err)));
      }

      // in the middle of the run: one assignment run (it gives the seeded MEDICARE and ACA leads
      // out), then one CSV import of FINAL_EXPENSE leads (the run after it gives those out)
      const t0 = Date.now();
      const events = (async () => {
        await sleep((LOAD_SECONDS * 1000) / 4);
        const ran = await asAdmin('/api/admin/assignment/run', {});
        const run = { status: ran.status, body: await ran.text() };
        await sleep(Math.max(0, (LOAD_SECONDS * 1000) / 2 - (Date.now() - t0)));
        const started = Date.now();
        const imported = await uploadCsv(base, adminCookie, csvFile);
        const importSeconds = (Date.now() - started) / 1000;
        return { imported, importSeconds, run };
      })();
      const [agentResult, adminResult] = await Promise.all([agentTraffic, adminTraffic]);
      const { imported, importSeconds, run } = await events;

      const total = agentResult.requests.total + adminResult.requests.total;
      const seconds = (agentResult.duration + adminResult.duration) / 2;
      console.log(
        [
          `Load for ${LOAD_SECONDS} s on PostgreSQL (${AGENTS} agents, ${SEEDED_LEADS} seeded leads):`,
          summary('agents', agentResult),
          summary('admin', adminResult),
          `  total  ${total} requests served, ${(total / seconds).toFixed(0)} req/s, latency p99 ` +
            `${Math.max(agentResult.latency.p99, adminResult.latency.p99)} ms, errors ` +
            `${agentResult.errors + adminResult.errors + connectionErrors.length}`,
          `  assignment run during the run: ${run.status} ${run.body.slice(0, 200)}`,
          `  import of ${IMPORTED_ROWS} rows during the run: ${imported.status} in ${importSeconds.toFixed(1)} s ${imported.body.slice(0, 160)}`,
        ].join('\n'),
      );

      // no 5xx, no connection error, no timeout; in fact every answer a 2xx
      for (const result of [agentResult, adminResult]) {
        expect(result.requests.total).toBeGreaterThan(0);
        expect(result['5xx']).toBe(0);
        expect(result.errors).toBe(0);
        expect(result.timeouts).toBe(0);
        expect(result.non2xx, JSON.stringify(result.statusCodeStats)).toBe(0);
      }
      expect(connectionErrors).toEqual([]);
      expect(imported.status, imported.body.slice(0, 300)).toBe(200);
      const importResult = JSON.parse(imported.body) as {
        imported: number;
        errorCount: number;
        assigned: number | null;
        importId: number;
      };
      expect(importResult).toMatchObject({ imported: IMPORTED_ROWS, errorCount: 0 });
      expect(run.status, run.body).toBe(200);
      // both gave leads out: the run to the MEDICARE and ACA agents, the import to the others
      expect(JSON.parse(run.body).assigned).toBeGreaterThan(0);
      expect(importResult.assigned).toBeGreaterThan(0);

      // leads in = leads stored
      const [counts] = await queryRows<{
        leads: number;
        assigned: number;
        assignedToday: number;
        history: number;
        imported: number;
      }>(
        db,
        sql`select
          (select count(*)::int from leads) as leads,
          (select count(*)::int from leads where agent_id is not null) as assigned,
          (select count(*)::int from leads where assigned_on = ${businessDate('America/New_York')}) as "assignedToday",
          (select count(*)::int from lead_history where kind in ('AUTO_ASSIGNED', 'MANUAL_ASSIGNED')) as history,
          (select count(*)::int from leads where import_id = ${importResult.importId}) as imported`,
      );
      expect(counts.leads).toBe(SEEDED_LEADS + IMPORTED_ROWS);
      expect(counts.imported).toBe(IMPORTED_ROWS);
      // and the admin's figures say the same
      const stats = await json<{ totalLeads: number }>(await asAdmin('/api/admin/stats'));
      expect(stats.totalLeads).toBe(counts.leads);

      // assignments = agents' totals = assignment history
      const listed = await json<
        { id: number; totalLeads: number; todayQuota: { assigned: number; limit: number } | null }[]
      >(await asAdmin('/api/admin/agents'));
      const ours = listed.filter((a) => agents.some((g) => g.id === a.id));
      expect(ours).toHaveLength(AGENTS);
      const totals = ours.reduce((sum, a) => sum + a.totalLeads, 0);
      expect(totals).toBe(counts.assigned);
      expect(counts.history).toBe(counts.assigned);
      const today = ours.reduce((sum, a) => sum + (a.todayQuota?.assigned ?? 0), 0);
      expect(today).toBe(counts.assignedToday);
      for (const agent of ours) {
        // leads were plenty: the engine filled every quota, and went over none
        expect(agent.todayQuota).toEqual({ assigned: QUOTA, limit: QUOTA });
      }
      expect(counts.assigned).toBeGreaterThan(AGENTS * MANUAL_PER_AGENT);

      // every lead's status is the one its last status change recorded
      const [drift] = await queryRows<{ changed: number; mismatched: number }>(
        db,
        sql`select count(*)::int as changed,
                   count(*) filter (where last.to_status <> l.status)::int as mismatched
            from leads l
            join lateral (select h.to_status from lead_history h
                          where h.lead_id = l.id and h.kind = 'STATUS_CHANGED'
                          order by h.id desc limit 1) last on true`,
      );
      expect(drift.mismatched).toBe(0);
      expect(drift.changed).toBeGreaterThan(0);
      console.log(
        `  reconciled: ${counts.leads} leads = ${SEEDED_LEADS} seeded + ${IMPORTED_ROWS} imported; ` +
          `${counts.assigned} assigned = agents' totals ${totals} = ${counts.history} assignment history rows; ` +
          `${drift.changed} leads with status changes, all matching their last change`,
      );
    },
    LOAD_SECONDS * 1000 + 300_000,
  );
});
