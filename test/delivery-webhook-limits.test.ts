import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../src/server/db/client';
import { createPackage, insertLeads, subscribe } from './support/admin-fixtures';
import { loginAdmin, registerAgent, setupTestApp } from './support/test-app';

/**
 * What a CRM endpoint can cost the server: Send test's turns and rate, the process's cap on
 * webhook connections, the answer's bytes, and a slow endpoint beside a fast one. The receivers
 * hold their requests open until the test lets them go, so nothing here waits on a clock.
 */
const events: string[] = [];
/** path -> whether the receiver holds its requests open (until `letGo(path)`) */
const holding = new Set<string>();
const held = new Map<string, ServerResponse[]>();
/** path -> requests open right now, and the most ever open at once */
const open = new Map<string, number>();
const mostOpen = new Map<string, number>();
/** path -> an answer written in part and never finished */
const endless = new Set<string>();
let receiver: Server;
let base = '';

beforeAll(async () => {
  receiver = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = req.url ?? '/';
    req.resume();
    req.on('end', () => {
      const now = (open.get(path) ?? 0) + 1;
      open.set(path, now);
      mostOpen.set(path, Math.max(now, mostOpen.get(path) ?? 0));
      res.on('close', () => open.set(path, (open.get(path) ?? 1) - 1));
      events.push(`arrived ${path}`);
      if (endless.has(path)) {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.write('x'.repeat(600));
        return;
      }
      if (holding.has(path)) {
        held.set(path, [...(held.get(path) ?? []), res]);
        return;
      }
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});

afterAll(async () => {
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
});

/** Answers every request the receiver holds on this path, and those that come after. */
function letGo(path: string) {
  holding.delete(path);
  events.push(`let go ${path}`);
  for (const res of held.get(path) ?? []) res.writeHead(200).end('ok');
  held.delete(path);
}

// loopback receivers; the real time limit (long: a held request stays held until let go); two
// webhook connections in the process; three test events a minute
const ctx = setupTestApp(
  { WEBHOOK_ALLOW_PRIVATE: true, WEBHOOK_MAX_CONNECTIONS: 2, WEBHOOK_TESTS_PER_MINUTE: 3 },
  { deliveryQueue: { retryDelaysMs: [150, 150], pollingIntervalSeconds: 0.5 } },
);

async function waitFor<T>(what: string, probe: () => Promise<T | null | undefined | false>) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const arrived = (path: string) => events.filter((e) => e === `arrived ${path}`).length;

let seq = 0;
/** An agent on a CRM package whose webhook is the receiver's `path`. */
async function crmAgent(path: string, status: 'ACTIVE' | 'PAST_DUE' = 'ACTIVE') {
  const agent = await registerAgent(ctx.app, `Limits Agent ${++seq}`);
  const pkg = await createPackage(ctx, { serviceCrm: true });
  await subscribe(ctx, agent.id, pkg.id, status);
  const put = await agent.client.put('/api/agent/delivery', {
    webhook: { url: `${base}${path}`, enabled: true },
  });
  expect(put.statusCode, put.body).toBe(200);
  return agent;
}

async function assign(leadId: number, userId: number) {
  const admin = await loginAdmin(ctx);
  const res = await admin.client.post('/api/admin/leads/assign', { leadId, userId });
  expect(res.statusCode, res.body).toBe(200);
}

const statusesOf = async (agentId: number) =>
  (
    await queryRows<{ status: string }>(
      ctx.database.db,
      sql`select status from deliveries where agent_id = ${agentId} order by id`,
    )
  ).map((r) => r.status);

describe('a slow CRM endpoint', () => {
  it("holds back no other agent's delivery: the fast one arrives while the slow receiver still holds its request, and the slow endpoint gets one call at a time", async () => {
    holding.add('/slow');
    const slow = await crmAgent('/slow');
    const fast = await crmAgent('/fast');
    const slowLeads = await insertLeads(
      ctx,
      Array.from({ length: 4 }, (_, i) => ({ firstName: `Slow${i}` })),
    );
    for (const lead of slowLeads) await assign(lead.id, slow.id);
    await waitFor('the slow endpoint to be called', async () => arrived('/slow') > 0);

    const [lead] = await insertLeads(ctx, [{ firstName: 'Fast' }]);
    await assign(lead.id, fast.id);
    await waitFor('the fast delivery', async () => arrived('/fast') > 0);
    // when the fast one arrived, the slow endpoint was still holding its one call
    expect(open.get('/slow')).toBe(1);
    expect(held.get('/slow')).toHaveLength(1);
    expect(events.indexOf('arrived /fast')).toBeLessThan(
      events.indexOf('let go /slow') === -1 ? Infinity : events.indexOf('let go /slow'),
    );

    letGo('/slow');
    await waitFor('the slow deliveries', async () => {
      const statuses = await statusesOf(slow.id);
      return statuses.length === 4 && statuses.every((s) => s === 'SENT');
    });
    // four leads, four jobs of one endpoint: never two calls to it at once
    expect(mostOpen.get('/slow')).toBe(1);
    expect(arrived('/slow')).toBe(4);
  });
});

describe('Send test', () => {
  it('lets one test event of an agent be on its way at a time: a second one answers 409', async () => {
    holding.add('/test-once');
    const agent = await crmAgent('/test-once');
    const first = agent.client.post('/api/agent/delivery/webhook/test');
    await waitFor('the first test event', async () => arrived('/test-once') > 0);
    const second = await agent.client.post('/api/agent/delivery/webhook/test');
    expect(second.statusCode).toBe(409);
    expect(second.json().message).toMatch(/already on its way/);
    letGo('/test-once');
    const answer = await first;
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toMatchObject({ ok: true, responseCode: 200 });
    expect(arrived('/test-once')).toBe(1);
  });

  it('allows WEBHOOK_TESTS_PER_MINUTE test events a minute per agent, then 429 with Retry-After', async () => {
    const agent = await crmAgent('/test-rate');
    for (let i = 0; i < 3; i++)
      expect((await agent.client.post('/api/agent/delivery/webhook/test')).statusCode).toBe(200);
    const refused = await agent.client.post('/api/agent/delivery/webhook/test');
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toMatch(/At most 3 test events a minute/);
    const wait = Number(refused.headers['retry-after']);
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(60);
    expect(arrived('/test-rate')).toBe(3);
    // another agent's turn is its own
    const other = await crmAgent('/test-rate-other');
    expect((await other.client.post('/api/agent/delivery/webhook/test')).statusCode).toBe(200);
    // a new minute (the shared counter's window gone, as when it ends): tests go again
    await ctx.database.db.execute(
      sql`delete from rate_counters where key = ${`webhook-test:${agent.id}`}`,
    );
    expect((await agent.client.post('/api/agent/delivery/webhook/test')).statusCode).toBe(200);
  });

  it('needs an ACTIVE subscription: a suspended agent is refused with 403 and nothing is sent', async () => {
    const agent = await crmAgent('/test-suspended', 'PAST_DUE');
    const res = await agent.client.post('/api/agent/delivery/webhook/test');
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('Test events need an active subscription');
    expect(arrived('/test-suspended')).toBe(0);
  });

  it('reads no more than the first 500 bytes of the answer: an endless answer still gives the test its result', async () => {
    endless.add('/test-endless');
    const agent = await crmAgent('/test-endless');
    const res = await agent.client.post('/api/agent/delivery/webhook/test');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ ok: true, status: 'SENT', responseCode: 200 });
    expect(res.json().responseBody).toBe('x'.repeat(500));
    // the connection was dropped, not left to the receiver
    await waitFor('the connection to close', async () => open.get('/test-endless') === 0);
  });
});

describe("the process's webhook connections (WEBHOOK_MAX_CONNECTIONS)", () => {
  it('are shared by every send: with all taken, a test event answers 503 and a delivery waits its turn, then arrives', async () => {
    holding.add('/busy-a');
    holding.add('/busy-b');
    const a = await crmAgent('/busy-a');
    const b = await crmAgent('/busy-b');
    const c = await crmAgent('/waits');
    const [leadA, leadB, leadC] = await insertLeads(ctx, [
      { firstName: 'BusyA' },
      { firstName: 'BusyB' },
      { firstName: 'Waits' },
    ]);
    await assign(leadA!.id, a.id);
    await assign(leadB!.id, b.id);
    await waitFor(
      'both connections taken',
      async () => arrived('/busy-a') + arrived('/busy-b') === 2,
    );

    const test = await c.client.post('/api/agent/delivery/webhook/test');
    expect(test.statusCode).toBe(503);
    expect(test.headers['retry-after']).toBe('1');
    expect(test.json().message).toMatch(/try the test again/);

    await assign(leadC!.id, c.id);
    // the waiting delivery is not lost: it goes out once a connection is free, and not before
    letGo('/busy-a');
    await waitFor('the waiting delivery', async () => {
      const statuses = await statusesOf(c.id);
      return statuses[0] === 'SENT';
    });
    expect(events.indexOf('arrived /waits')).toBeGreaterThan(events.indexOf('let go /busy-a'));
    letGo('/busy-b');
    await waitFor('the held delivery', async () => (await statusesOf(b.id))[0] === 'SENT');
  });
});
