/**
 * Generated input on every route that takes input (JSON bodies, path params, query strings) and
 * light junk on every other route. Invariants: never a 5xx; a refusal is JSON {message} and
 * changes no table. The CSV import has its own file (test/fuzz-import.test.ts).
 */
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AGENT_SETTABLE_STATUSES,
  LEAD_CATEGORIES,
  LEAD_STATUSES,
  STATE_CODES,
  SUBSCRIPTION_STATUSES,
} from '../src/shared/domain';
import { insertLeads, insertPackage } from './support/agent-fixtures';
import {
  createFixtures,
  type Fixtures,
  FuzzTally,
  type Method,
  packageBody,
  probe,
  ROUTES,
} from './support/route-table';
import { setupTestApp } from './support/test-app';

const RUNS = Number(process.env.FUZZ_RUNS ?? 300);
/** routes that take no input still get junk query strings and bodies, fewer of them */
const JUNK_RUNS = Math.max(10, Math.round(RUNS / 8));
const TIMEOUT = 300_000;

const ctx = setupTestApp();
const tally = new FuzzTally();
let fx: Fixtures;
/** leads: agent A's, agent B's, and NEW ones for manual assignment */
let leadsOfA: number[] = [];
let leadsOfB: number[] = [];
let newLeads: number[] = [];
let packageIds: number[] = [];
/** slug by package id: an edit keeps the slug, so valid edits need it */
const slugs = new Map<number, string>();

beforeAll(async () => {
  fx = await createFixtures(ctx);
  const db = ctx.database.db;
  leadsOfA = (
    await insertLeads(
      db,
      Array.from({ length: 20 }, () => ({ agentId: fx.agent.id })),
    )
  ).map((l) => l.id);
  leadsOfB = (
    await insertLeads(
      db,
      Array.from({ length: 20 }, () => ({ agentId: fx.otherAgent.id })),
    )
  ).map((l) => l.id);
  newLeads = (
    await insertLeads(
      db,
      Array.from({ length: 100 }, () => ({ category: 'ACA' as const, state: 'AK', city: 'Nome' })),
    )
  ).map((l) => l.id);
  packageIds = [fx.packageId];
  for (const values of [...LEAD_CATEGORIES.map((category) => ({ category })), { active: false }]) {
    const pkg = await insertPackage(db, values);
    packageIds.push(pkg.id);
    slugs.set(pkg.id, pkg.slug);
  }
});

afterAll(() => {
  console.log(tally.report('fuzzing: inputs tried per route'));
});

// ---------- generators ----------

/** Values that break naive code: wrong types, limits, NUL, lone surrogates, SQL and markup. */
const weirdString = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '0',
    '-1',
    '1e3',
    'NaN',
    'null',
    'true',
    '\u0000',
    'a\u0000b',
    '\uD800',
    '\uDFFFx',
    '🙂',
    '\u202Eevil',
    "'; drop table leads; --",
    "' or '1'='1",
    '%',
    '_',
    '\\',
    '%_\\%',
    '<script>alert(1)</script>',
    '__proto__',
    'constructor',
    '{{7*7}}',
    '../../etc/passwd',
    'x'.repeat(300),
    'y'.repeat(5000),
  ),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ maxLength: 40 }),
);
const weird: fc.Arbitrary<unknown> = fc.oneof(
  weirdString,
  fc.constantFrom(
    null,
    true,
    false,
    0,
    -1,
    1.5,
    2 ** 31 - 1,
    2 ** 31,
    2 ** 53,
    -(2 ** 53),
    1e308,
    -1e308,
    [],
    {},
    [null],
    { $gt: '' },
  ),
  fc.integer(),
  fc.double({ noNaN: true }),
  fc.jsonValue({ maxDepth: 2 }),
);

/** Each field valid most of the time, else weird; optionally fields missing and extra keys. */
function mixed(fields: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<unknown> {
  // one field in about 2n is weird, so that about half the complete records stay valid
  const weight = Math.max(5, 2 * Object.keys(fields).length);
  const each = Object.fromEntries(
    Object.entries(fields).map(([k, a]) => [
      k,
      fc.oneof({ weight, arbitrary: a }, { weight: 1, arbitrary: weird }),
    ]),
  );
  return fc.oneof(
    { weight: 6, arbitrary: fc.record(each) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(
          fc.record(each, { requiredKeys: [] }),
          fc.dictionary(
            fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('role', 'agentId', 'id')),
            weird,
            { maxKeys: 3 },
          ),
        )
        .map(([a, b]) => ({ ...b, ...a })),
    },
    { weight: 1, arbitrary: weird },
  );
}

interface Payload {
  payload?: string | Buffer;
  contentType?: string;
}

const rawPayload: fc.Arbitrary<Payload> = fc.record({
  payload: fc.oneof(
    fc.string({ maxLength: 200 }),
    fc.string({ unit: 'binary', maxLength: 200 }),
    fc.uint8Array({ maxLength: 300 }).map((u) => Buffer.from(u)),
    fc.constantFrom(
      '{"a":',
      '{"__proto__":{"role":"ADMIN"}}',
      '{"constructor":{"prototype":{"role":"ADMIN"}}}',
      '['.repeat(3000),
      '{"a":1,"a":2}',
      '\uFEFF{}',
      'null',
      '',
    ),
    fc.constant(Buffer.alloc(1_100_000, 'a')),
  ),
  contentType: fc.constantFrom(
    'application/json',
    'application/json; charset=utf-16',
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=zzz',
    'application/xml',
    'application/octet-stream',
    'image/png',
  ),
});

/** A JSON body (valid-ish, mutated) most of the time, raw junk with any content type else. */
function body(fields: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<Payload> {
  return fc.oneof(
    {
      weight: 8,
      arbitrary: mixed(fields).map((b) => ({
        payload: JSON.stringify(b) ?? 'null',
        contentType: 'application/json',
      })),
    },
    { weight: 1, arbitrary: rawPayload },
  );
}

/** Percent-encodes the UTF-8 bytes (a lone surrogate becomes U+FFFD, as a browser sends it). */
function enc(value: string): string {
  let out = '';
  for (const byte of Buffer.from(value, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-_.~]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** A path segment: a known id most of the time, else numbers and strings of every kind. */
function idSegment(known: number[]): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...known).map(String) },
    { weight: 1, arbitrary: fc.integer().map(String) },
    { weight: 1, arbitrary: fc.bigInt().map(String) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '0',
        '-1',
        '1.5',
        '1e3',
        '0x1f',
        '%20',
        '%zz',
        '2147483647',
        '2147483648',
        '9007199254740991',
        '9007199254740993',
        '99999999999999999999',
        '%201',
        '1%00',
        '..',
        'null',
        'a'.repeat(250),
      ),
    },
    { weight: 1, arbitrary: weirdString.map((s) => enc(s)) },
  );
}

/** A query string from (key, value) pairs: known keys most of the time; repeats allowed. */
function query(fields: Record<string, fc.Arbitrary<string>>): fc.Arbitrary<string> {
  const keys = Object.keys(fields);
  const pair = fc.oneof(
    {
      weight: 4,
      arbitrary: fc
        .constantFrom(...keys)
        .chain((k) =>
          fc.tuple(
            fc.constant(k),
            fc.oneof({ weight: 3, arbitrary: fields[k] }, { weight: 1, arbitrary: weirdString }),
          ),
        ),
    },
    { weight: 1, arbitrary: fc.tuple(fc.string({ maxLength: 6 }), weirdString) },
  );
  return fc.oneof(
    {
      weight: 9,
      arbitrary: fc
        .array(pair, { maxLength: 5 })
        .map((pairs) => pairs.map(([k, v]) => `${enc(k)}=${enc(v)}`).join('&')),
    },
    { weight: 1, arbitrary: fc.constantFrom('%', '%zz=1', 'a=%E0%A4%A', '&&&=', '=x', 'q=%00') },
  );
}

const subset = <T>(values: readonly T[], max = values.length) =>
  fc.subarray([...values], { maxLength: max });
const age = fc.oneof(fc.integer({ min: 18, max: 120 }), fc.constant(null));
const statusOf = <T extends string>(values: readonly T[]) => fc.constantFrom(...values);

// ---------- the harness ----------

type Who = 'anonymous' | 'agent' | 'admin' | 'otherAgent';

interface Generated extends Payload {
  url: string;
  remoteAddress?: string;
  /** send this user's session cookie instead of the caller's */
  session?: Who;
}

function cookieOf(who: Who): string | undefined {
  return who === 'anonymous' ? undefined : fx[who].client.cookie;
}

function fire(method: Method, who: Who, req: Generated): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = {};
  const cookie = cookieOf(req.session ?? who);
  if (cookie) headers.cookie = cookie;
  if (req.contentType) headers['content-type'] = req.contentType;
  return ctx.app.inject({
    method,
    url: req.url,
    headers,
    ...(req.payload === undefined ? {} : { payload: req.payload }),
    ...(req.remoteAddress ? { remoteAddress: req.remoteAddress } : {}),
  });
}

async function fuzzRoute(
  method: Method,
  path: string,
  who: Who,
  gen: fc.Arbitrary<Generated>,
  check?: (req: Generated, res: LightMyRequestResponse) => void,
  runs = RUNS,
) {
  const route = `${method} ${path}`;
  await fc.assert(
    fc.asyncProperty(gen, async (req) => {
      const res = await probe(ctx, tally, route, () => fire(method, who, req));
      check?.(req, res);
    }),
    { numRuns: runs },
  );
}

// ---------- routes that take input ----------

describe('fuzzing routes that take input', () => {
  it('POST /api/auth/register', { timeout: TIMEOUT }, async () => {
    const gen = body({
      name: fc.string({ minLength: 1, maxLength: 60 }),
      email: fc.oneof(
        {
          weight: 3,
          arbitrary: fc.stringMatching(/^[a-z0-9._-]{1,20}$/).map((l) => `${l}@example.com`),
        },
        { weight: 1, arbitrary: fc.emailAddress() },
        { weight: 1, arbitrary: fc.constant(fx.agent.email.toUpperCase()) },
      ),
      password: fc.string({ minLength: 6, maxLength: 40 }),
      role: fc.constantFrom('ADMIN', 'AGENT'),
    }).map((p) => ({ ...p, url: '/api/auth/register' }));
    await fuzzRoute('POST', '/api/auth/register', 'anonymous', gen, (_req, res) => {
      if (res.statusCode === 201) expect(res.json().user.role).toBe('AGENT');
    });
  });

  it('POST /api/auth/login', { timeout: TIMEOUT }, async () => {
    const spare = await fx.spareAccount();
    const gen = fc
      .tuple(
        body({
          email: fc.oneof(
            fc.constant(spare.email),
            fc.emailAddress(),
            fc.constant(` ${spare.email.toUpperCase()} `),
          ),
          password: fc.oneof(fc.constant(spare.password), fc.string({ maxLength: 30 })),
        }),
        fc.ipV4(),
        fc.boolean(),
      )
      .map(([p, ip, withSession]) => ({
        ...p,
        url: '/api/auth/login',
        remoteAddress: ip,
        // a signed-in caller's session must survive a failed login
        ...(withSession ? { session: 'otherAgent' as const } : {}),
      }));
    await fuzzRoute('POST', '/api/auth/login', 'anonymous', gen, (req, res) => {
      if (res.statusCode === 200 && req.session) {
        // that session was rotated away: sign agent B in again for the next runs
        fx.otherAgent.client.cookie = `lf_session=${res.cookies.find((c) => c.name === 'lf_session')!.value}`;
      }
    });
    // the fuzz may have logged agent B in as the spare account: restore B
    await fx.otherAgent.client.post('/api/auth/login', {
      email: fx.otherAgent.email,
      password: fx.otherAgent.password,
    });
  });

  it('GET /api/agent/leads', { timeout: TIMEOUT }, async () => {
    const gen = query({
      status: statusOf(LEAD_STATUSES),
      sort: fc.constantFrom('uncontacted', 'newest', 'oldest', 'random'),
    }).map((q) => ({
      url: `/api/agent/leads?${q}`,
    }));
    await fuzzRoute('GET', '/api/agent/leads', 'agent', gen, (_req, res) => {
      if (res.statusCode === 200) {
        for (const lead of res.json()) expect(lead.agentId).toBe(fx.agent.id);
      }
    });
  });

  it('GET /api/agent/leads/:id', { timeout: TIMEOUT }, async () => {
    const gen = idSegment([...leadsOfA, ...leadsOfB, ...newLeads]).map((id) => ({
      url: `/api/agent/leads/${id}`,
    }));
    await fuzzRoute('GET', '/api/agent/leads/:id', 'agent', gen, (_req, res) => {
      // '/api/agent/leads/' (an empty id) is the list, the trailing slash being ignored
      if (res.statusCode === 200) {
        for (const lead of [res.json()].flat()) expect(lead.agentId).toBe(fx.agent.id);
      }
    });
  });

  it('GET /api/admin/leads/:id', { timeout: TIMEOUT }, async () => {
    const gen = idSegment([...leadsOfA, ...newLeads]).map((id) => ({
      url: `/api/admin/leads/${id}`,
    }));
    await fuzzRoute('GET', '/api/admin/leads/:id', 'admin', gen, (req, res) => {
      // '/api/admin/leads/' (an empty id) is the list, the trailing slash being ignored
      if (res.statusCode === 200 && !Array.isArray(res.json())) {
        expect(res.json().id).toBe(Number(decodeURIComponent(req.url.split('/')[4])));
      }
    });
  });

  it('PATCH /api/admin/users/:id', { timeout: TIMEOUT }, async () => {
    const spare = await fx.spareAccount();
    const spareId = (await fx.admin.client.get('/api/admin/agents'))
      .json()
      .find((a: { email: string }) => a.email === spare.email).id;
    const gen = fc
      .tuple(idSegment([spareId, fx.admin.id]), body({ disabled: fc.boolean() }))
      .map(([id, p]) => ({ ...p, url: `/api/admin/users/${id}` }));
    await fuzzRoute('PATCH', '/api/admin/users/:id', 'admin', gen, (_req, res) => {
      // an admin never disables themself
      if (res.statusCode === 200 && res.json().id === fx.admin.id) {
        expect(res.json().disabled).toBe(false);
      }
    });
    expect((await fx.admin.client.get('/api/auth/me')).statusCode).toBe(200);
    // a random id may have disabled agent A or B (their sessions gone): enable and sign them in
    for (const c of ['agent', 'otherAgent'] as const) {
      await fx.admin.client.patch(`/api/admin/users/${fx[c].id}`, { disabled: false });
      await fx[c].client.post('/api/auth/login', { email: fx[c].email, password: fx[c].password });
    }
  });

  it('POST /api/agent/leads/:id/status', { timeout: TIMEOUT }, async () => {
    const gen = fc
      .tuple(
        idSegment([...leadsOfA, ...leadsOfB, ...newLeads]),
        body({ status: fc.constantFrom(...AGENT_SETTABLE_STATUSES, 'ASSIGNED', 'NEW') }),
      )
      .map(([id, p]) => ({ ...p, url: `/api/agent/leads/${id}/status` }));
    await fuzzRoute('POST', '/api/agent/leads/:id/status', 'agent', gen, (req, res) => {
      const id = Number(req.url.split('/')[4]);
      if (leadsOfB.includes(id) || newLeads.includes(id)) expect(res.statusCode).not.toBe(200);
    });
  });

  it('PUT /api/agent/preferences', { timeout: TIMEOUT }, async () => {
    const gen = body({
      states: fc.oneof(subset(STATE_CODES, 8), fc.array(weirdString, { maxLength: 3 })),
      cities: fc.array(fc.oneof(fc.string({ maxLength: 30 }), weirdString), { maxLength: 6 }),
      ageMin: age,
      ageMax: age,
      categories: subset(LEAD_CATEGORIES),
    }).map((p) => ({ ...p, url: '/api/agent/preferences' }));
    await fuzzRoute('PUT', '/api/agent/preferences', 'agent', gen);
  });

  it('POST /api/agent/subscription', { timeout: TIMEOUT }, async () => {
    const gen = body({
      packageId: fc.oneof(fc.constantFrom(...packageIds), fc.integer(), fc.constant(2 ** 31)),
    }).map((p) => ({ ...p, url: '/api/agent/subscription' }));
    await fuzzRoute('POST', '/api/agent/subscription', 'agent', gen);
  });

  /** valid most of the time (mixed() adds the weird values), sometimes just out of range */
  const mostly = <T>(valid: fc.Arbitrary<T>, other: fc.Arbitrary<T>) =>
    fc.oneof({ weight: 8, arbitrary: valid }, { weight: 1, arbitrary: other });
  const packageFields = () => ({
    name: mostly(fc.string({ minLength: 1, maxLength: 120 }), fc.string({ maxLength: 200 })),
    slug: mostly(
      fc.stringMatching(/^[a-z0-9]{1,12}(-[a-z0-9]{1,8}){0,2}$/),
      fc.oneof(
        fc.constantFrom('x', 'A-b', 'a--b', '-a', 'a'.repeat(81)),
        fc.string({ maxLength: 90 }),
      ),
    ),
    priceMonthlyCents: mostly(fc.integer({ min: 0, max: 100_000_000 }), fc.integer()),
    leadsPerDay: mostly(fc.integer({ min: 1, max: 10_000 }), fc.integer()),
    commissionPct: mostly(fc.integer({ min: 0, max: 100 }), fc.integer({ min: -5, max: 105 })),
    category: mostly(fc.constantFrom<string>(...LEAD_CATEGORIES), fc.constant('LIFE')),
    enrollmentOnly: fc.boolean(),
    services: mixed({
      crm: fc.boolean(),
      callRecording: fc.boolean(),
      followUpMessage: fc.boolean(),
    }),
    active: fc.boolean(),
  });

  it('POST /api/admin/packages', { timeout: TIMEOUT }, async () => {
    const gen = body(packageFields()).map((p) => ({ ...p, url: '/api/admin/packages' }));
    await fuzzRoute('POST', '/api/admin/packages', 'admin', gen, (_req, res) => {
      if (res.statusCode === 201) {
        packageIds.push(res.json().id);
        slugs.set(res.json().id, res.json().slug);
      }
    });
  });

  it('PUT /api/admin/packages/:id', { timeout: TIMEOUT }, async () => {
    const known = [...slugs.keys()];
    const gen = fc.oneof(
      {
        // a known package, most often with its own slug (the one valid edit)
        weight: 4,
        arbitrary: fc.constantFrom(...known).chain((id) =>
          body({
            ...packageFields(),
            slug: fc.oneof(
              { weight: 4, arbitrary: fc.constant(slugs.get(id)!) },
              packageFields().slug,
            ),
          }).map((p) => ({ ...p, url: `/api/admin/packages/${id}` })),
        ),
      },
      {
        weight: 1,
        arbitrary: fc
          .tuple(idSegment(packageIds), body(packageFields()))
          .map(([id, p]) => ({ ...p, url: `/api/admin/packages/${id}` })),
      },
    );
    await fuzzRoute('PUT', '/api/admin/packages/:id', 'admin', gen);
  });

  it('PATCH /api/admin/packages/:id', { timeout: TIMEOUT }, async () => {
    const gen = fc
      .tuple(idSegment(packageIds), body({ active: fc.boolean() }))
      .map(([id, p]) => ({ ...p, url: `/api/admin/packages/${id}` }));
    await fuzzRoute('PATCH', '/api/admin/packages/:id', 'admin', gen);
  });

  it('PATCH /api/admin/agents/:id/subscription', { timeout: TIMEOUT }, async () => {
    const gen = fc
      .tuple(
        idSegment([fx.agent.id, fx.otherAgent.id, fx.admin.id]),
        body({ status: fc.constantFrom(...SUBSCRIPTION_STATUSES, 'DELETED') }),
      )
      .map(([id, p]) => ({ ...p, url: `/api/admin/agents/${id}/subscription` }));
    await fuzzRoute('PATCH', '/api/admin/agents/:id/subscription', 'admin', gen);
  });

  it('GET /api/admin/leads', { timeout: TIMEOUT }, async () => {
    const gen = query({
      status: statusOf(LEAD_STATUSES),
      q: fc.oneof(
        fc.string({ maxLength: 20 }),
        fc.constantFrom('First', 'lead1', '555', '%', '_', '\\'),
      ),
      limit: fc.integer({ min: -5, max: 1100 }).map(String),
      offset: fc.oneof(fc.integer({ min: -5, max: 200 }), fc.constant(100_000_001)).map(String),
    }).map((q) => ({ url: `/api/admin/leads?${q}` }));
    await fuzzRoute('GET', '/api/admin/leads', 'admin', gen, (_req, res) => {
      if (res.statusCode === 200) {
        expect(Number(res.headers['x-total-count'])).toBeGreaterThanOrEqual(res.json().length);
      }
    });
  });

  it('GET /api/admin/leads/export', { timeout: TIMEOUT }, async () => {
    const gen = query({
      status: statusOf(LEAD_STATUSES),
      q: fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom('First', 'lead1', '555', '%', '_')),
    }).map((q) => ({ url: `/api/admin/leads/export?${q}` }));
    await fuzzRoute('GET', '/api/admin/leads/export', 'admin', gen, (_req, res) => {
      if (res.statusCode === 200) expect(res.headers['content-type']).toMatch(/^text\/csv/);
    });
  });

  it('POST /api/admin/leads/assign', { timeout: TIMEOUT }, async () => {
    const gen = body({
      leadId: fc.oneof(
        { weight: 3, arbitrary: fc.constantFrom(...newLeads) },
        { weight: 1, arbitrary: fc.constantFrom(...leadsOfA) },
        { weight: 1, arbitrary: fc.integer() },
        { weight: 1, arbitrary: fc.constantFrom(2 ** 31, 2 ** 53 - 1) },
      ),
      userId: fc.oneof(
        fc.constantFrom(fx.agent.id, fx.otherAgent.id, fx.admin.id),
        fc.integer(),
        fc.constant(2 ** 31),
      ),
      fromAgentId: fc.oneof(
        fc.constant(null),
        fc.constantFrom(fx.agent.id, fx.otherAgent.id),
        fc.integer(),
      ),
    }).map((p) => ({ ...p, url: '/api/admin/leads/assign' }));
    await fuzzRoute('POST', '/api/admin/leads/assign', 'admin', gen, (req, res) => {
      if (res.statusCode === 200) {
        const sent = JSON.parse(String(req.payload));
        expect(res.json()).toMatchObject({
          id: sent.leadId,
          agentId: sent.userId,
          status: 'ASSIGNED',
        });
      }
    });
  });

  it('GET /api/admin/imports', { timeout: TIMEOUT }, async () => {
    const gen = query({ status: statusOf(['RUNNING', 'DONE', 'FAILED']) }).map((q) => ({
      url: `/api/admin/imports?${q}`,
    }));
    await fuzzRoute('GET', '/api/admin/imports', 'admin', gen);
  });

  it('GET /api/admin/imports/:id', { timeout: TIMEOUT }, async () => {
    const known = [await fx.importRecord(), await fx.importRecord()];
    const gen = idSegment(known).map((id) => ({ url: `/api/admin/imports/${id}` }));
    await fuzzRoute('GET', '/api/admin/imports/:id', 'admin', gen, (_req, res) => {
      // '/api/admin/imports/' (an empty id) is the list, the trailing slash being ignored
      if (res.statusCode === 200 && !Array.isArray(res.json())) {
        expect(known).toContain(res.json().id);
      }
    });
  });

  it('GET /api/admin/assignment/runs', { timeout: TIMEOUT }, async () => {
    const gen = query({ limit: fc.integer({ min: -2, max: 120 }).map(String) }).map((q) => ({
      url: `/api/admin/assignment/runs?${q}`,
    }));
    await fuzzRoute('GET', '/api/admin/assignment/runs', 'admin', gen);
  });
});

// ---------- what fuzzing found, kept as plain tests ----------

describe('bugs found by fuzzing stay fixed', () => {
  async function expect400(who: Who, method: Method, url: string, payload?: unknown) {
    const path = url.split('?')[0].replace(/\/leads\/[^/]+\/status$/, '/leads/:id/status');
    const res = await probe(ctx, tally, `${method} ${path} (regression)`, () =>
      fire(method, who, {
        url,
        ...(payload === undefined
          ? {}
          : { payload: JSON.stringify(payload), contentType: 'application/json' }),
      }),
    );
    expect(res.statusCode, res.body).toBe(400);
    return res;
  }

  it('NUL in any text input is a 400, not a 500', async () => {
    const res = await expect400('agent', 'PUT', '/api/agent/preferences', {
      states: [],
      cities: ['a\u0000b'],
      ageMin: null,
      ageMax: null,
      categories: [],
    });
    expect(res.json().message).toBe('Text may not contain NUL (\\u0000) characters');
    await expect400('anonymous', 'POST', '/api/auth/register', {
      name: 'Nul\u0000Name',
      email: 'nul@example.com',
      password: 'secret123',
    });
    await expect400('admin', 'POST', '/api/admin/packages', {
      ...packageBody(),
      name: 'Bad\u0000',
    });
    await expect400('admin', 'GET', '/api/admin/leads?q=%00');
    await expect400('agent', 'POST', '/api/agent/leads/1%00/status', { status: 'CONTACTED' });
  });

  it('ids beyond a 32-bit integer are a 400, not a 500', async () => {
    await expect400('agent', 'POST', '/api/agent/subscription', { packageId: 2 ** 31 });
    await expect400('admin', 'POST', '/api/admin/leads/assign', {
      leadId: newLeads[0],
      userId: 2 ** 31,
    });
  });

  it("a failed login leaves the caller's session as it was", async () => {
    const before = fx.agent.client.cookie;
    const res = await fx.agent.client.post('/api/auth/login', {
      email: fx.agent.email,
      password: 'not-the-password',
    });
    expect(res.statusCode).toBe(401);
    expect(fx.agent.client.cookie).toBe(before);
    expect((await fx.agent.client.get('/api/auth/me')).statusCode).toBe(200);
  });
});

// ---------- every other route: junk query strings and bodies ----------

const WITH_INPUT = new Set([
  'POST /api/auth/register',
  'POST /api/auth/login',
  'GET /api/agent/leads',
  'POST /api/agent/leads/:id/status',
  'GET /api/agent/leads/:id',
  'GET /api/admin/leads/:id',
  'PATCH /api/admin/users/:id',
  'PUT /api/agent/preferences',
  'POST /api/agent/subscription',
  'POST /api/admin/packages',
  'PUT /api/admin/packages/:id',
  'PATCH /api/admin/packages/:id',
  'PATCH /api/admin/agents/:id/subscription',
  'GET /api/admin/leads',
  'GET /api/admin/leads/export',
  'POST /api/admin/leads/assign',
  'GET /api/admin/assignment/runs',
  'GET /api/admin/imports',
  'GET /api/admin/imports/:id',
  'POST /api/admin/leads/import', // test/fuzz-import.test.ts
]);

describe('junk on routes without input', () => {
  for (const route of ROUTES.filter((r) => !WITH_INPUT.has(`${r.method} ${r.path}`))) {
    it(`${route.method} ${route.path}`, { timeout: TIMEOUT }, async () => {
      const who: Who =
        (['admin', 'agent'] as const).find((c) => route.expect[c] < 300) ?? 'anonymous';
      const gen = fc
        .tuple(
          query({ status: fc.constant('NEW'), limit: fc.constant('1') }),
          fc.oneof(
            { weight: 1, arbitrary: fc.constant<Payload>({}) },
            { weight: 3, arbitrary: rawPayload },
          ),
        )
        .map(([q, p]) => ({
          ...(route.method === 'GET' ? {} : p),
          url: `${route.path}?${q}`,
        }));
      await fuzzRoute(route.method, route.path, who, gen, undefined, JUNK_RUNS);
      // a logout in the junk may have ended the caller's session
      if (route.path === '/api/auth/logout') {
        for (const c of ['admin', 'agent'] as const) {
          await fx[c].client.post('/api/auth/login', {
            email: fx[c].email,
            password: fx[c].password,
          });
        }
      }
    });
  }

  it('names only routes of the table as taking input', () => {
    const listed = new Set(ROUTES.map((r) => `${r.method} ${r.path}`));
    expect([...WITH_INPUT].filter((key) => !listed.has(key))).toEqual([]);
  });
});
