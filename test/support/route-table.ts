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
import { adminResetLink } from '../../src/server/modules/auth/passwords.service';
import { agencyFixtures } from './agency-fixtures';
import { insertLeads, insertPackage } from './agent-fixtures';
import { agenciesRoutes } from './routes/agencies';
import { agentsRoutes } from './routes/agents';
import { alertsRoutes } from './routes/alerts';
import { analyticsRoutes } from './routes/analytics';
import { apiReferenceRoutes } from './routes/api-reference';
import { assignmentRoutes } from './routes/assignment';
import { auditRoutes } from './routes/audit';
import { authRoutes } from './routes/auth';
import { billingRoutes } from './routes/billing';
import { callsRoutes } from './routes/calls';
import { deliveryRoutes } from './routes/delivery';
import { dncRoutes } from './routes/dnc';
import { explanationRoutes } from './routes/explanation';
import { followUpsRoutes } from './routes/follow-ups';
import { healthRoutes } from './routes/health';
import { importsRoutes } from './routes/imports';
import { intakeRoutes } from './routes/intake';
import { leadsRoutes } from './routes/leads';
import { legalRoutes } from './routes/legal';
import { licencesRoutes } from './routes/licences';
import { notificationsRoutes } from './routes/notifications';
import { packagesRoutes } from './routes/packages';
import { pauseRoutes } from './routes/pause';
import { preferencesRoutes } from './routes/preferences';
import { privacyRoutes } from './routes/privacy';
import { profileRoutes } from './routes/profile';
import { pushRoutes } from './routes/push';
import { returnsRoutes } from './routes/returns';
import {
  type Caller,
  type Fixtures,
  type Method,
  matrixPhone,
  type RequestSpec,
  type RouteCase,
  sourceBody,
} from './routes/route-case';
import { scheduleRoutes } from './routes/schedule';
import { sourcesRoutes } from './routes/sources';
import { statsRoutes } from './routes/stats';
import { subscriptionsRoutes } from './routes/subscriptions';
import { walletRoutes } from './routes/wallet';
import { Client, loginAdmin, registerAgent, type TestContext } from './test-app';

export {
  type Actor,
  ADMIN_ONLY,
  CALLERS,
  type Caller,
  type Fixtures,
  type Method,
  multipartFile,
  packageBody,
  type RequestSpec,
  type RouteCase,
  validCsv,
} from './routes/route-case';

/** Every route, module by module (test/support/routes/<module>.ts). */
export const ROUTES: RouteCase[] = [
  ...healthRoutes,
  ...apiReferenceRoutes,
  ...authRoutes,
  ...auditRoutes,
  ...packagesRoutes,
  ...statsRoutes,
  ...agentsRoutes,
  ...subscriptionsRoutes,
  ...analyticsRoutes,
  ...explanationRoutes,
  ...leadsRoutes,
  ...assignmentRoutes,
  ...importsRoutes,
  ...preferencesRoutes,
  ...legalRoutes,
  ...pauseRoutes,
  ...scheduleRoutes,
  ...walletRoutes,
  ...licencesRoutes,
  ...returnsRoutes,
  ...deliveryRoutes,
  ...notificationsRoutes,
  ...sourcesRoutes,
  ...dncRoutes,
  ...privacyRoutes,
  ...intakeRoutes,
  ...billingRoutes,
  ...profileRoutes,
  ...pushRoutes,
  ...alertsRoutes,
  ...callsRoutes,
  ...followUpsRoutes,
  ...agenciesRoutes,
];

/** Signs in an admin and two agents, and creates what the table's requests name. */
export async function createFixtures(ctx: TestContext): Promise<Fixtures> {
  const db = ctx.database.db;
  const admin = await loginAdmin(ctx);
  const agentA = await registerAgent(ctx.app, 'Agent A');
  const agentB = await registerAgent(ctx.app, 'Agent B');
  const pkg = await insertPackage(db, { category: 'MEDICARE', leadsPerDay: 50 });
  const ensureSubscription = async (userId: number) => {
    await db
      .insert(subscriptions)
      .values({ userId, packageId: pkg.id, status: 'ACTIVE' })
      .onConflictDoUpdate({
        target: subscriptions.userId,
        set: { packageId: pkg.id, status: 'ACTIVE' },
      });
  };
  const fx: Fixtures = {
    ...agencyFixtures(ctx, agentA.client, ensureSubscription),
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
    ensureSubscription,
    async packageWithSlug(slug) {
      return (await insertPackage(db, slug ? { slug } : {})).id;
    },
    async perLeadPackage() {
      const { id } = await insertPackage(db, {});
      await db.execute(
        sql`update packages set pricing = 'PER_LEAD', per_lead_cents = 1500 where id = ${id}`,
      );
      return id;
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
    async spareUserId() {
      return (await registerAgent(ctx.app, 'Spare')).id;
    },
    async resetToken() {
      const spare = await registerAgent(ctx.app, 'Spare');
      const url = await adminResetLink(db, 'http://localhost', spare.id);
      return new URL(url).searchParams.get('token') ?? '';
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
    async withoutPushDevices() {
      // a device at a public address is never pushed to from a test
      await db.execute(
        sql`delete from push_subscriptions where user_id in (${agentA.id}, ${agentB.id})`,
      );
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
  'privacy_deletions',
  'suppressed_contacts',
  'privacy_tasks',
  'follow_up_settings',
  'follow_up_messages',
  'calls',
  'lead_returns',
  'lead_refusals',
  'agencies',
  'agency_members',
  'agency_invites',
  'agent_schedules',
  'agent_caps',
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
