/**
 * GET /metrics (docs/OPERATIONS.md): Prometheus' text for the bearer of METRICS_TOKEN only (401
 * without it or with another; 404 when the server has none), and its counters agree with what
 * the callers were answered and the database holds.
 */
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../src/server/app';
import { queryRows } from '../src/server/db/client';
import { createAgent, resetAssignmentData } from './support/assignment-fixtures';
import { newSourceKey, postIntakeLead } from './support/intake-post';
import { uniqueEmail, uniquePhone } from './support/lead-contact';
import { loginAdmin, setupTestApp, testConfig } from './support/test-app';
import { createTestDatabase, TEST_DB } from './support/test-db';
import { waitFor } from './support/wait-for';

const TOKEN = 'metrics-token-of-the-test-0123456789';
const ctx = setupTestApp({ METRICS_TOKEN: TOKEN, ASSIGN_ON_IMPORT: false });

async function scrape(): Promise<string> {
  const res = await ctx.app.inject({
    method: 'GET',
    url: '/metrics',
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  return res.body;
}

/** The value of one sample (0 when the series is absent), labels in any order. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries(
      [...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1], l[2]]),
    );
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(m[3]);
  }
  return 0;
}

describe('who may scrape', () => {
  it('401 without the bearer token or with another; 200 with it', async () => {
    for (const authorization of [
      undefined,
      'Bearer wrong-token-of-the-same-len',
      `Basic ${TOKEN}`,
    ]) {
      const res = await ctx.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: authorization ? { authorization } : {},
      });
      expect(res.statusCode, String(authorization)).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer');
      expect(res.body).not.toContain('leadflow_');
    }
    await scrape();
  });

  it('404 when METRICS_TOKEN is not set', async () => {
    const database = await createTestDatabase();
    const app = await buildApp({ config: testConfig(), database, serveSpa: false });
    try {
      const res = await app.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: 'Not found' });
    } finally {
      await app.close();
      await database.close();
    }
  });
});

describe('what it counts', () => {
  it('leads received by source and outcome, assigned by trigger, requests by route, runs', async () => {
    await resetAssignmentData(ctx.database.db);
    const admin = await loginAdmin(ctx);
    const source = (
      await admin.client.post('/api/admin/sources', { name: 'Metrics', costPerLeadCents: 100 })
    ).json();
    const key = (await admin.client.post(`/api/admin/sources/${source.id}/keys`)).json().key;
    await createAgent(ctx.database.db, { quota: 2, states: ['TX'] });
    const before = await scrape();

    const post = (body: object) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/v1/leads',
        headers: { authorization: `Bearer ${key}` },
        payload: body,
      });
    const lead = (n: number) => ({
      firstName: 'Ann',
      lastName: 'Lee',
      phone: uniquePhone(),
      email: uniqueEmail('metrics'),
      city: 'Austin',
      state: 'TX',
      zip: '78701',
      age: 67,
      category: 'MEDICARE',
      externalId: `metrics-${process.pid}-${n}`,
    });
    const statuses: number[] = [];
    for (let n = 0; n < 4; n++) statuses.push((await post(lead(n))).statusCode);
    statuses.push((await post(lead(0))).statusCode); // the same externalId: a duplicate
    statuses.push((await post({ city: 'x' })).statusCode); // invalid
    expect(statuses).toEqual([201, 201, 201, 201, 200, 422]);
    const run = await admin.client.post('/api/admin/assignment/run');
    expect(run.statusCode).toBe(200);

    const after = await scrape();
    const delta = (name: string, labels: Record<string, string> = {}) =>
      sample(after, name, labels) - sample(before, name, labels);
    const src = String(source.id);
    expect(delta('leadflow_leads_received_total', { source: src, outcome: 'accepted' })).toBe(4);
    expect(delta('leadflow_leads_received_total', { source: src, outcome: 'duplicate' })).toBe(1);
    expect(delta('leadflow_leads_received_total', { source: src, outcome: 'invalid' })).toBe(1);
    // the counts agree with the database: leads of the source, assigned at once (quota 2)
    const [held] = await queryRows<{ leads: number; assigned: number }>(
      ctx.database.db,
      sql`select count(*)::int as leads, count(*) filter (where status = 'ASSIGNED')::int as assigned
            from leads where source_id = ${source.id}`,
    );
    expect(held).toEqual({ leads: 4, assigned: 2 });
    expect(delta('leadflow_leads_assigned_total', { trigger: 'INTAKE' })).toBe(held.assigned);
    expect(delta('leadflow_leads_assigned_total', { trigger: 'MANUAL' })).toBe(run.json().assigned);
    expect(delta('leadflow_engine_run_seconds_count', { trigger: 'MANUAL' })).toBe(1);
    expect(
      delta('leadflow_http_request_duration_seconds_count', {
        method: 'POST',
        route: '/api/v1/leads',
        status: '201',
      }),
    ).toBe(4);
    // states read at the scrape: the event loop, the queues, the pool
    expect(after).toMatch(/^nodejs_eventloop_lag_seconds \d/m);
    expect(after).toContain('# TYPE leadflow_queue_depth gauge');
    if (TEST_DB === 'postgres') {
      expect(after).toMatch(/^leadflow_db_pool_in_use\{pool="main"\} \d+$/m);
      expect(after).toMatch(/^leadflow_db_pool_waiting\{pool="main"\} 0$/m);
    }
  });
});

describe("the intake's copy of the agents (decision 043)", () => {
  const picks = async () => {
    const text = await scrape();
    return {
      memory: sample(text, 'leadflow_intake_picks_total', { by: 'memory' }),
      database: sample(text, 'leadflow_intake_picks_total', { by: 'database' }),
    };
  };

  it('picks from memory once the copy is read; a change to an agent counts for the very next lead', async () => {
    await resetAssignmentData(ctx.database.db);
    const { key } = await newSourceKey(ctx);
    const texan = await createAgent(ctx.database.db, { quota: 100, states: ['TX'] });
    const send = async (state: 'TX' | 'CA') => {
      const res = await postIntakeLead(ctx, key, {
        state,
        city: state === 'TX' ? 'Austin' : 'Fresno',
        zip: state === 'TX' ? '78701' : '93650',
      });
      expect(res.statusCode, res.body).toBe(201);
      const [row] = await queryRows<{ agent_id: number | null }>(
        ctx.database.db,
        sql`select agent_id from leads where id = ${res.json().id}`,
      );
      return row.agent_id;
    };

    // the first lead after the agent was stored: one pick (from the database when the copy is
    // stale, which has it read again; from memory when a load under way already read the agent)
    const before = await picks();
    expect(await send('TX')).toBe(texan);
    const first = await picks();
    expect(first.memory + first.database).toBe(before.memory + before.database + 1);
    // then the copy answers, with the same agent
    await waitFor('a pick from memory', async () => {
      expect(await send('TX')).toBe(texan);
      return (await picks()).memory > first.memory;
    });

    // the agent now prefers California: the very next Texan lead finds no agent
    await ctx.database.db.execute(
      sql`update preferences set states = '{CA}' where user_id = ${texan}`,
    );
    const changed = await picks();
    expect(await send('TX')).toBeNull();
    expect((await picks()).database).toBe(changed.database + 1);
    expect(await send('CA')).toBe(texan);
    await waitFor('the new copy answering', async () => {
      expect(await send('TX')).toBeNull();
      return (await picks()).memory > changed.memory;
    });
  });
});
