/**
 * The audit log (docs/domain.md, Audit log): a row for each kind of event, no secrets in any
 * row, the admins' filters and paging, the owner's page of their agency only, and rows no
 * statement and no route can change.
 */
import { type SQL, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../src/server/db/client';
import type { AuditEvent } from '../src/shared/contracts/audit';
import { createPackage, subscribe } from './support/admin-fixtures';
import { ROUTES } from './support/route-table';
import { loginAdmin, registerAgent, setupTestApp, uniqueEmail } from './support/test-app';

const ctx = setupTestApp({ WEBHOOK_ALLOW_PRIVATE: true });
const db = () => ctx.database.db;

interface Row {
  id: number;
  actorId: number | null;
  actorRole: string | null;
  ip: string | null;
  action: string;
  targetType: string | null;
  targetId: string | null;
  before: unknown;
  after: unknown;
  agencyId: number | null;
}

async function rows(where: SQL): Promise<Row[]> {
  return queryRows<Row>(
    db(),
    sql`select id::int, actor_id as "actorId", actor_role as "actorRole", ip, action,
          target_type as "targetType", target_id as "targetId", before, after,
          agency_id as "agencyId"
        from audit_events where ${where} order by id`,
  );
}

const SECRETS = ['secret123', 'admin-secret', 'wrong-password', 'N3w-long-passw0rd!', 'lf_live_'];

function expectNoSecrets(found: unknown) {
  const text = JSON.stringify(found);
  for (const s of SECRETS) expect(text, s).not.toContain(s);
}

async function agencyWithManager(name: string) {
  const owner = await registerAgent(ctx.app, `${name} Owner`);
  const created = await owner.client.post('/api/agency', { name });
  expect(created.statusCode, created.body).toBe(201);
  const agencyId = created.json().agency.id as number;
  const inv = await owner.client.post('/api/agency/invites', { role: 'MANAGER' });
  expect(inv.statusCode, inv.body).toBe(201);
  const manager = await registerAgent(ctx.app, `${name} Manager`);
  expect(
    (await manager.client.post('/api/agency/join', { code: inv.json().code })).statusCode,
  ).toBe(200);
  return { owner, manager, agencyId, inviteCode: inv.json().code as string };
}

describe('what the audit log records', () => {
  it('an admin write: action, actor, address, target and the body without secrets', async () => {
    const admin = await loginAdmin(ctx);
    const source = await admin.client.post('/api/admin/sources', {
      name: `Audit source ${Date.now()}`,
      costPerLeadCents: 1250,
    });
    expect(source.statusCode).toBe(201);
    const sourceId = source.json().id as number;
    const [made] = await rows(
      sql`action = 'POST /api/admin/sources' and target_id = ${String(sourceId)}`,
    );
    expect(made).toMatchObject({
      actorId: admin.id,
      actorRole: 'ADMIN',
      ip: '127.0.0.1',
      targetType: 'source',
      after: { costPerLeadCents: 1250 },
    });

    // an API key made and revoked: rows name the source and the key, never the key itself
    const key = await admin.client.post(`/api/admin/sources/${sourceId}/keys`);
    expect(key.statusCode).toBe(201);
    const keyId = key.json().id as number;
    const revoked = await admin.client.delete(`/api/admin/sources/${sourceId}/keys/${keyId}`);
    expect(revoked.statusCode).toBe(200);
    const keyRows = await rows(
      sql`action like '% /api/admin/sources/:id/keys%' and actor_id = ${admin.id}`,
    );
    expect(keyRows.map((r) => [r.action, r.targetType, r.targetId])).toEqual([
      ['POST /api/admin/sources/:id/keys', 'source', String(sourceId)],
      ['DELETE /api/admin/sources/:id/keys/:keyId', 'key', String(keyId)],
    ]);
    expectNoSecrets(keyRows);
    expect(JSON.stringify(keyRows)).not.toContain(key.json().key);
  });

  it('login, failed login, logout, password changed and reset: security events without the passwords', async () => {
    const agent = await registerAgent(ctx.app, 'Audit Agent');
    const [login] = await rows(sql`action = 'auth.login' and actor_id = ${agent.id}`);
    expect(login).toMatchObject({
      actorRole: 'AGENT',
      targetType: 'user',
      targetId: String(agent.id),
      ip: '127.0.0.1',
    });

    const failed = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: agent.email, password: 'wrong-password' },
    });
    expect(failed.statusCode).toBe(401);
    const [failure] = await rows(
      sql`action = 'auth.login_failed' and after->>'email' = ${agent.email}`,
    );
    expect(failure).toMatchObject({ actorId: null, after: { email: agent.email, status: 401 } });

    const changed = await agent.client.post('/api/auth/password/change', {
      currentPassword: agent.password,
      newPassword: 'N3w-long-passw0rd!',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(
      await rows(sql`action = 'auth.password_changed' and actor_id = ${agent.id}`),
    ).toHaveLength(1);

    const admin = await loginAdmin(ctx);
    const link = await admin.client.post(`/api/admin/users/${agent.id}/reset-link`);
    expect(link.statusCode).toBe(200);
    const token = new URL(link.json().url).searchParams.get('token');
    const reset = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/password/reset',
      payload: { token, password: 'An0ther-long-passw0rd' },
    });
    expect(reset.statusCode, reset.body).toBe(200);
    expect(
      await rows(sql`action = 'auth.password_reset' and target_id = ${String(agent.id)}`),
    ).toHaveLength(1);

    const again = await registerAgent(ctx.app, 'Audit Agent Two');
    expect((await again.client.post('/api/auth/logout')).statusCode).toBe(200);
    expect(await rows(sql`action = 'auth.logout' and actor_id = ${again.id}`)).toHaveLength(1);

    const all = await rows(sql`actor_id = ${agent.id} or target_id = ${String(agent.id)}`);
    expectNoSecrets(all);
    expect(JSON.stringify(all)).not.toContain(token);
    expect(JSON.stringify(all)).not.toContain('An0ther-long-passw0rd');
  });

  it('a failed login with text jsonb cannot hold (a lone surrogate) is still a 401 and a row', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":"\\udfffx","password":" "}',
    });
    expect(res.statusCode, res.body).toBe(401);
    const [row] = await queryRows<{ after: { email: string } }>(
      ctx.database.db,
      sql`select after from audit_events where action = 'auth.login_failed' order by id desc limit 1`,
    );
    expect(row.after.email).toBe('\ufffdx');
  });

  it('a webhook URL changed: before and after, without the query or the Authorization header', async () => {
    const agent = await registerAgent(ctx.app, 'Audit Crm Agent');
    const pkg = await createPackage(ctx, { serviceCrm: true });
    await subscribe(ctx, agent.id, pkg.id);
    const put = await agent.client.put('/api/agent/delivery', {
      webhook: {
        url: 'https://93.184.216.34/hook?token=abc',
        authHeader: 'Bearer crm-token',
        enabled: true,
      },
    });
    expect(put.statusCode, put.body).toBe(200);
    const [changed] = await rows(
      sql`action = 'delivery.webhook_url_changed' and actor_id = ${agent.id}`,
    );
    expect(changed).toMatchObject({
      before: { url: null },
      after: { url: 'https://93.184.216.34/hook' },
    });
    expect(JSON.stringify(changed)).not.toMatch(/abc|crm-token/);
    // the same URL again: no new row
    await agent.client.put('/api/agent/delivery', { webhook: { enabled: false } });
    expect(
      await rows(sql`action = 'delivery.webhook_url_changed' and actor_id = ${agent.id}`),
    ).toHaveLength(1);
  });

  it("an owner's and a manager's writes carry their agency; an agent's own writes are not recorded", async () => {
    const { owner, manager, agencyId } = await agencyWithManager('Audit Co');
    const patched = await owner.client.patch('/api/agency', { name: 'Audit Co Renamed' });
    expect(patched.statusCode, patched.body).toBe(200);
    const ownerRows = await rows(sql`actor_id = ${owner.id} and action like '% /api/agency%'`);
    expect(ownerRows.map((r) => [r.action, r.actorRole, r.agencyId])).toEqual([
      ['POST /api/agency', 'OWNER', agencyId],
      ['POST /api/agency/invites', 'OWNER', agencyId],
      ['PATCH /api/agency', 'OWNER', agencyId],
    ]);
    expect(ownerRows[2]).toMatchObject({
      targetType: 'agency',
      targetId: String(agencyId),
      after: { name: 'Audit Co Renamed' },
    });
    const inv = await manager.client.post('/api/agency/invites', { role: 'AGENT' });
    expect(inv.statusCode, inv.body).toBe(201);
    const [byManager] = await rows(
      sql`actor_id = ${manager.id} and action = 'POST /api/agency/invites'`,
    );
    expect(byManager).toMatchObject({ actorRole: 'MANAGER', agencyId });
    // the manager joined as an agent (a plain member's write), and their own settings: no rows
    expect(
      await rows(sql`actor_id = ${manager.id} and action like 'POST /api/agency/join%'`),
    ).toEqual([]);
    expect(await rows(sql`actor_id = ${manager.id} and action like 'PUT /api/agent/%'`)).toEqual(
      [],
    );
  });
});

describe('reading the audit log', () => {
  it('admins filter by actor, action, target and dates, newest first, paged', async () => {
    const admin = await loginAdmin(ctx);
    for (const page of ['privacy', 'terms', 'privacy']) {
      const res = await admin.client.put(`/api/admin/legal/${page}`, { body: `Text of ${page}` });
      expect(res.statusCode).toBe(200);
    }
    const first = await admin.client.get(
      `/api/admin/audit?actorId=${admin.id}&action=legal&pageSize=2&page=1`,
    );
    expect(first.statusCode).toBe(200);
    const p1 = first.json() as {
      events: AuditEvent[];
      total: number;
      page: number;
      pageSize: number;
    };
    expect(p1.total).toBe(3);
    expect(p1.events.map((e) => e.targetId)).toEqual(['privacy', 'terms']);
    expect(p1.events[0]).toMatchObject({
      actorId: admin.id,
      actorEmail: admin.email,
      actorRole: 'ADMIN',
      action: 'PUT /api/admin/legal/:page',
      targetType: 'legal',
      after: { body: 'Text of privacy' },
    });
    const second = (
      await admin.client.get(`/api/admin/audit?actorId=${admin.id}&action=legal&pageSize=2&page=2`)
    ).json();
    expect(second.events.map((e: AuditEvent) => e.targetId)).toEqual(['privacy']);

    const today = new Date().toISOString().slice(0, 10);
    const inRange = (
      await admin.client.get(`/api/admin/audit?actorId=${admin.id}&from=${today}&to=${today}`)
    ).json();
    expect(inRange.total).toBe(4); // the login and the three pages
    const byTarget = (
      await admin.client.get(`/api/admin/audit?actorId=${admin.id}&targetType=user`)
    ).json();
    expect(byTarget.events.map((e: AuditEvent) => e.action)).toEqual(['auth.login']);
    const past = (
      await admin.client.get(`/api/admin/audit?actorId=${admin.id}&to=2020-01-01`)
    ).json();
    expect(past.total).toBe(0);
    expect((await admin.client.get('/api/admin/audit?from=yesterday')).statusCode).toBe(400);
  });

  it("the owner sees only their agency's events; a manager and an agent get 403", async () => {
    const a = await agencyWithManager('Audit A');
    const b = await agencyWithManager('Audit B');
    // the manager signs in again, now a member: that login is the agency's
    await a.manager.client.post('/api/auth/login', {
      email: a.manager.email,
      password: a.manager.password,
    });
    const res = await a.owner.client.get('/api/agency/audit?pageSize=100');
    expect(res.statusCode, res.body).toBe(200);
    const seen = res.json().events as AuditEvent[];
    const actors = new Set(seen.map((e) => e.actorId));
    expect(actors).toContain(a.owner.id);
    // the manager's own login, as an agency member
    expect(seen.some((e) => e.actorId === a.manager.id && e.action === 'auth.login')).toBe(true);
    expect(actors).not.toContain(b.owner.id);
    expect(actors).not.toContain(b.manager.id);

    expect((await a.manager.client.get('/api/agency/audit')).statusCode).toBe(403);
    const inv = await a.owner.client.post('/api/agency/invites', { role: 'AGENT' });
    const member = await registerAgent(ctx.app, 'Audit A Agent');
    await member.client.post('/api/agency/join', { code: inv.json().code });
    expect((await member.client.get('/api/agency/audit')).statusCode).toBe(403);
    const admin = await loginAdmin(ctx);
    expect((await admin.client.get('/api/agency/audit')).statusCode).toBe(403);
  });
});

describe('nothing alters the audit log', () => {
  it('the database refuses UPDATE and DELETE, whoever asks', async () => {
    await registerAgent(ctx.app, 'Audit Immutable');
    const [{ n }] = await queryRows<{ n: number }>(
      db(),
      sql`select count(*)::int as n from audit_events`,
    );
    expect(n).toBeGreaterThan(0);
    for (const statement of [
      sql`update audit_events set action = 'nothing happened'`,
      sql`update audit_events set after = null where id = (select min(id) from audit_events)`,
      sql`delete from audit_events`,
      sql`delete from audit_events where id = (select max(id) from audit_events)`,
    ]) {
      await expect(db().execute(statement)).rejects.toThrow();
    }
    const refusal = await db()
      .execute(sql`delete from audit_events`)
      .then(
        () => '',
        (e: { cause?: { message?: string }; message: string }) => e.cause?.message ?? e.message,
      );
    expect(refusal).toMatch(/append-only/);
    const [{ m }] = await queryRows<{ m: number }>(
      db(),
      sql`select count(*)::int as m from audit_events`,
    );
    expect(m).toBeGreaterThanOrEqual(n);
  });

  it('no route of any role writes to it: the only audit routes are two GETs', () => {
    const auditRoutes = ROUTES.filter((r) => r.path.includes('/audit'));
    expect(auditRoutes.map((r) => `${r.method} ${r.path}`).sort()).toEqual([
      'GET /api/admin/audit',
      'GET /api/agency/audit',
    ]);
  });

  it('an unknown email that fails to log in is recorded; the password never is', async () => {
    const email = uniqueEmail('nobody');
    await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email, password: 'wrong-password' },
    });
    const found = await rows(sql`action = 'auth.login_failed' and after->>'email' = ${email}`);
    expect(found).toHaveLength(1);
    expectNoSecrets(found);
  });
});
