/**
 * Alerts to the agent's phone (docs/domain.md): an agent's device subscribes to push, and each
 * lead assigned to the agent reaches it through a push service, encrypted for the device and
 * signed with the server's VAPID key. The push service is a test one on loopback
 * (test/support/push-service.ts) that decrypts what it gets and checks the VAPID header.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/server/app';
import { queryRows } from '../src/server/db/client';
import { assignMaryOrtiz, createPackage, subscribe } from './support/admin-fixtures';
import { type PushDevice, TestPushService } from './support/push-service';
import { type Client, registerAgent, setupTestApp, testConfig } from './support/test-app';

const service = new TestPushService();
beforeAll(() => service.start());
afterAll(() => service.close());

// a push service on loopback: private addresses allowed; short retries (the real ones: 5 s, 30 s...)
const ctx = setupTestApp(
  { WEBHOOK_ALLOW_PRIVATE: true },
  {
    deliveryQueue: {
      webhookTimeoutMs: 2000,
      retryDelaysMs: [150, 150],
      pollingIntervalSeconds: 0.5,
      sweepIntervalMs: 300,
    },
  },
);

async function waitFor<T>(what: string, probe: () => Promise<T | null | undefined | false> | T) {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

let seq = 0;
async function pushAgent() {
  const agent = await registerAgent(ctx.app, `Push Agent ${++seq}`);
  const pkg = await createPackage(ctx);
  await subscribe(ctx, agent.id, pkg.id);
  return agent;
}

async function subscribeDevice(client: Client, device: PushDevice) {
  const res = await client.post('/api/agent/push/subscriptions', {
    endpoint: device.endpoint,
    keys: device.keys,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res;
}

const attemptsOf = (leadId: number) =>
  queryRows<{ status: string; responseCode: number | null; attempt: number }>(
    ctx.database.db,
    sql`select status, response_code as "responseCode", attempt from push_attempts
      where lead_id = ${leadId} order by id`,
  );

const subscriptionCount = async (endpoint: string) =>
  (
    await queryRows<{ n: number }>(
      ctx.database.db,
      sql`select count(*)::int as n from push_subscriptions where endpoint = ${endpoint}`,
    )
  )[0]!.n;

describe('push subscriptions', () => {
  it('gives the public key to anyone, and lists, adds and removes only the agent’s own devices', async () => {
    const key = await ctx.app.inject({ url: '/api/push/public-key' });
    expect(key.statusCode).toBe(200);
    expect(key.json().publicKey).toMatch(/^[A-Za-z0-9_-]{87}$/);

    const agent = await pushAgent();
    const other = await pushAgent();
    const device = service.device();
    const res = await subscribeDevice(agent.client, device);
    expect(res.json().devices).toEqual([
      { endpoint: device.endpoint, createdAt: expect.any(String) },
    ]);
    // the same device again: one row, its keys replaced
    await subscribeDevice(agent.client, device);
    expect(await subscriptionCount(device.endpoint)).toBe(1);
    expect((await other.client.get('/api/agent/push/subscriptions')).json().devices).toEqual([]);
    // another agent cannot remove it
    await other.client.request('DELETE', '/api/agent/push/subscriptions', {
      endpoint: device.endpoint,
    });
    expect(await subscriptionCount(device.endpoint)).toBe(1);
    const del = await agent.client.request('DELETE', '/api/agent/push/subscriptions', {
      endpoint: device.endpoint,
    });
    expect(del.statusCode).toBe(200);
    expect(del.json().devices).toEqual([]);
    expect(await subscriptionCount(device.endpoint)).toBe(0);
  });

  it('refuses a malformed subscription with 400', async () => {
    const agent = await pushAgent();
    const device = service.device();
    const bad = [
      {},
      { endpoint: device.endpoint },
      { endpoint: device.endpoint, keys: { p256dh: 'short', auth: device.keys.auth } },
      // the right length, not a point of P-256
      { endpoint: device.endpoint, keys: { p256dh: `B${'A'.repeat(86)}`, auth: device.keys.auth } },
      { endpoint: device.endpoint, keys: { p256dh: device.keys.p256dh, auth: 'x'.repeat(30) } },
      { endpoint: 'not a url', keys: device.keys },
      { endpoint: 'ftp://127.0.0.1/push', keys: device.keys },
    ];
    for (const body of bad) {
      const res = await agent.client.post('/api/agent/push/subscriptions', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
  });
});

describe('pushing an assigned lead', () => {
  it('reaches the device decrypted, with the lead named, its url, and a valid VAPID JWT', async () => {
    const agent = await pushAgent();
    const phone = service.device();
    const laptop = service.device();
    await subscribeDevice(agent.client, phone);
    await subscribeDevice(agent.client, laptop);
    const leadId = await assignMaryOrtiz(ctx, agent.id);
    const [got] = await waitFor('the push', () =>
      service.of(phone).length ? service.of(phone) : null,
    );
    expect(got!.decryptError).toBeNull();
    expect(got!.payload).toEqual({
      title: 'New lead: Mary O.',
      body: 'Medicare, 67, Austin TX.',
      url: `/dashboard/leads?lead=${leadId}`,
    });
    expect(got!.contentEncoding).toBe('aes128gcm');
    expect(got!.urgency).toBe('high');
    expect(Number(got!.ttl)).toBeGreaterThan(0);
    expect(got!.vapidError).toBeNull();
    expect(got!.claims?.aud).toBe(service.base);
    const key = (await ctx.app.inject({ url: '/api/push/public-key' })).json().publicKey;
    expect(got!.vapidKey).toBe(key);
    // every device of the agent
    await waitFor('the laptop', () => service.of(laptop).length === 1);
    await waitFor('the attempts', async () => (await attemptsOf(leadId)).length === 2);
    expect((await attemptsOf(leadId)).map((a) => a.status)).toEqual(['SENT', 'SENT']);
  });

  it('removes a device the push service says is gone (410)', async () => {
    const agent = await pushAgent();
    const device = service.device([410]);
    await subscribeDevice(agent.client, device);
    const leadId = await assignMaryOrtiz(ctx, agent.id);
    await waitFor('the removal', async () => (await subscriptionCount(device.endpoint)) === 0);
    expect(await attemptsOf(leadId)).toEqual([{ status: 'GONE', responseCode: 410, attempt: 1 }]);
    expect((await agent.client.get('/api/agent/push/subscriptions')).json().devices).toEqual([]);
  });

  it('tries again after a 500, and keeps the device', async () => {
    const agent = await pushAgent();
    const device = service.device([500, 201]);
    await subscribeDevice(agent.client, device);
    const leadId = await assignMaryOrtiz(ctx, agent.id);
    await waitFor('the second attempt', async () => (await attemptsOf(leadId)).length === 2);
    expect(await attemptsOf(leadId)).toEqual([
      { status: 'RETRY', responseCode: 500, attempt: 1 },
      { status: 'SENT', responseCode: 201, attempt: 2 },
    ]);
    const [, second] = service.of(device);
    expect(second!.payload).toMatchObject({ url: `/dashboard/leads?lead=${leadId}` });
    expect(await subscriptionCount(device.endpoint)).toBe(1);
  });

  it('gives up after the last retry of a failing push service', async () => {
    const agent = await pushAgent();
    const device = service.device([503]);
    await subscribeDevice(agent.client, device);
    const leadId = await assignMaryOrtiz(ctx, agent.id);
    await waitFor('three attempts', async () => (await attemptsOf(leadId)).length === 3);
    expect((await attemptsOf(leadId)).map((a) => a.status)).toEqual(['RETRY', 'RETRY', 'FAILED']);
  });

  it("never sends another agent's lead to this agent's devices", async () => {
    const mine = await pushAgent();
    const theirs = await pushAgent();
    const myDevice = service.device();
    const theirDevice = service.device();
    await subscribeDevice(mine.client, myDevice);
    await subscribeDevice(theirs.client, theirDevice);
    const leadId = await assignMaryOrtiz(ctx, theirs.id, { firstName: 'Ann', lastName: 'Lee' });
    await waitFor('their push', () => service.of(theirDevice).length === 1);
    expect(service.of(theirDevice)[0]!.payload).toMatchObject({ title: 'New lead: Ann L.' });
    await new Promise((r) => setTimeout(r, 500));
    expect(service.of(myDevice)).toEqual([]);
    expect(await attemptsOf(leadId)).toHaveLength(1);
  });
});

describe('the key pair and the guard', () => {
  it('keeps the keys across a restart on the same database; refuses a private endpoint when private addresses are not allowed', async () => {
    const before = (await ctx.app.inject({ url: '/api/push/public-key' })).json().publicKey;
    const again = await buildApp({
      config: testConfig(),
      database: ctx.database,
      serveSpa: false,
      deliveryQueue: { enabled: false },
    });
    try {
      expect((await again.inject({ url: '/api/push/public-key' })).json().publicKey).toBe(before);
      const agent = await registerAgent(again, 'Guarded Agent');
      const device = service.device();
      const res = await agent.client.post('/api/agent/push/subscriptions', {
        endpoint: device.endpoint,
        keys: device.keys,
      });
      expect(res.statusCode).toBe(400);
      expect(res.body).toMatch(/https/);
    } finally {
      await again.close();
    }
  });

  it('uses the environment’s key pair when it gives one', async () => {
    const keys = {
      VAPID_PUBLIC_KEY:
        'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM',
      VAPID_PRIVATE_KEY: 'tUxbf-Mx7IJ-gvBSZ5OXLpp3pUkc2uA8aXiJEj3yH1Y',
    };
    const app = await buildApp({
      config: testConfig(keys),
      database: ctx.database,
      serveSpa: false,
      deliveryQueue: { enabled: false },
    });
    try {
      const res = await app.inject({ url: '/api/push/public-key' });
      expect(res.json().publicKey).toBe(keys.VAPID_PUBLIC_KEY);
    } finally {
      await app.close();
    }
  });
});
