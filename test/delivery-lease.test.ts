/**
 * A worker's claim on deliveries is a lease (decision 040): renewed while the worker lives, taken
 * over by another process once it lapsed. A worker that stops uncleanly with a delivery in flight
 * leaves it to another, which sends it (the receiver sees the same webhook-id at most twice); a
 * live worker's slow endpoint, whose deliveries take longer together than the lease, is sent each
 * of them once. On PostgreSQL also a real worker process killed with SIGKILL.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuildAppOptions, buildApp } from '../src/server/app';
import { type Db, queryRows } from '../src/server/db/client';
import { packages } from '../src/server/db/schema';
import { assignLeadByHand, insertLeads } from './support/admin-fixtures';
import { createAgent } from './support/assignment-fixtures';
import { startServer } from './support/server-process';
import { loginAdmin, setupTestApp, testConfig } from './support/test-app';
import { TEST_DB } from './support/test-db';
import { waitFor } from './support/wait-for';

interface Call {
  path: string;
  id: string;
}
const calls: Call[] = [];
/** path -> how to answer its calls: hold the first one forever, or answer each after a while */
const plans = new Map<string, { holdFirst?: boolean; delayMs?: number }>();
const held: ServerResponse[] = [];
let receiver: Server;
let base = '';

beforeAll(async () => {
  receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const path = req.url ?? '/';
      const first = !calls.some((c) => c.path === path);
      calls.push({ path, id: String(req.headers['webhook-id'] ?? '') });
      const plan = plans.get(path) ?? {};
      if (plan.holdFirst && first) return void held.push(res);
      setTimeout(() => res.writeHead(200).end('ok'), plan.delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const res of held) res.destroy();
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
});

// the API, without a queue of its own: the deliveries it records wait for a worker's sweeper
const ctx = setupTestApp({ WEBHOOK_ALLOW_PRIVATE: true }, { deliveryQueue: { enabled: false } });

/** A worker process's app on the test's database: a short lease (4 s), a 2 s time limit. */
async function workerApp(
  deliveryQueue: BuildAppOptions['deliveryQueue'] = {},
): Promise<FastifyInstance> {
  const app = await buildApp({
    config: testConfig({
      WEBHOOK_ALLOW_PRIVATE: true,
      PROCESS_ROLE: 'worker',
      SHUTDOWN_GRACE_MS: 100,
    }),
    database: ctx.database,
    serveSpa: false,
    deliveryQueue: {
      leaseSeconds: 4,
      webhookTimeoutMs: 2_000,
      pollingIntervalSeconds: 0.5,
      sweepIntervalMs: 300,
      ...deliveryQueue,
    },
  });
  await app.ready();
  return app;
}

let seq = 0;
/** An agent on a CRM package taking `state`'s leads, its webhook to `path`. */
async function crmAgent(db: Db, path: string, state: string, quota = 10) {
  const [pkg] = await db
    .insert(packages)
    .values({
      slug: `lease-${randomBytes(6).toString('hex')}`,
      name: `Lease package ${++seq}`,
      category: 'MEDICARE',
      priceMonthlyCents: 9900,
      leadsPerDay: quota,
      commissionPct: 10,
      serviceCrm: true,
    })
    .returning({ id: packages.id });
  const agentId = await createAgent(db, { packageId: pkg!.id, states: [state] });
  await db.execute(
    sql`insert into delivery_settings (user_id, email_enabled, webhook_url, webhook_enabled, webhook_secret)
        values (${agentId}, false, ${`${base}${path}`}, true, ${`whsec_${randomBytes(24).toString('base64')}`})`,
  );
  return agentId;
}

/** A lead assigned by hand to the agent through the admin API (recorded, no job: no queue here). */
async function assignedLead(agentId: number): Promise<number> {
  return assignLeadByHand(ctx, agentId, { firstName: `Lease${++seq}` });
}

const deliveryOf = async (leadId: number) => {
  const [row] = await queryRows<{ id: number; status: string; attempts: number }>(
    ctx.database.db,
    sql`select id, status, attempts from deliveries where lead_id = ${leadId}`,
  );
  return row!;
};

const attemptRows = (deliveryId: number) =>
  queryRows<{ attempt: number; status: string }>(
    ctx.database.db,
    sql`select attempt, status from delivery_attempts where delivery_id = ${deliveryId} order by id`,
  );

describe('the lease on claimed deliveries', () => {
  it('another worker sends what a worker stopped uncleanly had in flight, the same webhook-id at most twice', async () => {
    const agentId = await crmAgent(ctx.database.db, '/stopped', 'TX');
    plans.set('/stopped', { holdFirst: true });
    const leadId = await assignedLead(agentId);

    // this worker claims the delivery and sends it; the CRM holds the call; the worker stops
    // past its grace (as a process killed after SHUTDOWN_GRACE_MS)
    const doomed = await workerApp();
    await waitFor('the first call', async () => calls.some((c) => c.path === '/stopped'));
    await doomed.close();

    const survivor = await workerApp();
    try {
      const delivery = await waitFor('the delivery sent by another worker', async () => {
        const row = await deliveryOf(leadId);
        return row.status === 'SENT' ? row : null;
      });
      const sent = calls.filter((c) => c.path === '/stopped');
      expect(sent).toHaveLength(2);
      expect(new Set(sent.map((c) => c.id)).size).toBe(1);
      // the stopped worker's attempt counts; only the survivor's is recorded
      expect(delivery.attempts).toBe(2);
      expect(await attemptRows(delivery.id)).toEqual([{ attempt: 2, status: 'SENT' }]);
    } finally {
      await survivor.close();
    }
  });

  it("sends a live worker's slow endpoint each delivery once, though they take longer than the lease together", async () => {
    const agentId = await crmAgent(ctx.database.db, '/slow', 'NV', 4);
    plans.set('/slow', { delayMs: 1_500 });
    await insertLeads(
      ctx,
      Array.from({ length: 4 }, (_, i) => ({ firstName: `Slow${i}`, state: 'NV', city: 'Reno' })),
    );
    const admin = await loginAdmin(ctx);
    const run = await admin.client.post('/api/admin/assignment/run');
    expect(run.statusCode, run.body).toBe(200);
    expect(run.json().assigned).toBe(4);
    // one job for the agent's four (the run's fan-out), each call 1.5 s: 6 s under a 4 s lease
    const worker = await workerApp();
    try {
      await waitFor(
        'the four sent',
        async () => {
          const rows = await queryRows<{ n: number }>(
            ctx.database.db,
            sql`select count(*)::int as n from deliveries where agent_id = ${agentId} and status = 'SENT'`,
          );
          return rows[0]!.n === 4;
        },
        30_000,
      );
      const sent = calls.filter((c) => c.path === '/slow');
      expect(sent).toHaveLength(4);
      expect(new Set(sent.map((c) => c.id)).size).toBe(4);
      const attempts = await queryRows<{ attempts: number }>(
        ctx.database.db,
        sql`select attempts from deliveries where agent_id = ${agentId}`,
      );
      expect(attempts.map((a) => a.attempts)).toEqual([1, 1, 1, 1]);
    } finally {
      await worker.close();
    }
  });

  it.runIf(TEST_DB === 'postgres')(
    'a worker process killed (SIGKILL) with a delivery in flight: another sends it, the same webhook-id at most twice',
    async () => {
      const url = (ctx.database as { url?: string }).url!;
      const agentId = await crmAgent(ctx.database.db, '/killed', 'CA');
      plans.set('/killed', { holdFirst: true });
      // recorded first: the process's sweeper sends it as it starts
      const leadId = await assignedLead(agentId);
      // the process runs the production timings: a 20 s lease, a 10 s time limit
      const process = await startServer(url, {
        PROCESS_ROLE: 'worker',
        WEBHOOK_ALLOW_PRIVATE: 'true',
      });
      let survivor: FastifyInstance | null = null;
      try {
        await waitFor(
          'the first call',
          async () => calls.some((c) => c.path === '/killed'),
          30_000,
        );
        process.child.kill('SIGKILL');
        await process.exited;
        survivor = await workerApp({ leaseSeconds: 20, webhookTimeoutMs: 10_000 });
        const delivery = await waitFor(
          'the delivery sent by another worker',
          async () => {
            const row = await deliveryOf(leadId);
            return row.status === 'SENT' ? row : null;
          },
          45_000,
        );
        const sent = calls.filter((c) => c.path === '/killed');
        expect(sent).toHaveLength(2);
        expect(new Set(sent.map((c) => c.id)).size).toBe(1);
        expect(delivery.attempts).toBe(2);
      } finally {
        await process.stop();
        await survivor?.close();
      }
    },
    90_000,
  );
});
