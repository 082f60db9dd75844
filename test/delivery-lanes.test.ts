/**
 * The delivery lanes (decision 040): a lead that just came in is never queued behind a run's
 * fan-out. A run gives one lead to each of 40 agents whose CRM endpoints hold every call until
 * the test lets them go, so the run's deliveries stand in the queue; a lead then comes in through
 * the intake, and its webhook reaches its receiver before most of the run's.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/server/db/client';
import { packages } from '../src/server/db/schema';
import { insertLeads } from './support/admin-fixtures';
import { createAgent } from './support/assignment-fixtures';
import { newSourceKey, postIntakeLead } from './support/intake-post';
import { loginAdmin, setupTestApp } from './support/test-app';
import { waitFor } from './support/wait-for';

/** The paths in the order their calls arrived (a lead's repeats included). */
const arrivals: string[] = [];
/** calls to /run/... wait here until the test lets them go */
const held: ServerResponse[] = [];
let holding = true;
let receiver: Server;
let base = '';

beforeAll(async () => {
  receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const path = req.url ?? '/';
      arrivals.push(path);
      if (holding && path.startsWith('/run/')) held.push(res);
      else res.writeHead(200).end('ok');
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

// one delivery worker beside the fresh lane's own: it takes 8 jobs a fetch
const ctx = setupTestApp(
  { WEBHOOK_ALLOW_PRIVATE: true },
  { deliveryQueue: { concurrency: 1, pollingIntervalSeconds: 0.5, webhookTimeoutMs: 5_000 } },
);

/** An agent on a package with the CRM service whose webhook goes to `path` on the receiver. */
async function crmAgent(db: Db, path: string, spec: { states: string[]; quota: number }) {
  const [pkg] = await db
    .insert(packages)
    .values({
      slug: `crm-${randomBytes(6).toString('hex')}`,
      name: 'CRM package',
      category: 'MEDICARE',
      priceMonthlyCents: 9900,
      leadsPerDay: spec.quota,
      commissionPct: 10,
      serviceCrm: true,
    })
    .returning({ id: packages.id });
  const agentId = await createAgent(db, { packageId: pkg!.id, states: spec.states });
  await db.execute(
    sql`insert into delivery_settings (user_id, email_enabled, webhook_url, webhook_enabled, webhook_secret)
        values (${agentId}, false, ${`${base}${path}`}, true, ${`whsec_${randomBytes(24).toString('base64')}`})`,
  );
  return agentId;
}

describe('delivery lanes', () => {
  it("delivers an intake lead's webhook before most of a run's fan-out queued ahead of it", async () => {
    const db = ctx.database.db;
    const RUN = 40;
    for (let i = 0; i < RUN; i++) await crmAgent(db, `/run/${i}`, { states: ['FL'], quota: 1 });
    await crmAgent(db, '/fresh', { states: ['TX'], quota: 5 });
    await insertLeads(
      ctx,
      Array.from({ length: RUN }, (_, i) => ({ firstName: `Run${i}`, state: 'FL', city: 'Tampa' })),
    );
    const admin = await loginAdmin(ctx);
    const run = await admin.client.post('/api/admin/assignment/run');
    expect(run.statusCode, run.body).toBe(200);
    expect(run.json().assigned).toBe(RUN);

    // the run's fan-out made its jobs; a worker took a fetch of them, and their calls are held
    await waitFor('the first of the run', async () => arrivals.length > 0 || null);
    const { key } = await newSourceKey(ctx);
    const intake = await postIntakeLead(ctx, key);
    expect(intake.statusCode, intake.body).toBe(201);
    expect(intake.json().status).toBe('ASSIGNED');
    holding = false;
    for (const res of held.splice(0)) res.writeHead(200).end('ok');

    await waitFor('every webhook', async () =>
      arrivals.filter((p) => p.startsWith('/run/')).length >= RUN && arrivals.includes('/fresh')
        ? true
        : null,
    );
    const runBefore = arrivals
      .slice(0, arrivals.indexOf('/fresh'))
      .filter((p) => p.startsWith('/run/')).length;
    // in one queue, first in first out, it would come after all 40
    expect(runBefore).toBeLessThan(RUN / 2);
    expect(arrivals.filter((p) => p === '/fresh')).toHaveLength(1);
  });
});
