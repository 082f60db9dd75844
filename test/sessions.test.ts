/**
 * Sessions and requests, beyond test/auth.test.ts: fixation, stale and expired sessions on every
 * protected route, cookie attributes behind HTTPS, cross-site requests on every state-changing
 * route, login throttling under a concurrent burst, and what a 5xx answer holds.
 */
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/server/app';
import { openDatabase } from '../src/server/db/client';
import { sessions } from '../src/server/db/schema';
import { sweepExpiredSessions } from '../src/server/modules/auth/session-sweeper';
import { hashToken } from '../src/server/modules/auth/sessions.repository';
import {
  CALLERS,
  createFixtures,
  type Fixtures,
  ROUTES,
  send,
  tableChecksums,
} from './support/route-table';
import {
  Client,
  loginAdmin,
  registerAgent,
  setupTestApp,
  testConfig,
  uniqueEmail,
} from './support/test-app';
import { createTestDatabase, TEST_DB } from './support/test-db';

const ctx = setupTestApp();
let fx: Fixtures;
beforeAll(async () => {
  fx = await createFixtures(ctx);
});

/** Routes a session opens (the intake's 401 is about its API key: test/intake.test.ts). */
const PROTECTED = ROUTES.filter(
  (r) => r.expect.anonymous === 401 && !r.path.startsWith('/api/v1/'),
);
const STATE_CHANGING = ROUTES.filter((r) => r.method !== 'GET');

describe('session id at login', () => {
  it('never adopts a session id planted before login (fixation)', async () => {
    const agent = await registerAgent(ctx.app);
    const planted = 'attacker-chosen-token-0123456789abcdefghijklmnop';
    const victim = new Client(ctx.app);
    victim.cookie = `lf_session=${planted}`;
    const res = await victim.post('/api/auth/login', {
      email: agent.email,
      password: agent.password,
    });
    expect(res.statusCode).toBe(200);
    const issued = res.cookies.find((c) => c.name === 'lf_session')!.value;
    expect(issued).not.toBe(planted);
    const attacker = new Client(ctx.app);
    attacker.cookie = `lf_session=${planted}`;
    expect((await attacker.get('/api/auth/me')).statusCode).toBe(401);
    const stored = await ctx.database.db
      .select()
      .from(sessions)
      .where(eq(sessions.tokenHash, hashToken(planted)));
    expect(stored).toHaveLength(0);
  });

  it('issues a new 256-bit token at every login and drops the one presented, also when switching user', async () => {
    const a = await registerAgent(ctx.app);
    const b = await registerAgent(ctx.app);
    const tokens = new Set<string>();
    const client = a.client;
    for (let i = 0; i < 10; i++) {
      const who = i % 2 === 0 ? b : a;
      const previous = client.cookie!;
      const res = await client.post('/api/auth/login', {
        email: who.email,
        password: who.password,
      });
      expect(res.statusCode).toBe(200);
      const token = client.cookie!.slice('lf_session='.length);
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      tokens.add(token);
      const replay = new Client(ctx.app);
      replay.cookie = previous;
      expect((await replay.get('/api/auth/me')).statusCode, 'the previous session').toBe(401);
      expect((await client.get('/api/auth/me')).json().id).toBe(who.id);
    }
    expect(tokens.size).toBe(10);
  });
});

describe('logged-out and expired sessions', () => {
  /** Calls every protected route with the given cookie: each must answer 401 and change nothing. */
  async function expectRefusedEverywhere(cookie: string) {
    for (const route of PROTECTED) {
      const spec = await route.request(fx, 'agent');
      const before = await tableChecksums(ctx);
      const stale = new Client(ctx.app);
      stale.cookie = cookie;
      const res = await stale.request(route.method, spec.url, spec.body, spec.headers);
      expect(res.statusCode, `${route.method} ${route.path}: ${res.body}`).toBe(401);
      expect(res.json()).toEqual({ message: 'Not authenticated' });
      expect(await tableChecksums(ctx), `${route.method} ${route.path}`).toEqual(before);
    }
  }

  it('refuses a logged-out session on every protected route', async () => {
    for (const login of [() => registerAgent(ctx.app), () => loginAdmin(ctx)]) {
      const user = await login();
      const cookie = user.client.cookie!;
      expect((await user.client.post('/api/auth/logout')).statusCode).toBe(200);
      await expectRefusedEverywhere(cookie);
    }
  });

  it('refuses a session past its absolute expiry, or idle too long, on every protected route', async () => {
    for (const expire of [
      { expiresAt: new Date(Date.now() - 1000) },
      { lastSeenAt: new Date(Date.now() - ctx.app.config.SESSION_IDLE_MINUTES * 60_000 - 1000) },
    ]) {
      const admin = await loginAdmin(ctx);
      await ctx.database.db.update(sessions).set(expire).where(eq(sessions.userId, admin.id));
      await expectRefusedEverywhere(admin.client.cookie!);
    }
  });

  it('deletes sessions past either expiry when the sweeper runs, and keeps live ones', async () => {
    const idleMs = ctx.app.config.SESSION_IDLE_MINUTES * 60_000;
    const expired = await loginAdmin(ctx);
    const idle = await registerAgent(ctx.app);
    const live = await registerAgent(ctx.app);
    await ctx.database.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.userId, expired.id));
    await ctx.database.db
      .update(sessions)
      .set({ lastSeenAt: new Date(Date.now() - idleMs - 1000) })
      .where(eq(sessions.userId, idle.id));
    const tokenOf = (client: Client) => hashToken(client.cookie!.slice('lf_session='.length));
    const stored = async (client: Client) =>
      (
        await ctx.database.db
          .select()
          .from(sessions)
          .where(eq(sessions.tokenHash, tokenOf(client)))
      ).length;
    expect(await stored(expired.client)).toBe(1);
    expect(await stored(idle.client)).toBe(1);

    await sweepExpiredSessions(ctx.app);

    expect(await stored(expired.client)).toBe(0);
    expect(await stored(idle.client)).toBe(0);
    expect(await stored(live.client)).toBe(1);
    expect((await live.client.get('/api/auth/me')).statusCode).toBe(200);
  });

  it('keeps a session in use alive: a request inside the idle window moves its idle clock', async () => {
    const agent = await registerAgent(ctx.app);
    const idleMs = ctx.app.config.SESSION_IDLE_MINUTES * 60_000;
    const nearlyIdle = new Date(Date.now() - idleMs + 60_000);
    await ctx.database.db
      .update(sessions)
      .set({ lastSeenAt: nearlyIdle })
      .where(eq(sessions.userId, agent.id));
    expect((await agent.client.get('/api/auth/me')).statusCode).toBe(200);
    const [row] = await ctx.database.db
      .select()
      .from(sessions)
      .where(eq(sessions.userId, agent.id));
    expect(Date.now() - row.lastSeenAt.getTime()).toBeLessThan(10_000);
  });
});

describe('cookie attributes', () => {
  it('over plain http: HttpOnly, SameSite=Lax, Path=/, no Secure, 14 days; logout clears it alike', async () => {
    const agent = await registerAgent(ctx.app);
    const login = await new Client(ctx.app).post('/api/auth/login', {
      email: agent.email,
      password: agent.password,
    });
    const cookie = login.cookies.find((c) => c.name === 'lf_session')!;
    expect(cookie).toMatchObject({
      httpOnly: true,
      sameSite: 'Lax',
      path: '/',
      maxAge: 14 * 86_400,
    });
    expect(cookie.secure).toBeFalsy();
    expect(cookie.domain).toBeUndefined();
    expect(login.headers['strict-transport-security']).toBeUndefined();

    const out = await agent.client.post('/api/auth/logout');
    const cleared = out.cookies.find((c) => c.name === 'lf_session')!;
    expect(cleared.value).toBe('');
    expect(cleared).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(cleared.expires!.getTime()).toBeLessThanOrEqual(Date.now());
  });

  describe('with COOKIE_SECURE=true', () => {
    const secure = setupTestApp({ COOKIE_SECURE: true });

    it('adds Secure to the cookie (set and cleared) and sends HSTS', async () => {
      const agent = await registerAgent(secure.app);
      const login = await new Client(secure.app).post('/api/auth/login', {
        email: agent.email,
        password: agent.password,
      });
      expect(login.statusCode).toBe(200);
      const cookie = login.cookies.find((c) => c.name === 'lf_session')!;
      expect(cookie).toMatchObject({
        httpOnly: true,
        secure: true,
        sameSite: 'Lax',
        path: '/',
        maxAge: 14 * 86_400,
      });
      const raw = String(login.headers['set-cookie']);
      expect(raw).toMatch(/; Secure/);
      expect(raw).toMatch(/; HttpOnly/);
      expect(raw).toMatch(/; SameSite=Lax/);
      expect(login.headers['strict-transport-security']).toBe(
        'max-age=15552000; includeSubDomains',
      );
      const health = await secure.app.inject({ method: 'GET', url: '/api/health' });
      expect(health.headers['strict-transport-security']).toBe(
        'max-age=15552000; includeSubDomains',
      );
      const out = await agent.client.post('/api/auth/logout');
      expect(out.cookies.find((c) => c.name === 'lf_session')).toMatchObject({
        value: '',
        secure: true,
        httpOnly: true,
      });
    });
  });
});

describe('cross-site requests', () => {
  const CROSS_SITE: Record<string, Record<string, string>> = {
    'Origin of another site': { origin: 'https://evil.example' },
    'Origin of another port': { origin: 'http://localhost:8080' },
    'Origin null': { origin: 'null' },
    'Sec-Fetch-Site cross-site': { 'sec-fetch-site': 'cross-site' },
    'Sec-Fetch-Site same-site': { 'sec-fetch-site': 'same-site' },
  };

  it('refuses every state-changing route from another site (changing nothing), and serves it same-origin', async () => {
    let refused = 0;
    for (const route of STATE_CHANGING) {
      // the caller this route serves (admin for admin routes, agent A for agent routes)
      const caller = CALLERS.find((c) => c !== 'anonymous' && route.expect[c] < 300) ?? 'anonymous';
      for (const [label, headers] of Object.entries(CROSS_SITE)) {
        const spec = await route.request(fx, caller);
        const before = await tableChecksums(ctx);
        const res = await send(fx, caller, route.method, spec, headers);
        expect(res.statusCode, `${route.method} ${route.path}, ${label}: ${res.body}`).toBe(403);
        expect(res.json()).toEqual({ message: 'Cross-site request refused' });
        expect(await tableChecksums(ctx), `${route.method} ${route.path}, ${label}`).toEqual(
          before,
        );
        refused++;
      }
      const sameOrigin: Record<string, string>[] = [
        { origin: 'http://localhost', 'sec-fetch-site': 'same-origin' },
        { origin: 'http://localhost:80' },
        { 'sec-fetch-site': 'same-origin' },
        {},
      ];
      for (const headers of sameOrigin) {
        const spec = await route.request(fx, caller);
        const res = await send(fx, caller, route.method, spec, headers);
        expect(res.statusCode, `${route.method} ${route.path} same-origin: ${res.body}`).toBe(
          route.expect[caller],
        );
      }
    }
    expect(STATE_CHANGING.length).toBeGreaterThan(12);
    expect(refused).toBe(STATE_CHANGING.length * Object.keys(CROSS_SITE).length);
    // every state-changing route five times over, with the tables' checksums around each
  }, 240_000);
});

describe('what browsers are told', () => {
  it('sends the security headers SECURITY.md lists', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/health' });
    const csp = String(res.headers['content-security-policy']);
    for (const directive of [
      "default-src 'self'",
      "script-src 'self'",
      "object-src 'none'",
      "frame-ancestors 'none'",
      "base-uri 'self'",
      "form-action 'self'",
    ]) {
      expect(csp).toContain(directive);
    }
    expect(csp).not.toMatch(/script-src[^;]*(unsafe-inline|unsafe-eval|\*)/);
    expect(res.headers).toMatchObject({
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'SAMEORIGIN',
      'referrer-policy': 'no-referrer',
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-resource-policy': 'same-origin',
    });
  });

  it('reads JSON bodies only as application/json: the same body as text or a form is refused', async () => {
    const body = JSON.stringify({
      name: 'Form',
      email: uniqueEmail('form'),
      password: 'secret123',
    });
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data']) {
      const before = await tableChecksums(ctx);
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/auth/register',
        headers: { 'content-type': type },
        payload: body,
      });
      expect([400, 415], `${type}: ${res.body}`).toContain(res.statusCode);
      expect(await tableChecksums(ctx)).toEqual(before);
    }
  });
});

describe('login throttling under a burst', () => {
  function login(body: object, remoteAddress: string) {
    return ctx.app.inject({ method: 'POST', url: '/api/auth/login', payload: body, remoteAddress });
  }

  it('lets at most 5 of 50 concurrent wrong logins for one account from one address reach the password check; the owner elsewhere still signs in', async () => {
    const agent = await registerAgent(ctx.app);
    const burst = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        login({ email: agent.email, password: `wrong-${i}` }, '10.1.0.1'),
      ),
    );
    const statuses = burst.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(5);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(45);
    expect(statuses.every((s) => s === 401 || s === 429)).toBe(true);
    const right = await login({ email: agent.email, password: agent.password }, '10.1.0.1');
    expect(right.statusCode).toBe(429);
    expect(right.json()).toEqual({ message: 'Too many failed attempts. Try again in 15 minutes.' });
    expect(Number(right.headers['retry-after'])).toBeGreaterThan(800);
    // the guesser cannot lock the owner out: the right password from another address gets in
    const owner = await login({ email: agent.email, password: agent.password }, '10.1.1.1');
    expect(owner.statusCode).toBe(200);
    // and the owner's success forgives nothing of the guesser's
    const again = await login({ email: agent.email, password: 'wrong-again' }, '10.1.0.1');
    expect(again.statusCode).toBe(429);
  });

  it("caps one account's failures from all addresses together at 50, then locks it for everyone", async () => {
    const agent = await registerAgent(ctx.app);
    const statuses: number[] = [];
    // in waves of 20, within the password checks' queue (passwords.ts)
    for (let wave = 0; wave < 3; wave++) {
      const burst = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          login({ email: agent.email, password: 'wrong' }, `10.4.${wave}.${i + 1}`),
        ),
      );
      statuses.push(...burst.map((r) => r.statusCode));
    }
    expect(statuses.filter((s) => s === 401)).toHaveLength(50);
    expect(statuses.filter((s) => s === 429)).toHaveLength(10);
    const right = await login({ email: agent.email, password: agent.password }, '10.4.9.9');
    expect(right.statusCode).toBe(429);
  });

  it('holds the per-IP limit: at most 30 of 50 concurrent wrong logins from one address, then even a right one waits', async () => {
    const agent = await registerAgent(ctx.app);
    const burst = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        login({ email: uniqueEmail(`spray${i}`), password: 'guess' }, '10.2.0.1'),
      ),
    );
    const statuses = burst.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(30);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(20);
    const blocked = await login({ email: agent.email, password: agent.password }, '10.2.0.1');
    expect(blocked.statusCode).toBe(429);
    const elsewhere = await login({ email: agent.email, password: agent.password }, '10.2.0.2');
    expect(elsewhere.statusCode).toBe(200);
  });

  it('does not count successful logins against the address', async () => {
    const agent = await registerAgent(ctx.app);
    for (let i = 0; i < 35; i++) {
      const res = await login({ email: agent.email, password: agent.password }, '10.3.0.1');
      expect(res.statusCode, `login ${i + 1}`).toBe(200);
    }
  });
});

describe('5xx answers', () => {
  /** the message, and the request's id (its X-Request-Id, for the operator's log): nothing else */
  function expectGeneric500(
    res: { statusCode: number; body: string; headers: Record<string, unknown> },
    what: string,
  ) {
    expect(res.statusCode, `${what}: ${res.body}`).toBe(500);
    const requestId = res.headers['x-request-id'];
    expect(requestId, what).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.body, what).toBe(JSON.stringify({ message: 'Internal server error', requestId }));
    for (const leak of ['at ', 'select', 'Error:', 'insert', 'from ', '.ts:']) {
      expect(res.body.toLowerCase(), what).not.toContain(leak.toLowerCase());
    }
  }

  it('with the database closed: every route answers a bare 500 (health: 503 degraded)', async () => {
    const logs: string[] = [];
    const database = await createTestDatabase();
    const app = await buildApp({
      config: testConfig(),
      database,
      serveSpa: false,
      logger: { level: 'error', stream: { write: (line: string) => logs.push(line) } },
    });
    await app.ready();
    const fixtures = await createFixtures({ app, database });
    await database.close();
    try {
      for (const route of ROUTES) {
        for (const caller of CALLERS) {
          const spec = await offlineRequest(route, fixtures, caller);
          const res = await app.inject({
            method: route.method,
            url: spec.url,
            // a cookie makes even anonymous routes look the session up in the database
            headers: {
              ...spec.headers,
              cookie:
                caller === 'anonymous'
                  ? 'lf_session=made-up-token'
                  : fixtures[caller].client.cookie!,
            },
            ...(spec.body === undefined ? {} : { payload: spec.body as object }),
          });
          if (route.path === '/api/health') {
            expect(res.statusCode).toBe(503);
            expect(res.json()).toEqual({
              status: 'degraded',
              database: 'down',
              lastAssignmentRun: null,
              businessTimeZone: 'America/New_York',
              requestId: res.headers['x-request-id'],
            });
          } else if (route.path === '/api/health/live') {
            expect(res.statusCode).toBe(200);
          } else if (route.path === '/metrics') {
            expect(res.statusCode).toBe(404); // no METRICS_TOKEN: not served
          } else if (route.path === '/api/health/ready') {
            expect(res.statusCode).toBe(503);
            expect(res.json()).toMatchObject({ status: 'not ready', database: 'down' });
          } else {
            expectGeneric500(res, `${route.method} ${route.path} as ${caller}`);
          }
        }
      }
      // the cause is logged for the operator, not sent to the caller
      expect(logs.length).toBeGreaterThan(0);
    } finally {
      await app.close();
    }
  });

  it('a failing SQL statement answers a bare 500; the statement reaches only the log', async () => {
    const logs: string[] = [];
    const database = await createTestDatabase();
    const app = await buildApp({
      config: testConfig(),
      database,
      serveSpa: false,
      logger: { level: 'error', stream: { write: (line: string) => logs.push(line) } },
    });
    await app.ready();
    const fixtures = await createFixtures({ app, database });
    try {
      await database.db.execute(sql`alter table leads rename to leads_moved_away`);
      for (const [caller, url] of [
        ['admin', '/api/admin/leads'],
        ['admin', '/api/admin/leads/export'],
        ['agent', '/api/agent/leads'],
      ] as const) {
        const res = await fixtures[caller].client.get(url);
        expectGeneric500(res, url);
      }
      const assign = await fixtures.admin.client.post('/api/admin/leads/assign', {
        leadId: 1,
        userId: fixtures.agent.id,
      });
      expectGeneric500(assign, 'assign');
      expect(logs.join('\n')).toMatch(/leads/);

      // a failed run: its answer names the run only; the database's words reach admins only
      const run = await fixtures.admin.client.post('/api/admin/assignment/run');
      expect(run.statusCode).toBe(500);
      expect(run.json()).toEqual({
        message: expect.stringMatching(
          /^Assignment run #\d+ failed; the error is recorded in the run history$/,
        ),
        requestId: run.headers['x-request-id'],
      });
      const anonymous = await app.inject({ method: 'GET', url: '/api/health' });
      expect(anonymous.json().lastAssignmentRun.error).toBe('The assignment run failed');
      const asAgent = await fixtures.agent.client.get('/api/health');
      expect(asAgent.json().lastAssignmentRun.error).toBe('The assignment run failed');
      const asAdmin = await fixtures.admin.client.get('/api/health');
      expect(asAdmin.json().lastAssignmentRun.error).toMatch(/leads/);
    } finally {
      await app.close();
      await database.close();
    }
  });

  it.runIf(TEST_DB === 'postgres')(
    'with PostgreSQL unreachable: health answers 503 degraded, other routes a bare 500',
    async () => {
      const database = await openDatabase({ databaseUrl: 'postgres://nobody@127.0.0.1:1/none' });
      const app: FastifyInstance = await buildApp({
        config: testConfig(),
        database,
        serveSpa: false,
      });
      await app.ready();
      try {
        const health = await app.inject({ method: 'GET', url: '/api/health' });
        expect(health.statusCode).toBe(503);
        expect(health.json()).toEqual({
          status: 'degraded',
          database: 'down',
          lastAssignmentRun: null,
          businessTimeZone: 'America/New_York',
          requestId: health.headers['x-request-id'],
        });
        for (const url of ['/api/packages', '/api/auth/me']) {
          const res = await app.inject({ method: 'GET', url, headers: { cookie: 'lf_session=x' } });
          expectGeneric500(res, url);
        }
        const login = await app.inject({
          method: 'POST',
          url: '/api/auth/login',
          payload: { email: 'a@example.com', password: 'whatever' },
        });
        expectGeneric500(login, 'login');
      } finally {
        await app.close();
        await database.close();
      }
    },
  );
});

/** The table's request, without touching the (closed) database to build it. */
async function offlineRequest(
  route: (typeof ROUTES)[number],
  fixtures: Fixtures,
  caller: (typeof CALLERS)[number],
) {
  const offline: Fixtures = {
    ...fixtures,
    leadOfAgent: async () => 1,
    newLead: async () => 2,
    ensureSubscription: async () => {},
    spareAccount: async () => ({ email: 'spare@example.com', password: 'secret123' }),
    resetToken: async () => 'made-up-token',
    spareUserId: async () => 1,
    packageWithSlug: async () => 1,
    perLeadPackage: async () => 1,
    importRecord: async () => 1,
    source: async () => 1,
    sourceKey: async () => ({ sourceId: 1, keyId: 1 }),
    dncNumber: async () => '+13055550100',
    pendingReturn: async () => 1,
    agencyOfAgent: async () => 1,
    agencyMember: async () => 1,
    agencyPaidMember: async () => 1,
    agencyInvite: async () => ({ id: 1, code: 'made-up-code' }),
    agencyLead: async () => 1,
    withoutAgency: async () => {},
    withoutPushDevices: async () => {},
  };
  const spec = await route.request(offline, caller);
  return spec;
}
