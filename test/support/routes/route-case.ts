import { uniquePhone } from '../lead-contact';
import { type Client, type TestContext, uniqueEmail } from '../test-app';

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
  /** a fresh pay-per-lead package ($15 a lead), its id */
  perLeadPackage(): Promise<number>;
  /** the id of a finished import record */
  importRecord(): Promise<number>;
  /** a registered agent that no caller is signed in as: for login as anonymous */
  spareAccount(): Promise<{ email: string; password: string }>;
  /** the id of a registered agent that no caller is signed in as: for what ends its sessions */
  spareUserId(): Promise<number>;
  /** the token of a fresh password reset link of a spare account (docs/domain.md, Accounts) */
  resetToken(): Promise<string>;
  /** a PENDING return of a fresh lead of agent A (docs/domain.md, Returns and credits), its id */
  pendingReturn(): Promise<number>;
  /** a fresh lead source (docs/domain.md, Sources and the intake API), its id */
  source(): Promise<number>;
  /** a fresh source with one API key (stored by a made-up hash): both ids */
  sourceKey(): Promise<{ sourceId: number; keyId: number }>;
  /** agencies (docs/domain.md, Agencies): agent A owns one; see test/support/agency-fixtures.ts */
  agencyOfAgent(): Promise<number>;
  agencyMember(): Promise<number>;
  agencyPaidMember(): Promise<number>;
  agencyInvite(): Promise<{ id: number; code: string }>;
  agencyLead(memberId: number): Promise<number>;
  withoutAgency(userId: number): Promise<void>;
  /** a fresh number put on the do-not-call list (docs/domain.md, Do-not-call list and consent), in E.164 */
  dncNumber(): Promise<string>;
  /** removes agents A's and B's push devices (docs/domain.md, Alerts to the agent's phone) */
  withoutPushDevices(): Promise<void>;
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

export const PUBLIC = (ok: number) => ({ anonymous: ok, agent: ok, otherAgent: ok, admin: ok });
export const SIGNED_IN = (ok: number) => ({ anonymous: 401, agent: ok, otherAgent: ok, admin: ok });
export const ADMIN_ONLY = (ok: number) => ({
  anonymous: 401,
  agent: 403,
  otherAgent: 403,
  admin: ok,
});
/** A fresh valid US number for the do-not-call routes: +1 305 555 1000, 1001... */
let matrixPhoneSeq = 0;
export const matrixPhone = () => `+13055551${String(matrixPhoneSeq++ % 1000).padStart(3, '0')}`;
/** `other`: what agent B gets when the request names agent A's object */
export const AGENT_ONLY = (ok: number, other = ok) => ({
  anonymous: 401,
  agent: ok,
  otherAgent: other,
  admin: 403,
});

let sourceSeq = 0;
export const sourceBody = () => ({
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
