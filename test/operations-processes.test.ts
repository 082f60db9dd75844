/**
 * Several processes on one PostgreSQL (docs/OPERATIONS.md): two web processes
 * (PROCESS_ROLE=web) and one worker (PROCESS_ROLE=worker), real child processes. The limits hold
 * across both web processes (they are kept in the database), leads posted to either are
 * delivered by the worker, SIGTERM to a web process under load loses no answered request and
 * leaves no job claimed, and the worker's /metrics agree with the database.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, queryRows } from '../src/server/db/client';
import { createAgent } from './support/assignment-fixtures';
import { uniqueEmail, uniquePhone } from './support/lead-contact';
import {
  login,
  SERVER_ADMIN,
  type ServerProcess,
  sleep,
  startServer,
} from './support/server-process';
import { createTestDatabase, TEST_DB } from './support/test-db';

const METRICS_TOKEN = 'metrics-token-of-the-process-test';

describe.runIf(TEST_DB === 'postgres')('two web processes and a worker on one database', () => {
  let database: Database & { url?: string };
  let web1: ServerProcess;
  let web2: ServerProcess;
  let worker: ServerProcess;
  let receiver: Server;
  const calls: string[] = [];
  let seq = 0;

  beforeAll(async () => {
    database = await createTestDatabase();
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        calls.push(Buffer.concat(chunks).toString('utf8'));
        res.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    // an agent who takes Texas leads, delivered to the receiver only (no email)
    const agentId = await createAgent(database.db, { quota: 1000, states: ['TX'] });
    await database.db.execute(
      sql`insert into delivery_settings (user_id, email_enabled, webhook_url, webhook_enabled, webhook_secret)
          values (${agentId}, false, ${`http://127.0.0.1:${(receiver.address() as AddressInfo).port}/crm`},
                  true, ${`whsec_${randomBytes(24).toString('base64')}`})`,
    );
    const env = {
      WEBHOOK_ALLOW_PRIVATE: 'true',
      METRICS_TOKEN,
      SHUTDOWN_GRACE_MS: '5000',
    };
    [web1, web2, worker] = await Promise.all([
      startServer(database.url!, { ...env, PROCESS_ROLE: 'web' }),
      startServer(database.url!, { ...env, PROCESS_ROLE: 'web' }),
      // a pool of its own size (DATABASE_POOL_SIZE): the web processes keep the default 10
      startServer(database.url!, { ...env, PROCESS_ROLE: 'worker', DATABASE_POOL_SIZE: '4' }),
    ]);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([web1?.stop(), web2?.stop(), worker?.stop()]);
    receiver?.closeAllConnections();
    await new Promise((resolve) => receiver?.close(resolve));
    await database?.close();
  });

  /** A new source's API key, made by the admin through a web process. */
  async function sourceKey(): Promise<{ sourceId: number; key: string }> {
    const cookie = await login(web1.url, SERVER_ADMIN.email, SERVER_ADMIN.password);
    const headers = { cookie, origin: web1.url };
    const source = await (
      await fetch(`${web1.url}/api/admin/sources`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ name: `Source ${++seq}`, costPerLeadCents: 100 }),
      })
    ).json();
    const key = await (
      await fetch(`${web1.url}/api/admin/sources/${source.id}/keys`, { method: 'POST', headers })
    ).json();
    if (!key.key) throw new Error(`no key: ${JSON.stringify(source)} ${JSON.stringify(key)}`);
    return { sourceId: source.id, key: key.key };
  }

  const lead = () => ({
    firstName: 'Ann',
    lastName: 'Lee',
    phone: uniquePhone(),
    email: uniqueEmail('processes'),
    city: 'Austin',
    state: 'TX',
    zip: '78701',
    age: 67,
    category: 'MEDICARE',
  });

  async function post(url: string, key: string, body: object) {
    const res = await fetch(`${url}/api/v1/leads`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as { id?: number } };
  }

  it('an API key gets no more than 50 a second across both web processes together', async () => {
    const { key } = await sourceKey();
    const started = performance.now();
    // invalid bodies (no lead is written): 100 to each process at once
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) => post(i % 2 ? web2.url : web1.url, key, { city: 'x' })),
    );
    const seconds = (performance.now() - started) / 1000;
    const passed = answers.filter((a) => a.status !== 429).length;
    // one budget: 50 at once, then 50 a second (each process counting alone would let twice
    // through); how many are refused depends on how fast the machine answers, the bound does not
    expect(passed).toBeGreaterThanOrEqual(50);
    expect(passed, `${passed} through in ${seconds.toFixed(2)} s`).toBeLessThanOrEqual(
      50 + Math.ceil(50 * seconds) + 1,
    );
  });

  it('the key whose budget is spent is refused by both web processes, whatever the timing', async () => {
    const { key } = await sourceKey();
    expect((await post(web1.url, key, { city: 'x' })).status).toBe(422);
    // spend the key's budget for the next hour, in the database only: neither process has seen it
    await database.db.execute(
      sql`update api_keys set rate_tat = now() + interval '1 hour' where rate_tat is not null
            and id = (select max(id) from api_keys)`,
    );
    expect((await post(web1.url, key, { city: 'x' })).status).toBe(429);
    expect((await post(web2.url, key, { city: 'x' })).status).toBe(429);
  });

  it('the login throttle counts the attempts made at either web process', async () => {
    const email = uniqueEmail('guessed');
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const url = i % 2 ? web2.url : web1.url;
      const res = await fetch(`${url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: url },
        body: JSON.stringify({ email, password: `wrong-password-${i}` }),
      });
      statuses.push(res.status);
    }
    // five wrong passwords for one account from one address, three at each process: the sixth is refused
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
  });

  it('leads posted to either web process are delivered by the worker', async () => {
    const { key } = await sourceKey();
    const ids: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await post(i % 2 ? web2.url : web1.url, key, lead());
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      ids.push(res.body.id!);
    }
    await waitForDelivered(ids);
  });

  it('SIGTERM to a web process under load: every answered lead is kept, no job is left claimed, exit 0', async () => {
    const { sourceId, key } = await sourceKey();
    const answered: number[] = [];
    let stopped = false;
    const load = async () => {
      while (!stopped) {
        try {
          const res = await post(web1.url, key, lead());
          if (res.status === 201) answered.push(res.body.id!);
          else if (res.status === 429) await sleep(20);
          else if (res.status !== 503) throw new Error(`answered ${res.status}`);
        } catch (err) {
          // refused or reset once the process stops listening: not answered, so not counted
          if (err instanceof Error && err.message.startsWith('answered')) throw err;
          return;
        }
      }
    };
    const loads = Array.from({ length: 4 }, load);
    await sleep(700);
    web1.child.kill('SIGTERM');
    const how = await web1.exited;
    stopped = true;
    await Promise.all(loads);
    expect(how, web1.output().slice(-4000)).toBe('exit 0');
    expect(answered.length).toBeGreaterThan(0);
    const [kept] = await queryRows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from leads
           where source_id = ${sourceId} and id in (${sql.join(
             answered.map((id) => sql`${id}`),
             sql`, `,
           )})`,
    );
    expect(kept.n).toBe(answered.length);
    // the other web process still serves, and the worker delivers all of them
    expect((await post(web2.url, key, lead())).status).toBe(201);
    await waitForDelivered(answered);
  });

  it("the worker's metrics agree with the database; SIGTERM to it leaves no job claimed", async () => {
    const res = await fetch(`${worker.url}/metrics`, {
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(res.status).toBe(200);
    const text = await res.text();
    const [sent] = await queryRows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from delivery_attempts where status = 'SENT'`,
    );
    expect(sent.n).toBeGreaterThan(0);
    expect(text).toContain(
      `leadflow_delivery_attempts_total{channel="WEBHOOK",outcome="SENT"} ${sent.n}\n`,
    );
    expect(calls.length).toBe(sent.n);
    expect(text).toMatch(/^leadflow_delivery_lag_seconds_count\{channel="WEBHOOK"\} \d+$/m);
    expect(text).toMatch(/^leadflow_db_pool_size\{pool="main"\} 4$/m);
    // a web process delivers nothing: its counters of attempts stay empty
    const web = await (
      await fetch(`${web2.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
    ).text();
    expect(web).not.toMatch(/^leadflow_delivery_attempts_total\{/m);
    expect(web).toMatch(/^leadflow_db_pool_size\{pool="main"\} 10$/m);

    expect(await worker.stop()).toBe('exit 0');
    const [active] = await queryRows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from pgboss.job where state = 'active'`,
    );
    expect(active.n).toBe(0);
  });

  async function waitForDelivered(ids: number[]) {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const [row] = await queryRows<{ sent: number; active: number }>(
        database.db,
        sql`select count(*) filter (where d.status = 'SENT')::int as sent,
                   (select count(*)::int from pgboss.job where state = 'active') as active
              from deliveries d
             where d.channel = 'WEBHOOK' and d.lead_id in (${sql.join(
               ids.map((id) => sql`${id}`),
               sql`, `,
             )})`,
      );
      if (row.sent === ids.length && row.active === 0) return;
      if (Date.now() > deadline)
        throw new Error(
          `${row.sent} of ${ids.length} delivered, ${row.active} jobs active:\n${worker.output()}`,
        );
      await sleep(200);
    }
  }
});
