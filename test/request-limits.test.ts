/**
 * What a request body may be (issue 13): a small limit checked before a byte is read, no body
 * where none is expected, NUL looked for in the raw text; and no cache keeps an API answer.
 */
import { Readable } from 'node:stream';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_BODY_LIMIT, ROUTE_BODY_LIMITS } from '../src/server/plugins/request-body';
import { STATE_CODES } from '../src/shared/domain';
import {
  CALLERS,
  createFixtures,
  type Fixtures,
  ROUTES,
  send,
  tableChecksums,
} from './support/route-table';
import { Client, setupTestApp, uniqueEmail } from './support/test-app';

const ctx = setupTestApp();
let fx: Fixtures;
beforeAll(async () => {
  fx = await createFixtures(ctx);
});

/** `{"k0":0,"k1":0,...}`: a body that costs a lot to walk and little to send. */
function manyKeys(n: number): string {
  const parts = new Array<string>(n);
  for (let i = 0; i < n; i++) parts[i] = `"k${i}":0`;
  return `{${parts.join(',')}}`;
}

/** The caller a route serves (admin for admin routes, agent A for agent routes). */
/** A caller the route's role check lets through (the event stream answers them 400: no Accept). */
const callerOf = (route: (typeof ROUTES)[number]) =>
  CALLERS.find((c) => c !== 'anonymous' && ![401, 403].includes(route.expect[c])) ?? 'anonymous';

describe('body size', () => {
  it('refuses a 90,000-key body to login with 413 before reading it, while health keeps answering', async () => {
    const body = manyKeys(90_000);
    expect(body.length).toBeGreaterThan(900_000);
    const started = Date.now();
    const bad = Array.from({ length: 20 }, () =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        headers: { 'content-type': 'application/json' },
        payload: body,
      }),
    );
    const health = ctx.app.inject({ method: 'GET', url: '/api/health' });
    const [healthRes, ...refused] = await Promise.all([health, ...bad]);
    for (const res of refused) {
      expect(res.statusCode).toBe(413);
      expect(res.json()).toEqual({ message: 'Request too large: the body is over the size limit' });
    }
    expect(healthRes.statusCode).toBe(200);
    // loose: the 2.9 s of the issue came from walking the keys; refusing reads nothing
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('cuts off a chunked body (no Content-Length) as soon as it passes the limit', async () => {
    const chunks = ['{"email":"a@example.com","password":"', 'x'.repeat(DEFAULT_BODY_LIMIT), '"}'];
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      payload: Readable.from(chunks),
    });
    expect(res.statusCode).toBe(413);
  });

  it('takes the largest valid body of each JSON route', async () => {
    // 3-byte UTF-8 characters to the schema's maximum length
    const reg = await new Client(ctx.app).post('/api/auth/register', {
      name: '€'.repeat(200),
      email: uniqueEmail('big'),
      password: '€'.repeat(1024),
    });
    expect(reg.statusCode, reg.body).toBe(201);
    expect(JSON.stringify(reg.json()).length).toBeGreaterThan(0);

    const preferences = {
      states: [...STATE_CODES],
      cities: Array.from(
        { length: 500 },
        (_, i) => `${'€'.repeat(96)}${String(i).padStart(4, '0')}`,
      ),
      ageMin: null,
      ageMax: null,
      categories: [],
    };
    const size = Buffer.byteLength(JSON.stringify(preferences));
    expect(size).toBeGreaterThan(100 * 1024);
    expect(size).toBeLessThanOrEqual(ROUTE_BODY_LIMITS['PUT /api/agent/preferences']);
    const put = await fx.agent.client.put('/api/agent/preferences', preferences);
    expect(put.statusCode, put.body.slice(0, 300)).toBe(200);

    const tooBig = await fx.agent.client.request('PUT', '/api/agent/preferences', {
      ...preferences,
      padding: 'x'.repeat(ROUTE_BODY_LIMITS['PUT /api/agent/preferences']),
    });
    expect(tooBig.statusCode).toBe(413);
  });
});

describe('the body deadline', () => {
  const quick = setupTestApp({ BODY_TIMEOUT_MS: 200 });

  it('stops with the answer: a body refused unread raises nothing once its deadline passes', async () => {
    // an error raised then would have nobody to hear it and end the process (vitest fails the run)
    for (const payload of [manyKeys(90_000), '{"email":', '{"email":"a\\u0000"}']) {
      const res = await quick.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        headers: { 'content-type': 'application/json' },
        payload,
      });
      expect([400, 413]).toContain(res.statusCode);
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await quick.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
  });
});

/**
 * DELETE routes that take a body: a push device named by its endpoint, turning two factors off
 * with a code, removing a passkey (the last one with a passkey's confirmation).
 */
const DELETE_WITH_BODY = new Set([
  '/api/agent/push/subscriptions',
  '/api/auth/2fa',
  '/api/auth/2fa/passkeys/:id',
]);

describe('routes that take no body', () => {
  const NO_BODY = ROUTES.filter(
    (r) =>
      r.method === 'GET' ||
      (r.method === 'DELETE' && !DELETE_WITH_BODY.has(r.path)) ||
      /logout$|assignment\/run$/.test(r.path),
  );

  it('refuse one with 413 (changing nothing), after the role check; an empty {} passes', async () => {
    expect(NO_BODY.map((r) => `${r.method} ${r.path}`)).toEqual(
      expect.arrayContaining([
        'POST /api/auth/logout',
        'POST /api/admin/assignment/run',
        'DELETE /api/agent/subscription',
        'GET /api/health',
      ]),
    );
    for (const route of NO_BODY) {
      const caller = callerOf(route);
      const spec = await route.request(fx, caller);
      const before = await tableChecksums(ctx);
      const res = await send(fx, caller, route.method, { ...spec, body: { any: 'thing' } });
      expect(res.statusCode, `${route.method} ${route.path}: ${res.body}`).toBe(413);
      expect(res.json()).toEqual({ message: 'This request takes no body' });
      expect(await tableChecksums(ctx), `${route.method} ${route.path}`).toEqual(before);

      const empty = await send(fx, caller, route.method, { ...spec, body: {} });
      expect(empty.statusCode, `${route.method} ${route.path} with {}`).toBe(route.expect[caller]);
      if (route.expect.anonymous === 401) {
        const anon = await send(fx, 'anonymous', route.method, { ...spec, body: { any: 1 } });
        expect(anon.statusCode, `${route.method} ${route.path} anonymous`).toBe(401);
      }
    }
  });

  it('refuse a chunked body too', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      payload: Readable.from(['{', '}']),
    });
    expect(res.statusCode).toBe(413);
  });
});

describe('NUL', () => {
  it('is found in the raw JSON text and the raw URL (400), an escaped backslash is not one', async () => {
    const nul = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      headers: { 'content-type': 'application/json' },
      payload: `{"name":"a\\u0000","email":"${uniqueEmail('nul')}","password":"plum-tree-41"}`,
    });
    expect(nul.statusCode).toBe(400);
    expect(nul.json()).toEqual({ message: 'Text may not contain NUL (\\u0000) characters' });

    const text = await new Client(ctx.app).post('/api/auth/register', {
      name: 'Back\\u0000slash',
      email: uniqueEmail('nul'),
      password: 'plum-tree-41',
    });
    expect(text.statusCode, text.body).toBe(201);
    expect(text.json().user.name).toBe('Back\\u0000slash');

    const query = await fx.admin.client.get('/api/admin/leads?q=a%00b');
    expect(query.statusCode).toBe(400);
    expect(query.json().message).toMatch(/NUL/);
  });
});

describe('caching', () => {
  it('every API answer, success or refusal, carries Cache-Control: no-store', async () => {
    // the API reference's own files (Swagger UI's scripts and styles) hold no one's data: they
    // keep the caching their static server gives them
    for (const route of ROUTES.filter((r) => !r.path.startsWith('/api/docs/static/'))) {
      for (const caller of ['anonymous', callerOf(route)] as const) {
        const spec = await route.request(fx, caller);
        const res = await send(fx, caller, route.method, spec);
        const what = `${route.method} ${route.path} as ${caller} (${res.statusCode})`;
        // the export sets its own no-store; every other answer gets it from the security plugin
        expect(res.headers['cache-control'], what).toMatch(/no-store/);
      }
    }
    const missing = await new Client(ctx.app).get('/api/nothing-here');
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['cache-control']).toBe('no-store');
  });
});
