/**
 * Live updates (docs/domain.md, Delivery of assigned leads): the SSE stream of GET /api/agent/events over a real HTTP listen, fed by
 * LISTEN/NOTIFY from the assignment's transaction; the bell's notifications.
 */
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/server/app';
import { openDatabase } from '../src/server/db/client';
import { sweepExpiredSessions } from '../src/server/modules/auth/session-sweeper';
import { LISTENER_APPLICATION_NAME } from '../src/server/modules/notifications/live-events';
import { createPackage, insertLeads, subscribe } from './support/admin-fixtures';
import { openStream, type Stream } from './support/event-stream';
import { Client, loginAdmin, registerAgent, setupTestApp, testConfig } from './support/test-app';
import { TEST_DB } from './support/test-db';

// Short request and idle timeouts: a stream must outlive both (it is not a slow request).
const TIMEOUTS = {
  REQUEST_TIMEOUT_MS: 2000,
  HEADERS_TIMEOUT_MS: 1000,
  CONNECTION_TIMEOUT_MS: 1000,
};
const ctx = setupTestApp(TIMEOUTS);

let port: number;
beforeAll(async () => {
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  port = (ctx.app.server.address() as AddressInfo).port;
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let seq = 0;
const tag = (prefix: string) => `${prefix}${process.pid}x${Date.now().toString(36)}x${++seq}`;

/** Whether the stream stays silent for a while (no lead.assigned event). */
async function staysSilent(stream: Stream, ms = 600) {
  await sleep(ms);
  return stream.events.length === 0;
}

/** Waits for the server to end the stream (it fails when the stream stays open for 5 s). */
async function serverEnds(stream: Stream) {
  const deadline = Date.now() + 5000;
  while (!stream.closed && Date.now() < deadline) await sleep(20);
  return stream.closed;
}

/** The agent signed in a second time, as from another browser: a session of its own. */
async function secondSession(agent: Awaited<ReturnType<typeof registerAgent>>) {
  const client = new Client(ctx.app);
  const res = await client.post('/api/auth/login', {
    email: agent.email,
    password: agent.password,
  });
  expect(res.statusCode).toBe(200);
  return client;
}

async function assignManually(admin: Awaited<ReturnType<typeof loginAdmin>>, agentId: number) {
  const first = tag('Jane');
  const [lead] = await insertLeads(ctx, [
    { firstName: first, lastName: 'Doe', city: 'Miami', state: 'FL' },
  ]);
  const res = await admin.client.post('/api/admin/leads/assign', {
    leadId: lead.id,
    userId: agentId,
  });
  expect(res.statusCode, res.body).toBe(200);
  return { id: lead.id, name: `${first} Doe` };
}

describe('GET /api/agent/events', () => {
  it('refuses anonymous (401) and admins (403), and is a stream for an agent', async () => {
    const anonymous = await openStream(port, undefined);
    expect(anonymous.status).toBe(401);
    expect(JSON.parse(anonymous.body)).toEqual({ message: expect.any(String) });
    const admin = await loginAdmin(ctx);
    expect((await openStream(port, admin.client.cookie)).status).toBe(403);

    const agent = await registerAgent(ctx.app);
    const stream = await openStream(port, agent.client.cookie);
    try {
      expect(stream.status).toBe(200);
      expect(stream.headers['content-type']).toBe('text/event-stream; charset=utf-8');
      expect(stream.headers['cache-control']).toBe('no-store, no-transform');
      expect(stream.headers['content-encoding']).toBeUndefined();
      expect(stream.headers['content-security-policy']).toBeDefined();
      expect(stream.comments).toContain('connected');
    } finally {
      stream.close();
    }
    // asked as something else than an event stream: a plain 400, no stream left open
    const res = await agent.client.get('/api/agent/events');
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/Accept: text\/event-stream/);
  });

  it('a manual assignment reaches the agent, outliving the request and idle timeouts, and not another agent', async () => {
    const admin = await loginAdmin(ctx);
    const agent = await registerAgent(ctx.app);
    const other = await registerAgent(ctx.app);
    const mine = await openStream(port, agent.client.cookie);
    const theirs = await openStream(port, other.client.cookie);
    try {
      // longer than REQUEST_TIMEOUT_MS and CONNECTION_TIMEOUT_MS with nothing sent
      await sleep(TIMEOUTS.REQUEST_TIMEOUT_MS + 1000);
      expect(mine.closed).toBe(false);
      const lead = await assignManually(admin, agent.id);
      const event = await mine.nth(1);
      expect(event.data).toEqual({
        leadId: lead.id,
        name: lead.name,
        city: 'Miami',
        state: 'FL',
        category: 'MEDICARE',
        more: 0,
      });
      expect(await staysSilent(theirs)).toBe(true);
    } finally {
      mine.close();
      theirs.close();
    }
  });

  it('an assignment that rolls back sends nothing and writes no notification', async () => {
    const admin = await loginAdmin(ctx);
    const agent = await registerAgent(ctx.app);
    const stream = await openStream(port, agent.client.cookie);
    const db = ctx.database.db;
    // refused at COMMIT, after the NOTIFY was queued: the transaction rolls back whole
    await db.execute(sql`create or replace function lf_test_refuse_commit() returns trigger
      language plpgsql as $$ begin raise exception 'refused at commit by test'; end $$`);
    await db.execute(sql`create constraint trigger lf_test_refuse_commit after insert on notifications
      deferrable initially deferred for each row execute function lf_test_refuse_commit()`);
    try {
      const [lead] = await insertLeads(ctx, [{ firstName: tag('Rolled') }]);
      const res = await admin.client.post('/api/admin/leads/assign', {
        leadId: lead.id,
        userId: agent.id,
      });
      expect(res.statusCode).toBe(500);
      expect(await staysSilent(stream, 1000)).toBe(true);
      expect((await agent.client.get('/api/agent/notifications')).json()).toEqual({
        items: [],
        unread: 0,
      });
    } finally {
      await db.execute(sql`drop trigger lf_test_refuse_commit on notifications`);
      stream.close();
    }
  });

  it('an engine run gives each agent one event naming a lead, with how many more came', async () => {
    const admin = await loginAdmin(ctx);
    const pkg = await createPackage(ctx, { category: 'FINAL_EXPENSE', leadsPerDay: 3 });
    const a = await registerAgent(ctx.app);
    const b = await registerAgent(ctx.app);
    await subscribe(ctx, a.id, pkg.id);
    await subscribe(ctx, b.id, pkg.id);
    const first = tag('Run');
    await insertLeads(
      ctx,
      Array.from({ length: 5 }, (_, i) => ({
        firstName: `${first}${i}`,
        category: 'FINAL_EXPENSE' as const,
        city: 'Tulsa',
        state: 'OK',
      })),
    );
    const streamA = await openStream(port, a.client.cookie);
    const streamB = await openStream(port, b.client.cookie);
    try {
      const res = await admin.client.post('/api/admin/assignment/run');
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ assigned: 5, agentsAssigned: 2 });
      const eventA = (await streamA.nth(1)).data as { more: number; leadId: number };
      const eventB = (await streamB.nth(1)).data as { more: number; leadId: number };
      expect([eventA.more, eventB.more].sort()).toEqual([1, 2]);
      expect(eventA).toMatchObject({ city: 'Tulsa', state: 'OK', category: 'FINAL_EXPENSE' });
      await sleep(300);
      expect(streamA.events).toHaveLength(1);
      expect(streamB.events).toHaveLength(1);

      // one notification per agent for the run, naming the lead of the event
      const bell = (await a.client.get('/api/agent/notifications')).json();
      expect(bell.unread).toBe(1);
      expect(bell.items).toHaveLength(1);
      expect(bell.items[0]).toMatchObject({
        kind: 'lead.assigned',
        leadId: eventA.leadId,
        title: `${eventA.more + 1} new leads`,
        readAt: null,
      });
      expect(bell.items[0].body).toMatch(
        new RegExp(`^${first}\\d, Tulsa, OK and ${eventA.more} more$`),
      );
    } finally {
      streamA.close();
      streamB.close();
    }
  });

  it('a HEAD request ends at once and leaves no stream behind', async () => {
    const agent = await registerAgent(ctx.app);
    const heads = [];
    for (let i = 0; i < 6; i++) {
      heads.push(
        await ctx.app.inject({
          method: 'HEAD',
          url: '/api/agent/events',
          headers: { cookie: agent.client.cookie!, accept: 'text/event-stream' },
        }),
      );
    }
    expect(heads.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200, 200]);
    const stream = await openStream(port, agent.client.cookie);
    expect(stream.status).toBe(200);
    stream.close();
  });

  it(`allows a few streams per agent, then answers 429`, async () => {
    const agent = await registerAgent(ctx.app);
    const streams = [];
    try {
      for (let i = 0; i < 5; i++) streams.push(await openStream(port, agent.client.cookie));
      expect(streams.map((s) => s.status)).toEqual([200, 200, 200, 200, 200]);
      const sixth = await openStream(port, agent.client.cookie);
      expect(sixth.status).toBe(429);
      streams[0].close();
      await sleep(200);
      const again = await openStream(port, agent.client.cookie);
      streams.push(again);
      expect(again.status).toBe(200);
    } finally {
      for (const s of streams) s.close();
    }
  });
});

describe('a stream ends with its session, a suspension or the account disabled', () => {
  it("logging out ends that session's streams at once and no later lead reaches them; another session's stream goes on", async () => {
    const admin = await loginAdmin(ctx);
    const agent = await registerAgent(ctx.app);
    const other = await secondSession(agent);
    const loggedOut = await openStream(port, agent.client.cookie);
    const alsoLoggedOut = await openStream(port, agent.client.cookie);
    const stays = await openStream(port, other.cookie);
    try {
      expect((await agent.client.post('/api/auth/logout')).statusCode).toBe(200);
      expect(await serverEnds(loggedOut)).toBe(true);
      expect(await serverEnds(alsoLoggedOut)).toBe(true);
      const lead = await assignManually(admin, agent.id);
      expect((await stays.nth(1)).data).toMatchObject({ leadId: lead.id, name: lead.name });
      expect(stays.closed).toBe(false);
      expect(loggedOut.events).toEqual([]);
      expect(alsoLoggedOut.events).toEqual([]);
      expect(loggedOut.body).not.toContain(lead.name);
    } finally {
      for (const s of [loggedOut, alsoLoggedOut, stays]) s.close();
    }
  });

  it("an admin's suspension (INACTIVE) ends every stream of the agent, and no later lead reaches them", async () => {
    const admin = await loginAdmin(ctx);
    const pkg = await createPackage(ctx);
    const agent = await registerAgent(ctx.app);
    const bystander = await registerAgent(ctx.app);
    await subscribe(ctx, agent.id, pkg.id);
    const other = await secondSession(agent);
    const streams = [
      await openStream(port, agent.client.cookie),
      await openStream(port, other.cookie),
    ];
    const theirs = await openStream(port, bystander.client.cookie);
    try {
      const res = await admin.client.patch(`/api/admin/agents/${agent.id}/subscription`, {
        status: 'INACTIVE',
      });
      expect(res.statusCode, res.body).toBe(200);
      for (const stream of streams) expect(await serverEnds(stream)).toBe(true);
      const lead = await assignManually(admin, agent.id);
      for (const stream of streams) expect(stream.body).not.toContain(lead.name);
      // another agent's stream is not touched
      expect(theirs.closed).toBe(false);
    } finally {
      for (const s of [...streams, theirs]) s.close();
    }
  });

  it('disabling the account ends every stream of it at once, and its reconnect is refused', async () => {
    const admin = await loginAdmin(ctx);
    const agent = await registerAgent(ctx.app);
    const other = await secondSession(agent);
    const streams = [
      await openStream(port, agent.client.cookie),
      await openStream(port, other.cookie),
    ];
    try {
      const res = await admin.client.patch(`/api/admin/users/${agent.id}`, { disabled: true });
      expect(res.statusCode, res.body).toBe(200);
      for (const stream of streams) expect(await serverEnds(stream)).toBe(true);
      expect((await openStream(port, agent.client.cookie)).status).toBe(401);
    } finally {
      for (const s of streams) s.close();
    }
  });

  it('the expiry sweep deleting a session ends its streams', async () => {
    const agent = await registerAgent(ctx.app);
    const stream = await openStream(port, agent.client.cookie);
    try {
      await ctx.database.db.execute(
        sql`update sessions set expires_at = now() - interval '1 second' where user_id = ${agent.id}`,
      );
      await sweepExpiredSessions(ctx.app);
      expect(await serverEnds(stream)).toBe(true);
    } finally {
      stream.close();
    }
  });

  it('a stream ends when its session expires, with no request nor sweep in between', async () => {
    const agent = await registerAgent(ctx.app);
    await ctx.database.db.execute(
      sql`update sessions set expires_at = now() + interval '1 second' where user_id = ${agent.id}`,
    );
    const stream = await openStream(port, agent.client.cookie);
    try {
      expect(stream.status).toBe(200);
      expect(await serverEnds(stream)).toBe(true);
      expect((await openStream(port, agent.client.cookie)).status).toBe(401);
    } finally {
      stream.close();
    }
  });
});

describe('caps on open streams, whoever opens them', () => {
  // behind a trusted proxy (loopback), X-Forwarded-For names each client's address
  const LIMITS = { LIVE_STREAMS_PER_ADDRESS: 2, LIVE_STREAMS_TOTAL: 3, TRUST_PROXY: '127.0.0.1' };
  let capped: FastifyInstance;
  let cappedPort: number;
  beforeAll(async () => {
    capped = await buildApp({
      config: testConfig({ ...TIMEOUTS, ...LIMITS }),
      database: ctx.database,
      serveSpa: false,
    });
    await capped.listen({ port: 0, host: '127.0.0.1' });
    cappedPort = (capped.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await capped?.close();
  });
  const from = (address: string) => ({ 'x-forwarded-for': address });

  it('one client address (an IPv6 /64 counted as one) gets at most LIVE_STREAMS_PER_ADDRESS, then 429 with Retry-After', async () => {
    const agents = [];
    for (let i = 0; i < 3; i++) agents.push(await registerAgent(ctx.app));
    const open: Stream[] = [];
    try {
      for (const [i, address] of ['2001:db8:1:2::1', '2001:db8:1:2:ffff::9'].entries()) {
        open.push(await openStream(cappedPort, agents[i].client.cookie, from(address)));
      }
      expect(open.map((s) => s.status)).toEqual([200, 200]);
      const third = await openStream(cappedPort, agents[2].client.cookie, from('2001:db8:1:2::3'));
      open.push(third);
      expect(third.status).toBe(429);
      expect(third.headers['retry-after']).toBe('30');
      expect(JSON.parse(third.body).message).toMatch(/this address/);
      // another /64 is another client
      const elsewhere = await openStream(
        cappedPort,
        agents[2].client.cookie,
        from('2001:db8:1:3::3'),
      );
      open.push(elsewhere);
      expect(elsewhere.status).toBe(200);
    } finally {
      for (const s of open) s.close();
    }
  });

  it('the process holds at most LIVE_STREAMS_TOTAL streams in all, then 429 with Retry-After until one closes', async () => {
    const agents = [];
    for (let i = 0; i < 4; i++) agents.push(await registerAgent(ctx.app));
    const open: Stream[] = [];
    try {
      for (let i = 0; i < 3; i++) {
        open.push(
          await openStream(cappedPort, agents[i].client.cookie, from(`198.51.100.${i + 1}`)),
        );
      }
      expect(open.map((s) => s.status)).toEqual([200, 200, 200]);
      const fourth = await openStream(cappedPort, agents[3].client.cookie, from('198.51.100.4'));
      open.push(fourth);
      expect(fourth.status).toBe(429);
      expect(fourth.headers['retry-after']).toBe('30');
      open[0].close();
      const deadline = Date.now() + 5000;
      let again = await openStream(cappedPort, agents[3].client.cookie, from('198.51.100.4'));
      while (again.status === 429 && Date.now() < deadline) {
        await sleep(50);
        again = await openStream(cappedPort, agents[3].client.cookie, from('198.51.100.4'));
      }
      open.push(again);
      expect(again.status).toBe(200);
    } finally {
      for (const s of open) s.close();
    }
  });
});

describe('closing the app', () => {
  it('ends open streams, so that closing does not wait for them', async () => {
    const other = await buildApp({
      config: testConfig(TIMEOUTS),
      database: ctx.database,
      serveSpa: false,
    });
    await other.listen({ port: 0, host: '127.0.0.1' });
    const agent = await registerAgent(ctx.app);
    const stream = await openStream(
      (other.server.address() as AddressInfo).port,
      agent.client.cookie,
    );
    expect(stream.status).toBe(200);
    const started = Date.now();
    await other.close();
    expect(Date.now() - started).toBeLessThan(3000);
    await sleep(100);
    expect(stream.closed).toBe(true);
  });
});

describe('notifications', () => {
  it('lists newest first with the unread count, and marks named ones or all read', async () => {
    const admin = await loginAdmin(ctx);
    const agent = await registerAgent(ctx.app);
    const other = await registerAgent(ctx.app);
    const leads = [];
    for (let i = 0; i < 3; i++) leads.push(await assignManually(admin, agent.id));
    await assignManually(admin, other.id);

    const list = (await agent.client.get('/api/agent/notifications')).json();
    expect(list.unread).toBe(3);
    expect(list.items.map((n: { leadId: number }) => n.leadId)).toEqual(
      leads.map((l) => l.id).reverse(),
    );
    expect(list.items[0]).toMatchObject({
      kind: 'lead.assigned',
      title: `New lead: ${leads[2].name}`,
      body: 'Miami, FL · MEDICARE',
      readAt: null,
    });
    expect(list.items[0].createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);

    // another agent's ids are ignored
    const theirs = (await other.client.get('/api/agent/notifications')).json();
    const foreign = await agent.client.post('/api/agent/notifications/read', {
      ids: [theirs.items[0].id],
    });
    expect(foreign.json().unread).toBe(3);
    expect((await other.client.get('/api/agent/notifications')).json().unread).toBe(1);

    const one = await agent.client.post('/api/agent/notifications/read', {
      ids: [list.items[1].id],
    });
    expect(one.statusCode).toBe(200);
    expect(one.json().unread).toBe(2);
    expect(one.json().items[1].readAt).toEqual(expect.any(String));
    const all = await agent.client.post('/api/agent/notifications/read', {});
    expect(all.json().unread).toBe(0);
    expect((await other.client.get('/api/agent/notifications')).json().unread).toBe(1);
  });

  it('serves admins on their own path, each role only its own', async () => {
    const admin = await loginAdmin(ctx);
    const agent = await registerAgent(ctx.app);
    await ctx.database.db.execute(sql`insert into notifications (user_id, kind, title, body)
      values (${admin.id}, 'webhook.disabled', 'CRM endpoint switched off', 'After 20 failures')`);
    const list = (await admin.client.get('/api/admin/notifications')).json();
    expect(list).toMatchObject({ unread: 1, items: [{ title: 'CRM endpoint switched off' }] });
    expect((await admin.client.post('/api/admin/notifications/read', {})).json().unread).toBe(0);
    expect((await agent.client.get('/api/admin/notifications')).statusCode).toBe(403);
    expect((await admin.client.get('/api/agent/notifications')).statusCode).toBe(403);
  });
});

// PostgreSQL only: PGlite is embedded in one process, so there is no second process to reach
describe.runIf(TEST_DB === 'postgres')(
  'two app processes on one PostgreSQL database (PostgreSQL only)',
  () => {
    let appB: FastifyInstance;
    let portB: number;
    let closeB: () => Promise<void>;

    beforeAll(async () => {
      const url = (ctx.database as { url?: string }).url;
      if (!url) throw new Error('the PostgreSQL test database has no url');
      const database = await openDatabase({ databaseUrl: url, poolSize: 2 });
      appB = await buildApp({ config: testConfig(TIMEOUTS), database, serveSpa: false });
      await appB.listen({ port: 0, host: '127.0.0.1' });
      portB = (appB.server.address() as AddressInfo).port;
      closeB = async () => {
        await appB.close();
        await database.close();
      };
    });
    afterAll(async () => {
      await closeB?.();
    });

    it('logging out through app A ends the stream held by app B before a later lead reaches it', async () => {
      const admin = await loginAdmin(ctx);
      const agent = await registerAgent(ctx.app);
      const onB = await openStream(portB, agent.client.cookie);
      try {
        expect(onB.status).toBe(200);
        expect((await agent.client.post('/api/auth/logout')).statusCode).toBe(200);
        const lead = await assignManually(admin, agent.id);
        expect(await serverEnds(onB)).toBe(true);
        expect(onB.events).toEqual([]);
        expect(onB.body).not.toContain(lead.name);
      } finally {
        onB.close();
      }
    });

    it("an admin's suspension through app A ends the agent's stream held by app B", async () => {
      const admin = await loginAdmin(ctx);
      const pkg = await createPackage(ctx);
      const agent = await registerAgent(ctx.app);
      await subscribe(ctx, agent.id, pkg.id);
      const onB = await openStream(portB, agent.client.cookie);
      try {
        const res = await admin.client.patch(`/api/admin/agents/${agent.id}/subscription`, {
          status: 'CANCELED',
        });
        expect(res.statusCode, res.body).toBe(200);
        expect(await serverEnds(onB)).toBe(true);
      } finally {
        onB.close();
      }
    });

    it('a lead assigned through app A reaches the agent connected to app B', async () => {
      const admin = await loginAdmin(ctx); // signed in on A
      const agent = await registerAgent(ctx.app);
      const onB = await openStream(portB, agent.client.cookie);
      try {
        expect(onB.status).toBe(200);
        const lead = await assignManually(admin, agent.id);
        expect((await onB.nth(1)).data).toMatchObject({ leadId: lead.id, name: lead.name });
      } finally {
        onB.close();
      }
    });
  },
);

describe.runIf(TEST_DB === 'postgres')('the listener connection (PostgreSQL only)', () => {
  it('connects again after its connection is killed; open streams resync, then get events', async () => {
    const admin = await loginAdmin(ctx);
    const agent = await registerAgent(ctx.app);
    const stream = await openStream(port, agent.client.cookie);
    const listeners = sql`select count(*)::int as n from pg_stat_activity
      where datname = current_database() and application_name = ${LISTENER_APPLICATION_NAME}`;
    const count = async () =>
      ((await ctx.database.db.execute(listeners)) as unknown as { rows: { n: number }[] }).rows[0]
        .n;
    try {
      const before = await count();
      expect(before).toBeGreaterThanOrEqual(1);
      await ctx.database.db.execute(sql`select pg_terminate_backend(pid) from pg_stat_activity
        where datname = current_database() and application_name = ${LISTENER_APPLICATION_NAME}`);
      // the first retry comes after 0.5 s
      const deadline = Date.now() + 10_000;
      while (!stream.events.some((e) => e.event === 'resync') && Date.now() < deadline) {
        await sleep(50);
      }
      expect(stream.events.map((e) => e.event)).toContain('resync');
      expect(await count()).toBe(before);
      const lead = await assignManually(admin, agent.id);
      expect((await stream.nth(1)).data).toMatchObject({ leadId: lead.id });
    } finally {
      stream.close();
    }
  });
});
