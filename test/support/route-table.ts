/**
 * The authorization matrix: every route of the server, the request that passes its validation,
 * and the status each kind of caller must get. test/authz-matrix.test.ts runs it (and fails when
 * the server has a route this table does not list); test/sessions.test.ts reuses it for the
 * cross-site and database-down checks.
 */
import { sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import {
  apiKeys,
  dncNumbers,
  imports,
  leadReturns,
  sources,
  subscriptions,
} from '../../src/server/db/schema';
import { insertLeads, insertPackage } from './agent-fixtures';
import { uniquePhone } from './lead-contact';
import { Client, loginAdmin, registerAgent, type TestContext, uniqueEmail } from './test-app';

export const CALLERS = ['anonymous', 'agent', 'otherAgent', 'admin'] as const;
/**
 * anonymous: no session. agent: the owner of the objects the request names (agent A).
 * otherAgent: agent B, calling with A's objects. admin: an administrator.
 */
export type Caller = (typeof CALLERS)[number];
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface Actor {
  client: Client;
  id: number;
  email: string;
  password: string;
}

export interface Fixtures {
  ctx: TestContext;
  admin: Actor;
  /** agent A: owns the objects that requests name */
  agent: Actor;
  /** agent B */
  otherAgent: Actor;
  /** an active MEDICARE package */
  packageId: number;
  /** a fresh lead assigned to agent A */
  leadOfAgent(): Promise<number>;
  /** a fresh NEW, unassigned lead */
  newLead(): Promise<number>;
  /** the user's subscription to the fixture package, ACTIVE (created or reset) */
  ensureSubscription(userId: number): Promise<void>;
  /** a fresh package (with this slug), its id */
  packageWithSlug(slug?: string): Promise<number>;
  /** the id of a finished import record */
  importRecord(): Promise<number>;
  /** a registered agent that no caller is signed in as: for login as anonymous */
  spareAccount(): Promise<{ email: string; password: string }>;
  /** a PENDING return of a fresh lead of agent A (docs/domain.md, Returns and credits), its id */
  pendingReturn(): Promise<number>;
  /** a fresh lead source (docs/domain.md, Sources and the intake API), its id */
  source(): Promise<number>;
  /** a fresh source with one API key (stored by a made-up hash): both ids */
  sourceKey(): Promise<{ sourceId: number; keyId: number }>;
  /** a fresh number put on the do-not-call list (docs/domain.md, Do-not-call list and consent), in E.164 */
  dncNumber(): Promise<string>;
}

export interface RequestSpec {
  url: string;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface RouteCase {
  method: Method;
  /** the path exactly as the route is registered */
  path: string;
  expect: Record<Caller, number>;
  /** A request that passes validation, so only who calls decides the answer. */
  request(fx: Fixtures, caller: Caller): Promise<RequestSpec> | RequestSpec;
  /**
   * The same route with input its schema refuses (400 for a caller who may call it): a caller
   * refused with 401/403 must get the same answer, since the role check runs before validation.
   */
  invalid?: (fx: Fixtures) => RequestSpec;
  /** what a permitted caller gets for `invalid` (400 unless said) */
  invalidStatus?: number;
}

const PUBLIC = (ok: number) => ({ anonymous: ok, agent: ok, otherAgent: ok, admin: ok });
const SIGNED_IN = (ok: number) => ({ anonymous: 401, agent: ok, otherAgent: ok, admin: ok });
const ADMIN_ONLY = (ok: number) => ({ anonymous: 401, agent: 403, otherAgent: 403, admin: ok });
/** A fresh valid US number for the do-not-call routes: +1 305 555 1000, 1001... */
let matrixPhoneSeq = 0;
const matrixPhone = () => `+13055551${String(matrixPhoneSeq++ % 1000).padStart(3, '0')}`;
/** `other`: what agent B gets when the request names agent A's object */
const AGENT_ONLY = (ok: number, other = ok) => ({
  anonymous: 401,
  agent: ok,
  otherAgent: other,
  admin: 403,
});

let sourceSeq = 0;
const sourceBody = () => ({
  name: `Matrix source ${process.pid}-${++sourceSeq}`,
  costPerLeadCents: 100,
});

let slugSeq = 0;
export function packageBody(overrides: Record<string, unknown> = {}) {
  const n = ++slugSeq;
  return {
    name: `Matrix package ${n}`,
    slug: `matrix-${process.pid}-${Date.now()}-${n}`,
    priceMonthlyCents: 9900,
    leadsPerDay: 5,
    commissionPct: 10,
    category: 'FINAL_EXPENSE',
    enrollmentOnly: false,
    services: { crm: true, callRecording: false, followUpMessage: true },
    active: true,
    ...overrides,
  };
}

/** A multipart/form-data body with one file field, as a browser sends it. */
export function multipartFile(
  content: Buffer | string,
  opts: { filename?: string; type?: string; field?: string; boundary?: string } = {},
): { body: Buffer; headers: Record<string, string> } {
  const boundary = opts.boundary ?? `----lfBoundary${Math.random().toString(36).slice(2)}`;
  const head =
    `--${boundary}\r\nContent-Disposition: form-data; name="${opts.field ?? 'file'}"; ` +
    `filename="${opts.filename ?? 'leads.csv'}"\r\nContent-Type: ${opts.type ?? 'text/csv'}\r\n\r\n`;
  const body = Buffer.concat([
    Buffer.from(head),
    Buffer.isBuffer(content) ? content : Buffer.from(content),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

let csvSeq = 0;
export function validCsv(rows = 1): string {
  const lines = ['externalId,firstName,lastName,phone,email,city,state,age,category'];
  for (let i = 0; i < rows; i++) {
    lines.push(
      `matrix-${process.pid}-${Date.now()}-${++csvSeq},Ann,Lee,${uniquePhone()},${uniqueEmail('csv')},Tulsa,OK,61,FINAL_EXPENSE`,
    );
  }
  return `${lines.join('\n')}\n`;
}

export const ROUTES: RouteCase[] = [
  {
    method: 'GET',
    path: '/api/health',
    expect: PUBLIC(200),
    request: () => ({ url: '/api/health' }),
  },
  // the API reference (plugins/openapi): public, like the API's own description of itself
  {
    method: 'GET',
    path: '/api/openapi.json',
    expect: PUBLIC(200),
    request: () => ({ url: '/api/openapi.json' }),
  },
  {
    method: 'GET',
    path: '/api/docs',
    expect: PUBLIC(302),
    request: () => ({ url: '/api/docs' }),
  },
  {
    method: 'GET',
    path: '/api/docs/json',
    expect: PUBLIC(200),
    request: () => ({ url: '/api/docs/json' }),
  },
  {
    method: 'GET',
    path: '/api/docs/yaml',
    expect: PUBLIC(200),
    request: () => ({ url: '/api/docs/yaml' }),
  },
  {
    method: 'GET',
    path: '/api/docs/static/index.html',
    // swagger-ui sends it to the reference's own page
    expect: PUBLIC(302),
    request: () => ({ url: '/api/docs/static/index.html' }),
  },
  {
    method: 'GET',
    path: '/api/docs/static/swagger-initializer.js',
    expect: PUBLIC(200),
    request: () => ({ url: '/api/docs/static/swagger-initializer.js' }),
  },
  {
    method: 'GET',
    path: '/api/docs/static/theme/theme.css',
    expect: PUBLIC(200),
    request: () => ({ url: '/api/docs/static/theme/theme.css' }),
  },
  {
    method: 'GET',
    path: '/api/docs/static/*',
    expect: PUBLIC(200),
    request: () => ({ url: '/api/docs/static/swagger-ui.css' }),
  },
  {
    method: 'POST',
    path: '/api/auth/register',
    expect: PUBLIC(201),
    request: () => ({
      url: '/api/auth/register',
      body: { name: 'Matrix Agent', email: uniqueEmail('matrix'), password: 'secret123' },
    }),
  },
  {
    method: 'POST',
    path: '/api/auth/login',
    expect: PUBLIC(200),
    // every signed-in caller logs in as themselves (the runner keeps the rotated cookie)
    request: async (fx, caller) => {
      const who = caller === 'anonymous' ? await fx.spareAccount() : fx[caller];
      return { url: '/api/auth/login', body: { email: who.email, password: who.password } };
    },
  },
  {
    method: 'POST',
    path: '/api/auth/logout',
    expect: PUBLIC(200),
    request: () => ({ url: '/api/auth/logout' }),
  },
  {
    method: 'GET',
    path: '/api/auth/me',
    expect: SIGNED_IN(200),
    request: () => ({ url: '/api/auth/me' }),
  },
  {
    method: 'GET',
    path: '/api/packages',
    expect: PUBLIC(200),
    request: () => ({ url: '/api/packages' }),
  },

  // admin: packages
  {
    method: 'GET',
    path: '/api/admin/packages',
    expect: ADMIN_ONLY(200),
    request: () => ({ url: '/api/admin/packages' }),
  },
  {
    method: 'POST',
    path: '/api/admin/packages',
    expect: ADMIN_ONLY(201),
    request: () => ({ url: '/api/admin/packages', body: packageBody() }),
    invalid: () => ({ url: '/api/admin/packages', body: { name: '' } }),
  },
  {
    method: 'PUT',
    path: '/api/admin/packages/:id',
    expect: ADMIN_ONLY(200),
    request: async (fx) => {
      const body = packageBody();
      return { url: `/api/admin/packages/${await fx.packageWithSlug(body.slug)}`, body };
    },
    invalid: (fx) => ({ url: `/api/admin/packages/${fx.packageId}`, body: { slug: 'x' } }),
  },
  {
    method: 'PATCH',
    path: '/api/admin/packages/:id',
    expect: ADMIN_ONLY(200),
    request: async (fx) => {
      return {
        url: `/api/admin/packages/${await fx.packageWithSlug()}`,
        body: { active: false },
      };
    },
    invalid: () => ({ url: '/api/admin/packages/not-a-number', body: { active: 'yes' } }),
  },

  // admin: read-outs and agents
  {
    method: 'GET',
    path: '/api/admin/stats',
    expect: ADMIN_ONLY(200),
    request: () => ({ url: '/api/admin/stats' }),
  },
  {
    method: 'GET',
    path: '/api/admin/agents',
    expect: ADMIN_ONLY(200),
    request: () => ({ url: '/api/admin/agents' }),
  },
  {
    method: 'PATCH',
    path: '/api/admin/agents/:id/subscription',
    expect: ADMIN_ONLY(200),
    request: async (fx) => {
      await fx.ensureSubscription(fx.agent.id);
      return { url: `/api/admin/agents/${fx.agent.id}/subscription`, body: { status: 'PAST_DUE' } };
    },
    invalid: (fx) => ({
      url: `/api/admin/agents/${fx.agent.id}/subscription`,
      body: { status: 'SUPERUSER' },
    }),
  },
  {
    method: 'GET',
    path: '/api/admin/analytics',
    expect: ADMIN_ONLY(200),
    request: () => ({ url: '/api/admin/analytics' }),
  },
  {
    method: 'GET',
    path: '/api/admin/analytics/speed-to-lead',
    expect: ADMIN_ONLY(200),
    request: () => ({ url: '/api/admin/analytics/speed-to-lead?from=2026-01-01&to=2026-01-31' }),
    invalid: () => ({ url: '/api/admin/analytics/speed-to-lead?from=yesterday' }),
  },
  {
    method: 'GET',
    path: '/api/admin/analytics/sources',
    expect: ADMIN_ONLY(200),
    request: () => ({ url: '/api/admin/analytics/sources?from=2026-01-01&to=2026-01-31' }),
    invalid: () => ({ url: '/api/admin/analytics/sources?from=2026-02-01&to=2026-01-01' }),
  },
  {
    method: 'GET',
    path: '/api/admin/leads/:id/explain',
    expect: ADMIN_ONLY(200),
    request: async (fx) => ({ url: `/api/admin/leads/${await fx.newLead()}/explain` }),
    invalid: () => ({ url: '/api/admin/leads/abc/explain' }),
  },
  {
    method: 'GET',
    path: '/api/admin/leads/:id/fit/:agentId',
    expect: ADMIN_ONLY(200),
    request: async (fx) => ({ url: `/api/admin/leads/${await fx.newLead()}/fit/${fx.agent.id}` }),
    invalid: (fx) => ({ url: `/api/admin/leads/abc/fit/${fx.agent.id}` }),
  },
  {
    method: 'GET',
    path: '/api/admin/leads/unfit-reasons',
    expect: ADMIN_ONLY(200),
    request: () => ({ url: '/api/admin/leads/unfit-reasons' }),
  },

  // admin: leads
  {
    method: 'GET',
    path: '/api/admin/leads',
    expect: ADMIN_ONLY(200),
    request: () => ({ url: '/api/admin/leads?status=NEW&q=a&limit=10&offset=0' }),
    invalid: () => ({ url: '/api/admin/leads?status=BOGUS&limit=-1' }),
  },
  {
    method: 'POST',
    path: '/api/admin/leads/assign',
    expect: ADMIN_ONLY(200),
    request: async (fx) => ({
      url: '/api/admin/leads/assign',
      body: { leadId: await fx.newLead(), userId: fx.agent.id },
    }),
    invalid: () => ({ url: '/api/admin/leads/assign', body: { leadId: 'x' } }),
  },
  {
    method: 'POST',
    path: '/api/admin/leads/import',
    expect: ADMIN_ONLY(200),
    request: () => {
      const { body, headers } = multipartFile(validCsv(2));
      return { url: '/api/admin/leads/import', body, headers };
    },
    invalid: () => ({
      url: '/api/admin/leads/import',
      body: 'not a multipart body',
      headers: { 'content-type': 'text/plain' },
    }),
    invalidStatus: 415,
  },
  {
    method: 'GET',
    path: '/api/admin/leads/export',
    expect: ADMIN_ONLY(200),
    request: () => ({ url: '/api/admin/leads/export?status=NEW&q=a' }),
    invalid: () => ({ url: '/api/admin/leads/export?status=BOGUS' }),
  },

  {
    method: 'GET',
    path: '/api/admin/imports',
    expect: ADMIN_ONLY(200),
    request: () => ({ url: '/api/admin/imports?status=DONE' }),
    invalid: () => ({ url: '/api/admin/imports?status=BOGUS' }),
  },
  {
    method: 'GET',
    path: '/api/admin/imports/:id',
    expect: ADMIN_ONLY(200),
    request: async (fx) => ({ url: `/api/admin/imports/${await fx.importRecord()}` }),
    invalid: () => ({ url: '/api/admin/imports/abc' }),
  },

  // admin: assignment engine
  {
    method: 'POST',
    path: '/api/admin/assignment/run',
    expect: ADMIN_ONLY(200),
    request: () => ({ url: '/api/admin/assignment/run' }),
  },
  {
    method: 'GET',
    path: '/api/admin/assignment/runs',
    expect: ADMIN_ONLY(200),
    request: () => ({ url: '/api/admin/assignment/runs?limit=5' }),
    invalid: () => ({ url: '/api/admin/assignment/runs?limit=0' }),
  },

  // agent workspace
  {
    method: 'GET',
    path: '/api/agent/stats',
    expect: AGENT_ONLY(200),
    request: () => ({ url: '/api/agent/stats' }),
  },
  {
    method: 'GET',
    path: '/api/agent/leads',
    expect: AGENT_ONLY(200),
    request: () => ({ url: '/api/agent/leads?status=ASSIGNED' }),
    invalid: () => ({ url: '/api/agent/leads?status=STOLEN' }),
  },
  {
    method: 'POST',
    path: '/api/agent/leads/:id/status',
    // agent B names agent A's lead: 404, as if it did not exist
    expect: AGENT_ONLY(200, 404),
    request: async (fx) => ({
      url: `/api/agent/leads/${await fx.leadOfAgent()}/status`,
      body: { status: 'CONTACTED' },
    }),
    invalid: () => ({ url: '/api/agent/leads/abc/status', body: { status: 'ASSIGNED' } }),
  },
  {
    method: 'GET',
    path: '/api/agent/preferences',
    expect: AGENT_ONLY(200),
    request: () => ({ url: '/api/agent/preferences' }),
  },
  {
    method: 'GET',
    path: '/api/agent/preferences/preview',
    expect: AGENT_ONLY(200),
    request: () => ({
      url: '/api/agent/preferences/preview?states=TX,FL&cities=Dallas&ageMin=60&ageMax=80',
    }),
    invalid: () => ({ url: '/api/agent/preferences/preview?states=XX&ageMin=90&ageMax=20' }),
  },
  {
    method: 'PUT',
    path: '/api/agent/preferences',
    expect: AGENT_ONLY(200),
    request: () => ({
      url: '/api/agent/preferences',
      body: { states: ['TX'], cities: ['Dallas'], ageMin: 60, ageMax: 80, categories: [] },
    }),
    invalid: () => ({
      url: '/api/agent/preferences',
      body: { states: ['XX'], cities: [], ageMin: 90, ageMax: 20, categories: [] },
    }),
  },
  // availability and returns (docs/domain.md, Pause, Licensed states, Returns and credits): the agent's pause, an admin's licences, returns
  {
    method: 'GET',
    path: '/api/agent/pause',
    expect: AGENT_ONLY(200),
    request: () => ({ url: '/api/agent/pause' }),
  },
  {
    method: 'PUT',
    path: '/api/agent/pause',
    expect: AGENT_ONLY(200),
    // a date far ahead, then DELETE resumes: the fixture agents stay eligible
    request: () => ({ url: '/api/agent/pause', body: { until: '2099-12-31' } }),
    invalid: () => ({ url: '/api/agent/pause', body: { until: 'next week' } }),
  },
  {
    method: 'DELETE',
    path: '/api/agent/pause',
    expect: AGENT_ONLY(200),
    request: () => ({ url: '/api/agent/pause' }),
  },
  {
    method: 'PUT',
    path: '/api/admin/agents/:id/licenses',
    expect: ADMIN_ONLY(200),
    request: (fx) => ({ url: `/api/admin/agents/${fx.agent.id}/licenses`, body: { states: [] } }),
    invalid: (fx) => ({
      url: `/api/admin/agents/${fx.agent.id}/licenses`,
      body: { states: ['XX'] },
    }),
  },
  {
    method: 'POST',
    path: '/api/agent/leads/:id/return',
    // agent B names agent A's lead: 404
    expect: { anonymous: 401, agent: 201, otherAgent: 404, admin: 403 },
    request: async (fx) => ({
      url: `/api/agent/leads/${await fx.leadOfAgent()}/return`,
      body: { reason: 'WRONG_NUMBER', note: 'matrix' },
    }),
    invalid: () => ({ url: '/api/agent/leads/1/return', body: { reason: 'BORED' } }),
  },
  {
    method: 'GET',
    path: '/api/agent/leads/:id/return',
    expect: AGENT_ONLY(200, 404),
    request: async (fx) => ({ url: `/api/agent/leads/${await fx.leadOfAgent()}/return` }),
  },
  {
    method: 'GET',
    path: '/api/admin/returns',
    expect: ADMIN_ONLY(200),
    request: () => ({ url: '/api/admin/returns?status=PENDING' }),
    invalid: () => ({ url: '/api/admin/returns?status=MAYBE' }),
  },
  {
    method: 'POST',
    path: '/api/admin/returns/:id/decision',
    expect: ADMIN_ONLY(200),
    request: async (fx) => ({
      url: `/api/admin/returns/${await fx.pendingReturn()}/decision`,
      body: { approve: false, note: 'matrix' },
    }),
    invalid: () => ({ url: '/api/admin/returns/1/decision', body: { approve: 'yes' } }),
  },
  // delivery (modules/delivery): an agent's settings, the webhook test (no URL set: 400), a lead's
  // timeline; the admins' deliveries log and retry (no such delivery: 404)
  {
    method: 'GET',
    path: '/api/agent/delivery',
    expect: AGENT_ONLY(200),
    request: () => ({ url: '/api/agent/delivery' }),
  },
  {
    method: 'PUT',
    path: '/api/agent/delivery',
    expect: AGENT_ONLY(200),
    request: () => ({ url: '/api/agent/delivery', body: { email: { enabled: true } } }),
    invalid: () => ({ url: '/api/agent/delivery', body: { email: { enabled: 'yes' } } }),
  },
  {
    method: 'POST',
    path: '/api/agent/delivery/webhook/test',
    expect: AGENT_ONLY(400),
    request: () => ({ url: '/api/agent/delivery/webhook/test' }),
  },
  {
    method: 'GET',
    path: '/api/agent/leads/:id/activity',
    expect: AGENT_ONLY(200, 404),
    request: async (fx) => ({ url: `/api/agent/leads/${await fx.leadOfAgent()}/activity` }),
    invalid: () => ({ url: '/api/agent/leads/abc/activity' }),
  },
  {
    method: 'GET',
    path: '/api/admin/deliveries',
    expect: ADMIN_ONLY(200),
    request: () => ({ url: '/api/admin/deliveries?status=FAILED&limit=10' }),
    invalid: () => ({ url: '/api/admin/deliveries?status=LOST' }),
  },
  {
    method: 'POST',
    path: '/api/admin/deliveries/:id/retry',
    expect: ADMIN_ONLY(404),
    request: () => ({ url: '/api/admin/deliveries/999999999/retry' }),
    invalid: () => ({ url: '/api/admin/deliveries/abc/retry' }),
  },
  // live updates (modules/notifications): the bell of each role, and the agent's event stream
  {
    method: 'GET',
    path: '/api/agent/notifications',
    expect: AGENT_ONLY(200),
    request: () => ({ url: '/api/agent/notifications' }),
  },
  {
    method: 'POST',
    path: '/api/agent/notifications/read',
    expect: AGENT_ONLY(200),
    request: () => ({ url: '/api/agent/notifications/read', body: { ids: [1] } }),
    invalid: () => ({ url: '/api/agent/notifications/read', body: { ids: ['all'] } }),
  },
  {
    method: 'GET',
    path: '/api/admin/notifications',
    expect: ADMIN_ONLY(200),
    request: () => ({ url: '/api/admin/notifications' }),
  },
  {
    method: 'POST',
    path: '/api/admin/notifications/read',
    expect: ADMIN_ONLY(200),
    request: () => ({ url: '/api/admin/notifications/read', body: {} }),
    invalid: () => ({ url: '/api/admin/notifications/read', body: { ids: [0] } }),
  },
  {
    // an event stream answers only a client that asks for one (Accept: text/event-stream, as
    // EventSource does); asked otherwise, a signed-in agent gets 400 and the call ends, which is
    // what app.inject can wait for. test/live-events.test.ts opens the stream over HTTP.
    method: 'GET',
    path: '/api/agent/events',
    expect: AGENT_ONLY(400),
    request: () => ({ url: '/api/agent/events' }),
  },
  {
    method: 'POST',
    path: '/api/agent/subscription',
    expect: AGENT_ONLY(200),
    request: (fx) => ({ url: '/api/agent/subscription', body: { packageId: fx.packageId } }),
    invalid: () => ({ url: '/api/agent/subscription', body: { packageId: -1 } }),
  },
  {
    method: 'DELETE',
    path: '/api/agent/subscription',
    expect: AGENT_ONLY(200),
    request: async (fx, caller) => {
      if (caller === 'agent' || caller === 'otherAgent') await fx.ensureSubscription(fx[caller].id);
      return { url: '/api/agent/subscription' };
    },
  },

  // lead sources and their API keys (modules/sources); the intake answers 401 to anyone
  // without a source's key, whatever session comes with the request (test/intake.test.ts)
  {
    method: 'GET',
    path: '/api/admin/sources',
    expect: ADMIN_ONLY(200),
    request: () => ({ url: '/api/admin/sources' }),
  },
  {
    method: 'POST',
    path: '/api/admin/sources',
    expect: ADMIN_ONLY(201),
    request: () => ({ url: '/api/admin/sources', body: sourceBody() }),
    invalid: () => ({ url: '/api/admin/sources', body: { name: '', costPerLeadCents: -1 } }),
  },
  {
    method: 'PATCH',
    path: '/api/admin/sources/:id',
    expect: ADMIN_ONLY(200),
    request: async (fx) => ({
      url: `/api/admin/sources/${await fx.source()}`,
      body: { costPerLeadCents: 250 },
    }),
    invalid: () => ({ url: '/api/admin/sources/not-a-number', body: { active: 'yes' } }),
  },
  {
    method: 'GET',
    path: '/api/admin/sources/:id/keys',
    expect: ADMIN_ONLY(200),
    request: async (fx) => ({ url: `/api/admin/sources/${await fx.source()}/keys` }),
    invalid: () => ({ url: '/api/admin/sources/0/keys' }),
  },
  {
    method: 'POST',
    path: '/api/admin/sources/:id/keys',
    expect: ADMIN_ONLY(201),
    request: async (fx) => ({ url: `/api/admin/sources/${await fx.source()}/keys` }),
    invalid: () => ({ url: '/api/admin/sources/x/keys' }),
  },
  {
    method: 'DELETE',
    path: '/api/admin/sources/:id/keys/:keyId',
    expect: ADMIN_ONLY(200),
    request: async (fx) => {
      const { sourceId, keyId } = await fx.sourceKey();
      return { url: `/api/admin/sources/${sourceId}/keys/${keyId}` };
    },
    invalid: () => ({ url: '/api/admin/sources/1/keys/x' }),
  },
  // the do-not-call list (modules/dnc)
  {
    method: 'GET',
    path: '/api/admin/dnc',
    expect: ADMIN_ONLY(200),
    request: () => ({ url: '/api/admin/dnc?q=305' }),
    invalid: () => ({ url: '/api/admin/dnc?limit=0' }),
  },
  {
    method: 'POST',
    path: '/api/admin/dnc',
    expect: ADMIN_ONLY(200),
    request: () => ({ url: '/api/admin/dnc', body: { phones: [matrixPhone()] } }),
    invalid: () => ({ url: '/api/admin/dnc', body: { phones: 'not a list' } }),
  },
  {
    method: 'DELETE',
    path: '/api/admin/dnc/:phone',
    expect: ADMIN_ONLY(200),
    request: async (fx) => ({
      url: `/api/admin/dnc/${encodeURIComponent(await fx.dncNumber())}`,
    }),
    invalid: () => ({ url: '/api/admin/dnc/not-a-phone' }),
  },
  {
    method: 'POST',
    path: '/api/v1/leads',
    expect: PUBLIC(401),
    request: () => ({
      url: '/api/v1/leads',
      body: { city: 'Austin', state: 'TX', age: 65, category: 'MEDICARE' },
    }),
  },
  // billing (docs/domain.md, Billing): this app runs without Stripe, so the portal has nothing to open (409)
  // and the webhook answers 404; test/billing.test.ts runs them with Stripe
  {
    method: 'GET',
    path: '/api/agent/billing',
    expect: AGENT_ONLY(200),
    request: () => ({ url: '/api/agent/billing' }),
  },
  {
    method: 'POST',
    path: '/api/agent/billing/portal',
    expect: AGENT_ONLY(409),
    request: () => ({ url: '/api/agent/billing/portal' }),
  },
  {
    method: 'POST',
    path: '/api/billing/stripe/webhook',
    expect: PUBLIC(404),
    request: () => ({ url: '/api/billing/stripe/webhook', body: { id: 'evt_1' } }),
  },
  // follow-up messages and calls (docs/domain.md, Follow-up messages and calls): this app runs without Twilio, so a call is refused
  // (409, not configured) and the provider's callbacks answer 404; test/follow-up.test.ts and
  // test/calls.test.ts run them with Twilio's stand-in
  {
    method: 'GET',
    path: '/api/agent/profile',
    expect: AGENT_ONLY(200),
    request: () => ({ url: '/api/agent/profile' }),
  },
  {
    method: 'PUT',
    path: '/api/agent/profile',
    expect: AGENT_ONLY(200),
    request: () => ({ url: '/api/agent/profile', body: { phone: '+13055550123' } }),
    invalid: () => ({ url: '/api/agent/profile', body: { phone: 5 } }),
  },
  {
    method: 'GET',
    path: '/api/agent/services',
    expect: AGENT_ONLY(200),
    request: () => ({ url: '/api/agent/services' }),
  },
  {
    method: 'GET',
    path: '/api/agent/follow-up',
    expect: AGENT_ONLY(200),
    request: () => ({ url: '/api/agent/follow-up' }),
  },
  {
    method: 'PUT',
    path: '/api/agent/follow-up',
    expect: AGENT_ONLY(200),
    request: () => ({
      url: '/api/agent/follow-up',
      body: { enabled: false, sms: 'Hi {firstName}', email: { subject: 'Hi', body: 'Hello' } },
    }),
    invalid: () => ({ url: '/api/agent/follow-up', body: { enabled: 'yes' } }),
  },
  {
    method: 'GET',
    path: '/api/admin/follow-ups',
    expect: ADMIN_ONLY(200),
    request: () => ({ url: '/api/admin/follow-ups' }),
  },
  {
    method: 'POST',
    path: '/api/agent/leads/:id/call',
    expect: AGENT_ONLY(409, 404),
    request: async (fx) => ({ url: `/api/agent/leads/${await fx.leadOfAgent()}/call` }),
    invalid: () => ({ url: '/api/agent/leads/abc/call' }),
  },
  {
    method: 'GET',
    path: '/api/agent/leads/:id/calls',
    expect: AGENT_ONLY(200, 404),
    request: async (fx) => ({ url: `/api/agent/leads/${await fx.leadOfAgent()}/calls` }),
    invalid: () => ({ url: '/api/agent/leads/abc/calls' }),
  },
  {
    method: 'GET',
    path: '/api/recordings/:id',
    // no call has a recording here: the lead's agent and admins get 200 in test/calls.test.ts
    expect: { anonymous: 401, agent: 404, otherAgent: 404, admin: 404 },
    request: () => ({ url: '/api/recordings/999999999' }),
    invalid: () => ({ url: '/api/recordings/abc' }),
  },
  {
    method: 'POST',
    path: '/api/telephony/sms/status',
    expect: PUBLIC(404),
    request: () => ({
      url: '/api/telephony/sms/status',
      body: { MessageSid: 'SM1', MessageStatus: 'delivered' },
    }),
  },
  {
    method: 'POST',
    path: '/api/telephony/sms/inbound',
    expect: PUBLIC(404),
    request: () => ({
      url: '/api/telephony/sms/inbound',
      body: { MessageSid: 'SM1', From: '+13055550123', Body: 'STOP' },
    }),
  },
  {
    method: 'POST',
    path: '/api/telephony/voice/status',
    expect: PUBLIC(404),
    request: () => ({
      url: '/api/telephony/voice/status',
      body: { CallSid: 'CA1', CallStatus: 'ringing' },
    }),
  },
  {
    method: 'POST',
    path: '/api/telephony/voice/recording',
    expect: PUBLIC(404),
    request: () => ({
      url: '/api/telephony/voice/recording?callId=1',
      body: { RecordingSid: 'RE1', RecordingUrl: 'https://api.twilio.com/x' },
    }),
  },
  {
    method: 'POST',
    path: '/api/telephony/voice/:callId/connect',
    expect: PUBLIC(404),
    request: () => ({ url: '/api/telephony/voice/1/connect', body: { CallSid: 'CA1' } }),
  },
  {
    method: 'POST',
    path: '/api/telephony/voice/:callId/dialed',
    expect: PUBLIC(404),
    request: () => ({
      url: '/api/telephony/voice/1/dialed',
      body: { CallSid: 'CA1', DialCallStatus: 'completed' },
    }),
  },
];

/** Signs in an admin and two agents, and creates what the table's requests name. */
export async function createFixtures(ctx: TestContext): Promise<Fixtures> {
  const db = ctx.database.db;
  const admin = await loginAdmin(ctx);
  const agentA = await registerAgent(ctx.app, 'Agent A');
  const agentB = await registerAgent(ctx.app, 'Agent B');
  const pkg = await insertPackage(db, { category: 'MEDICARE', leadsPerDay: 50 });
  const fx: Fixtures = {
    ctx,
    admin,
    agent: agentA,
    otherAgent: agentB,
    packageId: pkg.id,
    async leadOfAgent() {
      const [lead] = await insertLeads(db, [{ agentId: agentA.id, assignedOn: '2020-01-01' }]);
      return lead.id;
    },
    async newLead() {
      // AK leads of a category no fixture agent subscribes to: no run takes them first
      const [lead] = await insertLeads(db, [{ category: 'ACA', state: 'AK', city: 'Nome' }]);
      return lead.id;
    },
    async ensureSubscription(userId) {
      await db
        .insert(subscriptions)
        .values({ userId, packageId: pkg.id, status: 'ACTIVE' })
        .onConflictDoUpdate({
          target: subscriptions.userId,
          set: { packageId: pkg.id, status: 'ACTIVE' },
        });
    },
    async packageWithSlug(slug) {
      return (await insertPackage(db, slug ? { slug } : {})).id;
    },
    async importRecord() {
      const [row] = await db
        .insert(imports)
        .values({ userId: admin.id, filename: 'matrix.csv', status: 'DONE' })
        .returning({ id: imports.id });
      return row.id;
    },
    async spareAccount() {
      const spare = await registerAgent(ctx.app, 'Spare');
      return { email: spare.email, password: spare.password };
    },
    async pendingReturn() {
      const leadId = await fx.leadOfAgent();
      const [row] = await db
        .insert(leadReturns)
        .values({ leadId, agentId: agentA.id, reason: 'DUPLICATE' })
        .returning({ id: leadReturns.id });
      return row.id;
    },
    async source() {
      const [row] = await db.insert(sources).values(sourceBody()).returning({ id: sources.id });
      return row.id;
    },
    async sourceKey() {
      const sourceId = await fx.source();
      const [row] = await db
        .insert(apiKeys)
        .values({
          sourceId,
          keyHash: `matrix-${sourceId}-${Math.random()}`,
          prefix: 'lf_live_matrix',
        })
        .returning({ id: apiKeys.id });
      return { sourceId, keyId: row.id };
    },
    async dncNumber() {
      const phone = matrixPhone();
      await db.insert(dncNumbers).values({ phone });
      return phone;
    },
  };
  await fx.ensureSubscription(agentA.id);
  await fx.ensureSubscription(agentB.id);
  return fx;
}

/** Sends a table request as the caller: a fresh cookie-less client for anonymous. */
export async function send(
  fx: Fixtures,
  caller: Caller,
  method: Method,
  spec: RequestSpec,
  extraHeaders: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  const client = caller === 'anonymous' ? new Client(fx.ctx.app) : fx[caller].client;
  const res = await client.request(method, spec.url, spec.body, {
    ...spec.headers,
    ...extraHeaders,
  });
  // a logout (or a login that failed) dropped the caller's session: sign them in again
  if (caller !== 'anonymous' && !client.cookie) {
    const actor = fx[caller];
    const login = await client.post('/api/auth/login', {
      email: actor.email,
      password: actor.password,
    });
    if (login.statusCode !== 200) throw new Error(`re-login of ${caller} failed: ${login.body}`);
  }
  return res;
}

/** Every table of the schema (sessions without the idle clock, which reads may advance). */
export const CHECKED_TABLES = [
  'users',
  'sessions',
  'packages',
  'subscriptions',
  'preferences',
  'imports',
  'assignment_runs',
  'leads',
  'lead_history',
  'sources',
  'api_keys',
  'delivery_settings',
  'deliveries',
  'delivery_attempts',
  'notifications',
  'billing_customers',
  'billing_events',
  'dnc_numbers',
  'follow_up_settings',
  'follow_up_messages',
  'calls',
  'lead_returns',
  'lead_refusals',
] as const;
export type CheckedTable = (typeof CHECKED_TABLES)[number];

/** Row count and an order-independent checksum of each table's rows. */
export async function tableChecksums(
  ctx: TestContext,
  tables: readonly CheckedTable[] = CHECKED_TABLES,
): Promise<Record<string, string>> {
  const parts = tables.map((t) => {
    const row =
      t === 'sessions'
        ? sql.raw(`(t.token_hash, t.user_id, t.created_at, t.expires_at)::text`)
        : sql.raw('t::text');
    return sql`select ${t}::text as name, count(*)::text || ':' || coalesce(sum(hashtext(${row})::bigint), 0)::text as sum from ${sql.identifier(t)} t`;
  });
  const query = sql.join(parts, sql` union all `);
  const result = (await ctx.database.db.execute(query)) as unknown as {
    rows: { name: string; sum: string }[];
  };
  return Object.fromEntries(result.rows.map((r) => [r.name, r.sum]));
}

/** Inputs tried per route by the fuzz tests, with the statuses they got. */
export class FuzzTally {
  private readonly rows = new Map<string, Map<number, number>>();

  record(route: string, status: number): void {
    const row = this.rows.get(route) ?? new Map<number, number>();
    row.set(status, (row.get(status) ?? 0) + 1);
    this.rows.set(route, row);
  }

  get total(): number {
    let n = 0;
    for (const row of this.rows.values()) for (const count of row.values()) n += count;
    return n;
  }

  report(title: string): string {
    const width = Math.max(...[...this.rows.keys()].map((k) => k.length), 10);
    const lines = [...this.rows].map(([route, row]) => {
      const tried = [...row.values()].reduce((a, b) => a + b, 0);
      const statuses = [...row]
        .sort(([a], [b]) => a - b)
        .map(([status, n]) => `${status}x${n}`)
        .join(' ');
      return `  ${route.padEnd(width)}  ${String(tried).padStart(5)} tried: ${statuses}`;
    });
    return [`${title} (${TEST_DB_LABEL}):`, ...lines, `  total: ${this.total} inputs`].join('\n');
  }
}
const TEST_DB_LABEL = process.env.TEST_DB ?? 'pglite';

export interface Probe {
  /** tables a refused call may change, with a check of the change (e.g. an audit row) */
  allowOnRefusal?: Partial<Record<CheckedTable, true>>;
}

/**
 * Sends one generated request and holds the invariants: never a 5xx; a refusal is a JSON
 * {message} and leaves every table as it was.
 */
export async function probe(
  ctx: TestContext,
  tally: FuzzTally,
  route: string,
  fire: () => Promise<LightMyRequestResponse>,
  opts: Probe = {},
): Promise<LightMyRequestResponse> {
  const before = await tableChecksums(ctx);
  const res = await fire();
  tally.record(route, res.statusCode);
  if (res.statusCode >= 500) {
    throw new Error(`${route} answered ${res.statusCode}: ${res.body.slice(0, 500)}`);
  }
  if (res.statusCode >= 400) {
    let body: unknown;
    try {
      body = res.json();
    } catch {
      throw new Error(`${route} refused with a body that is not JSON: ${res.body.slice(0, 200)}`);
    }
    if (typeof (body as { message?: unknown })?.message !== 'string') {
      throw new Error(`${route} refused without a message: ${res.body.slice(0, 200)}`);
    }
    const after = await tableChecksums(ctx);
    for (const table of CHECKED_TABLES) {
      if (opts.allowOnRefusal?.[table]) continue;
      if (after[table] !== before[table]) {
        throw new Error(
          `${route} refused (${res.statusCode} ${res.body.slice(0, 200)}) yet changed ${table}`,
        );
      }
    }
  }
  return res;
}
