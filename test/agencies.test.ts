import { eq, inArray, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  agencies,
  agencyInvites,
  agencyMembers,
  leads,
  subscriptions,
} from '../src/server/db/schema';
import { businessDate } from '../src/server/lib/business-time';
import { createAgency } from './support/agency-fixtures';
import { insertLeads, insertPackage, type LeadSpec } from './support/agent-fixtures';
import { createAgent } from './support/assignment-fixtures';
import { ROUTES as MATRIX_ROUTES, tableChecksums } from './support/route-table';
import { Client, loginAdmin, registerAgent, setupTestApp } from './support/test-app';

const ctx = setupTestApp({ PUBLIC_URL: 'https://portal.example' });

type Agent = Awaited<ReturnType<typeof registerAgent>>;
let pkgId: number;

beforeAll(async () => {
  pkgId = (await insertPackage(ctx.database.db, { category: 'MEDICARE', leadsPerDay: 10 })).id;
});

/** A fresh agency: its owner, a manager, an agent of the manager's team and one of the owner's. */
async function agencyWithTeam(name = 'Acme') {
  const owner = await registerAgent(ctx.app, `${name} Owner`);
  const created = await owner.client.post('/api/agency', { name });
  expect(created.statusCode).toBe(201);
  const manager = await join(owner, 'MANAGER', `${name} Manager`);
  const teamAgent = await join(manager, 'AGENT', `${name} Team Agent`);
  const ownAgent = await join(owner, 'AGENT', `${name} Own Agent`);
  return { agencyId: created.json().agency.id as number, owner, manager, teamAgent, ownAgent };
}

async function invite(by: Agent, body: Record<string, unknown>) {
  const res = await by.client.post('/api/agency/invites', body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: number; code: string; url: string };
}

async function join(by: Agent, role: 'MANAGER' | 'AGENT', name: string) {
  const { code } = await invite(by, { role });
  const agent = await registerAgent(ctx.app, name);
  const res = await agent.client.post('/api/agency/join', { code });
  expect(res.statusCode, res.body).toBe(200);
  return agent;
}

async function subscribeActive(userId: number) {
  await ctx.database.db
    .insert(subscriptions)
    .values({ userId, packageId: pkgId, status: 'ACTIVE' })
    .onConflictDoUpdate({
      target: subscriptions.userId,
      set: { status: 'ACTIVE', packageId: pkgId },
    });
}

async function bookLead(
  agencyId: number,
  agentId: number | null,
  extra: Omit<LeadSpec, 'agentId'> = {},
) {
  const [lead] = await insertLeads(ctx.database.db, [
    { agentId, assignedOn: agentId ? '2020-01-01' : null, ...extra },
  ]);
  await ctx.database.db.update(leads).set({ agencyId }).where(eq(leads.id, lead.id));
  return lead;
}

const ids = (rows: { userId: number }[]) => rows.map((r) => r.userId).sort((a, b) => a - b);

describe('an agency and its members', () => {
  it('an agent creates one and becomes its owner; a second is a 409; no agency is a 404', async () => {
    const owner = await registerAgent(ctx.app, 'Olive Owner');
    expect((await owner.client.get('/api/agency')).statusCode).toBe(404);
    const created = await owner.client.post('/api/agency', { name: '  Olive Agency ' });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      agency: { name: 'Olive Agency', status: 'ACTIVE', dailyCap: null, reclaimAfterMinutes: null },
      role: 'OWNER',
      manager: null,
      owner: { id: owner.id, name: 'Olive Owner' },
      paidByAgency: false,
    });
    const again = await owner.client.post('/api/agency', { name: 'Second' });
    expect(again.statusCode).toBe(409);
    expect((await new Client(ctx.app).get('/api/agency')).statusCode).toBe(401);
  });

  it("a member's view names the agency and their manager (the owner when none is named)", async () => {
    const t = await agencyWithTeam('View');
    const team = (await t.teamAgent.client.get('/api/agency')).json();
    expect(team).toMatchObject({
      agency: { name: 'View' },
      role: 'AGENT',
      manager: { id: t.manager.id, name: 'View Manager' },
      owner: { id: t.owner.id },
    });
    const own = (await t.ownAgent.client.get('/api/agency')).json();
    expect(own.manager).toEqual({ id: t.owner.id, name: 'View Owner' });
  });

  it('only the owner changes the settings, within their bounds', async () => {
    const t = await agencyWithTeam('Settings');
    const ok = await t.owner.client.patch('/api/agency', {
      name: 'Settings Renamed',
      dailyCap: 25,
      reclaimAfterMinutes: 15,
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().agency).toMatchObject({
      name: 'Settings Renamed',
      dailyCap: 25,
      reclaimAfterMinutes: 15,
    });
    const off = await t.owner.client.patch('/api/agency', {
      dailyCap: null,
      reclaimAfterMinutes: null,
    });
    expect(off.json().agency).toMatchObject({ dailyCap: null, reclaimAfterMinutes: null });
    for (const body of [
      { dailyCap: 0 },
      { reclaimAfterMinutes: 4 },
      { reclaimAfterMinutes: 1441 },
      {},
    ]) {
      expect(
        (await t.owner.client.patch('/api/agency', body)).statusCode,
        JSON.stringify(body),
      ).toBe(400);
    }
    expect((await t.manager.client.patch('/api/agency', { dailyCap: 3 })).statusCode).toBe(403);
    expect((await t.teamAgent.client.patch('/api/agency', { dailyCap: 3 })).statusCode).toBe(403);
  });

  it('members are seen by scope: the owner all, a manager their team and themself, an agent themself', async () => {
    const t = await agencyWithTeam('Scope');
    const other = await agencyWithTeam('Elsewhere');
    const list = async (a: Agent) => {
      const res = await a.client.get('/api/agency/members');
      expect(res.statusCode).toBe(200);
      return res.json();
    };
    expect(ids(await list(t.owner))).toEqual(
      [t.owner.id, t.manager.id, t.teamAgent.id, t.ownAgent.id].sort((a, b) => a - b),
    );
    expect(ids(await list(t.manager))).toEqual(
      [t.manager.id, t.teamAgent.id].sort((a, b) => a - b),
    );
    expect(ids(await list(t.teamAgent))).toEqual([t.teamAgent.id]);
    expect(ids(await list(other.owner))).not.toContain(t.owner.id);

    await subscribeActive(t.teamAgent.id);
    await bookLead(t.agencyId, t.teamAgent.id);
    const [row] = await list(t.teamAgent);
    expect(row).toMatchObject({
      userId: t.teamAgent.id,
      role: 'AGENT',
      manager: { id: t.manager.id, name: 'Scope Manager' },
      package: { id: pkgId, category: 'MEDICARE', leadsPerDay: 10 },
      subscriptionStatus: 'ACTIVE',
      paidByAgency: false,
      quotaToday: { assigned: 0, limit: 10 },
      paused: false,
      licensedStates: [],
      leads30d: 1,
      converted30d: 0,
      returns30d: 0,
      speedToLeadMinutes: null,
    });
  });
  it("the members' table shows each member's own figures: quota today, pause, licences, the last 30 days and speed to lead", async () => {
    const t = await agencyWithTeam('Figures');
    const admin = await loginAdmin(ctx);
    await subscribeActive(t.teamAgent.id);
    const today = businessDate(ctx.app.config.BUSINESS_TZ);
    const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000);
    const given = (minutesAgo: number) =>
      bookLead(t.agencyId, t.teamAgent.id, { assignedOn: today, assignedAt: ago(minutesAgo) });
    const status = async (leadId: number, to: string) => {
      const res = await t.teamAgent.client.post(`/api/agent/leads/${leadId}/status`, {
        status: to,
      });
      expect(res.statusCode, res.body).toBe(200);
    };
    // contacted 8 minutes after it came, converted 16 minutes after: the median is 12
    const contacted = await given(8);
    await status(contacted.id, 'CONTACTED');
    const converted = await given(16);
    await status(converted.id, 'CONVERTED');
    // not contacted, a return asked
    const returned = await given(60);
    const asked = await t.teamAgent.client.post(`/api/agent/leads/${returned.id}/return`, {
      reason: 'WRONG_NUMBER',
    });
    expect(asked.statusCode, asked.body).toBe(201);
    // older than 30 days: a converted lead contacted after 100 minutes, and its return
    const old = await bookLead(t.agencyId, t.teamAgent.id, {
      status: 'CONVERTED',
      assignedOn: '2020-01-01',
      assignedAt: ago(40 * 1440),
    });
    await ctx.database.db.execute(
      sql`update leads set first_contact_at = assigned_at + interval '100 minutes' where id = ${old.id}`,
    );
    await ctx.database.db.execute(
      sql`insert into lead_returns (lead_id, agent_id, reason, status, created_at)
          values (${old.id}, ${t.teamAgent.id}, 'WRONG_NUMBER', 'APPROVED', now() - interval '40 days')`,
    );
    expect((await t.teamAgent.client.put('/api/agent/pause', { until: null })).statusCode).toBe(
      200,
    );
    const licensed = await admin.client.put(`/api/admin/agents/${t.teamAgent.id}/licenses`, {
      states: ['TX', 'FL'],
    });
    expect(licensed.statusCode, licensed.body).toBe(200);
    // the manager holds one lead of today, not worked
    await subscribeActive(t.manager.id);
    await bookLead(t.agencyId, t.manager.id, { assignedOn: today, assignedAt: ago(5) });

    const figures = {
      userId: t.teamAgent.id,
      quotaToday: { assigned: 3, limit: 10 },
      paused: true,
      licensedStates: ['FL', 'TX'],
      leads30d: 3,
      converted30d: 1,
      returns30d: 1,
      speedToLeadMinutes: expect.closeTo(12, 0),
    };
    const managerFigures = {
      userId: t.manager.id,
      quotaToday: { assigned: 1, limit: 10 },
      paused: false,
      licensedStates: [],
      leads30d: 1,
      converted30d: 0,
      returns30d: 0,
      speedToLeadMinutes: null,
    };
    const none = (who: Agent) => ({
      userId: who.id,
      quotaToday: { assigned: 0, limit: 0 },
      paused: false,
      licensedStates: [],
      leads30d: 0,
      converted30d: 0,
      returns30d: 0,
      speedToLeadMinutes: null,
    });
    const members = async (who: Agent) => {
      const res = await who.client.get('/api/agency/members');
      expect(res.statusCode).toBe(200);
      return (res.json() as { userId: number }[]).sort((a, b) => a.userId - b.userId);
    };
    const byId = <T extends { userId: number }>(rows: T[]) =>
      rows.sort((a, b) => a.userId - b.userId);
    expect(await members(t.owner)).toEqual(
      byId([figures, managerFigures, none(t.owner), none(t.ownAgent)]).map((f) =>
        expect.objectContaining(f),
      ),
    );
    expect(await members(t.manager)).toEqual(
      byId([figures, managerFigures]).map((f) => expect.objectContaining(f)),
    );
    expect(await members(t.teamAgent)).toEqual([expect.objectContaining(figures)]);
  });
});

describe('invites and joining', () => {
  it('an invite answers a link once; the join page looks it up without a session', async () => {
    const t = await agencyWithTeam('Invites');
    const made = await invite(t.owner, { role: 'AGENT', managerId: t.manager.id, maxUses: 2 });
    expect(made.url).toBe(`https://portal.example/join/${made.code}`);
    expect(made.code).toMatch(/^[A-Za-z0-9_-]{24}$/);
    const stored = await ctx.database.db
      .select()
      .from(agencyInvites)
      .where(eq(agencyInvites.id, made.id));
    expect(JSON.stringify(stored)).not.toContain(made.code);
    expect(stored[0].expiresAt.getTime() - Date.now()).toBeGreaterThan(6.9 * 86_400_000);

    const look = await new Client(ctx.app).get(`/api/agency/invites/lookup?code=${made.code}`);
    expect(look.statusCode).toBe(200);
    expect(look.json()).toEqual({
      agencyName: 'Invites',
      ownerName: 'Invites Owner',
      role: 'AGENT',
    });

    const joiner = await registerAgent(ctx.app, 'Joiner');
    const joined = await joiner.client.post('/api/agency/join', { code: made.code });
    expect(joined.statusCode).toBe(200);
    expect(joined.json()).toMatchObject({ role: 'AGENT', manager: { id: t.manager.id } });
    expect((await joiner.client.post('/api/agency/join', { code: made.code })).statusCode).toBe(
      409,
    );
  });

  it('an expired, used-up or unknown code answers the same 404, to the look-up and to a join', async () => {
    const t = await agencyWithTeam('Gone');
    const expired = await invite(t.owner, { role: 'AGENT' });
    await ctx.database.db
      .update(agencyInvites)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(agencyInvites.id, expired.id));
    const once = await invite(t.owner, { role: 'AGENT', maxUses: 1 });
    const first = await registerAgent(ctx.app, 'First');
    expect((await first.client.post('/api/agency/join', { code: once.code })).statusCode).toBe(200);

    const answers = new Set<string>();
    for (const code of [expired.code, once.code, 'no-such-code-at-all']) {
      const look = await new Client(ctx.app).get(`/api/agency/invites/lookup?code=${code}`);
      expect(look.statusCode).toBe(404);
      answers.add(look.body);
      const late = await registerAgent(ctx.app, 'Late');
      const res = await late.client.post('/api/agency/join', { code });
      expect(res.statusCode).toBe(404);
      answers.add(res.body);
      expect((await late.client.get('/api/agency')).statusCode).toBe(404);
    }
    expect(answers.size).toBe(1);
  });

  it('joins at once never exceed max uses', async () => {
    const t = await agencyWithTeam('Race');
    const { code } = await invite(t.owner, { role: 'AGENT', maxUses: 2 });
    const agents = await Promise.all(
      [1, 2, 3, 4, 5].map((n) => registerAgent(ctx.app, `Racer ${n}`)),
    );
    const results = await Promise.all(
      agents.map((a) => a.client.post('/api/agency/join', { code })),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 200, 404, 404, 404]);
    const members = (await t.owner.client.get('/api/agency/members')).json();
    expect(members).toHaveLength(6);
  });

  it('a manager invites agents into their own team only; an agent does not invite', async () => {
    const t = await agencyWithTeam('Rules');
    const mine = await invite(t.manager, { role: 'AGENT' });
    expect(mine.url).toContain('/join/');
    expect(
      (await t.manager.client.post('/api/agency/invites', { role: 'MANAGER' })).statusCode,
    ).toBe(403);
    expect(
      (await t.manager.client.post('/api/agency/invites', { role: 'AGENT', managerId: t.owner.id }))
        .statusCode,
    ).toBe(403);
    expect(
      (await t.teamAgent.client.post('/api/agency/invites', { role: 'AGENT' })).statusCode,
    ).toBe(403);
    expect(
      (
        await t.owner.client.post('/api/agency/invites', {
          role: 'AGENT',
          managerId: t.ownAgent.id,
        })
      ).statusCode,
    ).toBe(400);
    expect((await t.owner.client.post('/api/agency/invites', { role: 'OWNER' })).statusCode).toBe(
      400,
    );

    const ownerInvite = await invite(t.owner, { role: 'MANAGER' });
    const managerList = (await t.manager.client.get('/api/agency/invites')).json();
    expect(managerList.map((i: { id: number }) => i.id)).toContain(mine.id);
    expect(managerList.map((i: { id: number }) => i.id)).not.toContain(ownerInvite.id);
    const ownerList = (await t.owner.client.get('/api/agency/invites')).json();
    expect(ownerList.map((i: { id: number }) => i.id)).toEqual(
      expect.arrayContaining([mine.id, ownerInvite.id]),
    );
    expect((await t.teamAgent.client.get('/api/agency/invites')).statusCode).toBe(403);

    expect(
      (await t.manager.client.delete(`/api/agency/invites/${ownerInvite.id}`)).statusCode,
    ).toBe(404);
    const other = await agencyWithTeam('Thief');
    expect((await other.owner.client.delete(`/api/agency/invites/${mine.id}`)).statusCode).toBe(
      404,
    );
    expect((await t.manager.client.delete(`/api/agency/invites/${mine.id}`)).statusCode).toBe(204);
    const look = await new Client(ctx.app).get(`/api/agency/invites/lookup?code=${mine.code}`);
    expect(look.statusCode).toBe(404);
  });
});

describe('leaving, removing, handing over', () => {
  it('the owner cannot leave while others remain; hands over, then leaves; the last one out deletes the agency', async () => {
    const t = await agencyWithTeam('Handover');
    const admin = await loginAdmin(ctx);
    const stay = await t.owner.client.delete('/api/agency/membership');
    expect(stay.statusCode).toBe(409);
    expect(stay.json().message).toMatch(/hand the agency over/i);

    expect(
      (await t.manager.client.patch(`/api/agency/members/${t.ownAgent.id}`, { role: 'OWNER' }))
        .statusCode,
    ).toBe(403);
    const handed = await t.owner.client.patch(`/api/agency/members/${t.manager.id}`, {
      role: 'OWNER',
    });
    expect(handed.statusCode).toBe(200);
    expect(handed.json()).toMatchObject({ userId: t.manager.id, role: 'OWNER' });
    expect((await t.owner.client.get('/api/agency')).json().role).toBe('MANAGER');
    expect((await t.manager.client.get('/api/agency')).json().role).toBe('OWNER');

    expect((await t.owner.client.delete('/api/agency/membership')).statusCode).toBe(204);
    expect((await t.owner.client.get('/api/agency')).statusCode).toBe(404);
    for (const m of [t.teamAgent, t.ownAgent]) {
      expect((await m.client.delete('/api/agency/membership')).statusCode).toBe(204);
    }
    const listed = (await admin.client.get('/api/admin/agencies')).json();
    expect(listed.find((a: { id: number }) => a.id === t.agencyId)).toMatchObject({ members: 1 });
    expect((await t.manager.client.delete('/api/agency/membership')).statusCode).toBe(204);
    const after = (await admin.client.get('/api/admin/agencies')).json();
    expect(after.find((a: { id: number }) => a.id === t.agencyId)).toBeUndefined();
  });

  it('the owner removes anyone; a manager their own team only; an agent no one; another agency never', async () => {
    const t = await agencyWithTeam('Remove');
    const other = await agencyWithTeam('Stranger');
    expect(
      (await t.teamAgent.client.delete(`/api/agency/members/${t.ownAgent.id}`)).statusCode,
    ).toBe(403);
    expect((await t.manager.client.delete(`/api/agency/members/${t.ownAgent.id}`)).statusCode).toBe(
      404,
    );
    expect(
      (await other.owner.client.delete(`/api/agency/members/${t.teamAgent.id}`)).statusCode,
    ).toBe(404);
    expect((await t.owner.client.delete(`/api/agency/members/${t.owner.id}`)).statusCode).toBe(409);
    expect(
      (await t.manager.client.delete(`/api/agency/members/${t.teamAgent.id}`)).statusCode,
    ).toBe(204);
    expect((await t.teamAgent.client.get('/api/agency')).statusCode).toBe(404);
    expect((await t.owner.client.delete(`/api/agency/members/${t.manager.id}`)).statusCode).toBe(
      204,
    );
    expect(ids((await t.owner.client.get('/api/agency/members')).json())).toEqual(
      [t.owner.id, t.ownAgent.id].sort((a, b) => a - b),
    );
  });

  it("the owner changes a member's role and manager; a demoted manager's team goes back to the owner", async () => {
    const t = await agencyWithTeam('Roles');
    const bad = await t.owner.client.patch(`/api/agency/members/${t.ownAgent.id}`, {
      managerId: t.teamAgent.id,
    });
    expect(bad.statusCode).toBe(400);
    const moved = await t.owner.client.patch(`/api/agency/members/${t.ownAgent.id}`, {
      managerId: t.manager.id,
    });
    expect(moved.json().manager).toEqual({ id: t.manager.id, name: 'Roles Manager' });
    expect(ids((await t.manager.client.get('/api/agency/members')).json())).toHaveLength(3);
    const demoted = await t.owner.client.patch(`/api/agency/members/${t.manager.id}`, {
      role: 'AGENT',
    });
    expect(demoted.json().role).toBe('AGENT');
    expect((await t.teamAgent.client.get('/api/agency')).json().manager.id).toBe(t.owner.id);
    expect(
      (await t.owner.client.patch(`/api/agency/members/${t.owner.id}`, { role: 'AGENT' }))
        .statusCode,
    ).toBe(409);
    const other = await agencyWithTeam('Foreign');
    expect(
      (await other.owner.client.patch(`/api/agency/members/${t.ownAgent.id}`, { role: 'MANAGER' }))
        .statusCode,
    ).toBe(404);
  });
});

describe("the agency's book and reassignment", () => {
  it('the book is scoped like the members, searched and paged, with a total', async () => {
    const t = await agencyWithTeam('Book');
    const other = await agencyWithTeam('OtherBook');
    const a = await bookLead(t.agencyId, t.teamAgent.id, { firstName: 'Zebulon' });
    const b = await bookLead(t.agencyId, t.ownAgent.id);
    const c = await bookLead(t.agencyId, t.manager.id);
    const pooled = await bookLead(t.agencyId, null);
    const foreign = await bookLead(other.agencyId, other.ownAgent.id);
    const book = async (who: Agent, query = '') => {
      const res = await who.client.get(`/api/agency/leads${query}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { items: { id: number }[]; total: number };
    };
    const owner = await book(t.owner);
    expect(owner.total).toBe(4);
    expect(owner.items.map((l) => l.id)).toEqual([pooled.id, c.id, b.id, a.id]);
    expect(owner.items.map((l) => l.id)).not.toContain(foreign.id);
    expect((await book(t.manager)).items.map((l) => l.id).sort()).toEqual([a.id, c.id].sort());
    expect((await book(t.teamAgent)).items.map((l) => l.id)).toEqual([a.id]);
    expect((await book(t.owner, '?q=zebu')).items.map((l) => l.id)).toEqual([a.id]);
    const paged = await book(t.owner, '?limit=2&offset=1');
    expect(paged).toMatchObject({ total: 4 });
    expect(paged.items.map((l) => l.id)).toEqual([c.id, b.id]);
    expect((await book(t.owner, `?memberId=${t.ownAgent.id}`)).items.map((l) => l.id)).toEqual([
      b.id,
    ]);
    expect((await book(t.owner, '?status=NEW')).items.map((l) => l.id)).toEqual([pooled.id]);
    expect(
      (await t.manager.client.get(`/api/agency/leads?memberId=${t.ownAgent.id}`)).statusCode,
    ).toBe(404);
    expect(
      (await t.owner.client.get(`/api/agency/leads?memberId=${other.ownAgent.id}`)).statusCode,
    ).toBe(404);
    expect((await book(other.owner)).items.map((l) => l.id)).toEqual([foreign.id]);
  });

  it('a lead moves to a member in scope who fits it, recorded as REASSIGNED by whoever moved it', async () => {
    const t = await agencyWithTeam('Move');
    await subscribeActive(t.teamAgent.id);
    await subscribeActive(t.manager.id);
    const lead = await bookLead(t.agencyId, t.teamAgent.id);
    const res = await t.manager.client.post(`/api/agency/leads/${lead.id}/reassign`, {
      userId: t.manager.id,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      id: lead.id,
      status: 'ASSIGNED',
      agent: { id: t.manager.id, name: 'Move Manager' },
    });
    const history = await ctx.database.db.execute(
      sql`select kind::text, actor_id, agent_id, from_agent_id from lead_history where lead_id = ${lead.id}`,
    );
    expect((history as unknown as { rows: unknown[] }).rows).toContainEqual({
      kind: 'REASSIGNED',
      actor_id: t.manager.id,
      agent_id: t.manager.id,
      from_agent_id: t.teamAgent.id,
    });
    const mine = (await t.manager.client.get('/api/agent/leads')).json();
    expect(mine.map((l: { id: number }) => l.id)).toContain(lead.id);
  });

  it("a member who does not fit is a 409 with the reason; out of scope or another agency's is a 404", async () => {
    const t = await agencyWithTeam('Misfit');
    const other = await agencyWithTeam('NotMine');
    await subscribeActive(t.teamAgent.id);
    await subscribeActive(other.ownAgent.id);
    const lead = await bookLead(t.agencyId, t.teamAgent.id);
    // the owner's own agent has no subscription: not active
    const misfit = await t.owner.client.post(`/api/agency/leads/${lead.id}/reassign`, {
      userId: t.ownAgent.id,
    });
    expect(misfit.statusCode).toBe(409);
    expect(misfit.json().message).toMatch(/^This member does not fit this lead: /);
    expect(misfit.json().message.toLowerCase()).toContain('active');
    // a state the member is not licensed in
    await subscribeActive(t.ownAgent.id);
    await ctx.database.db.execute(
      sql`update users set licensed_states = '{FL}' where id = ${t.ownAgent.id}`,
    );
    const unlicensed = await t.owner.client.post(`/api/agency/leads/${lead.id}/reassign`, {
      userId: t.ownAgent.id,
    });
    expect(unlicensed.statusCode).toBe(409);
    expect(unlicensed.json().message.toLowerCase()).toContain('licen');

    expect(
      (
        await t.manager.client.post(`/api/agency/leads/${lead.id}/reassign`, {
          userId: t.ownAgent.id,
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await t.owner.client.post(`/api/agency/leads/${lead.id}/reassign`, {
          userId: other.ownAgent.id,
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await other.owner.client.post(`/api/agency/leads/${lead.id}/reassign`, {
          userId: other.ownAgent.id,
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await t.teamAgent.client.post(`/api/agency/leads/${lead.id}/reassign`, {
          userId: t.manager.id,
        })
      ).statusCode,
    ).toBe(403);
    const still = (await t.owner.client.get('/api/agency/leads')).json();
    expect(still.items[0]).toMatchObject({ id: lead.id, agent: { id: t.teamAgent.id } });
  });
});

describe('platform admins', () => {
  it('list every agency with owner, members, leads and status', async () => {
    const t = await agencyWithTeam('Listed');
    await bookLead(t.agencyId, t.ownAgent.id);
    const admin = await loginAdmin(ctx);
    const res = await admin.client.get('/api/admin/agencies');
    expect(res.statusCode).toBe(200);
    expect(res.json().find((a: { id: number }) => a.id === t.agencyId)).toMatchObject({
      name: 'Listed',
      status: 'ACTIVE',
      owner: { id: t.owner.id, name: 'Listed Owner', email: t.owner.email },
      members: 4,
      leads: 1,
      paidMembers: 0,
    });
    expect((await t.owner.client.get('/api/admin/agencies')).statusCode).toBe(403);
    expect(
      (await admin.client.patch('/api/admin/agencies/2147483000', { status: 'SUSPENDED' }))
        .statusCode,
    ).toBe(404);
  });
});

/**
 * Every agency route for every kind of caller (docs/domain.md, Agencies, "Who sees what"): agency
 * A's owner, the manager of A's team, the agent of that team, the owner of agency B, a platform
 * admin and a visitor without a session. Out of the caller's scope or of another agency: 404; an
 * action the caller's role does not allow: 403. Each route gets a fresh pair of agencies, and the
 * callers call in the table's order; a refused call changes no data.
 */
describe('every agency route, for each kind of caller', () => {
  const WHO = ['owner', 'manager', 'agent', 'otherOwner', 'admin', 'anonymous'] as const;
  type Who = (typeof WHO)[number];
  type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  type People = Record<
    'owner' | 'manager' | 'agent' | 'ownAgent' | 'otherOwner' | 'otherAgent',
    Agent
  >;
  /** A's and B's ids, what each holds, and the callers' clients */
  interface World {
    a: number;
    b: number;
    p: People;
    /** invites: made by A's owner (the owner's team), by A's manager (their team), by B's owner */
    invites: { owner: Invite; manager: Invite; otherOwner: Invite };
    /** one lead of the book held by each member */
    leads: { owner: number; manager: number; agent: number; ownAgent: number; otherAgent: number };
  }
  type Invite = { id: number; code: string };
  interface AgencyRoute {
    method: Method;
    path: string;
    expect: Record<Who, number>;
    /** the request, passing validation; what it names is made fresh where a call uses it up */
    request(w: World, who: Who): Promise<{ url: string; body?: unknown }>;
    /** a read: the ids the answer shows, and those each caller it answers must see */
    shows?: {
      ids(answer: never, w: World): number[];
      want: Partial<Record<Who, (w: World) => number[]>>;
    };
  }

  let people: People;
  let admin: Awaited<ReturnType<typeof loginAdmin>>;
  let anonymous: Client;
  let world: World | null = null;
  beforeAll(async () => {
    const [owner, manager, agent, ownAgent, otherOwner, otherAgent] = await Promise.all(
      [
        'Table Owner',
        'Table Manager',
        'Table Agent',
        'Table Own Agent',
        'Other Owner',
        'Other Agent',
      ].map((name) => registerAgent(ctx.app, name)),
    );
    people = { owner, manager, agent, ownAgent, otherOwner, otherAgent };
    admin = await loginAdmin(ctx);
    anonymous = new Client(ctx.app);
    // the manager may take a lead of the book (an active package that fits it)
    await subscribeActive(manager.id);
  });

  const clientOf = (w: World, who: Who): Client =>
    who === 'admin' ? admin.client : who === 'anonymous' ? anonymous : w.p[who].client;

  /** A and B anew: A with its owner, a manager with their agent, the owner's own agent; B with its owner and an agent. */
  async function freshWorld(): Promise<World> {
    const db = ctx.database.db;
    if (world) await db.delete(agencies).where(inArray(agencies.id, [world.a, world.b]));
    const p = people;
    const a = await createAgency(db, {
      ownerId: p.owner.id,
      members: [p.manager.id, p.agent.id, p.ownAgent.id],
    });
    await db
      .update(agencyMembers)
      .set({ role: 'MANAGER' })
      .where(eq(agencyMembers.userId, p.manager.id));
    await db
      .update(agencyMembers)
      .set({ managerId: p.manager.id })
      .where(eq(agencyMembers.userId, p.agent.id));
    const b = await createAgency(db, { ownerId: p.otherOwner.id, members: [p.otherAgent.id] });
    const invites = {
      owner: await invite(p.owner, { role: 'AGENT' }),
      manager: await invite(p.manager, { role: 'AGENT' }),
      otherOwner: await invite(p.otherOwner, { role: 'AGENT' }),
    };
    const held = async (agencyId: number, member: Agent) =>
      (await bookLead(agencyId, member.id)).id;
    const leads = {
      owner: await held(a, p.owner),
      manager: await held(a, p.manager),
      agent: await held(a, p.agent),
      ownAgent: await held(a, p.ownAgent),
      otherAgent: await held(b, p.otherAgent),
    };
    world = { a, b, p, invites, leads };
    return world;
  }

  /** A fresh agent in A (in the manager's team when named), subscribed; paid by A when asked. */
  async function freshMember(w: World, opts: { managerId?: number; paid?: boolean } = {}) {
    const userId = await createAgent(ctx.database.db, { packageId: pkgId });
    await ctx.database.db
      .insert(agencyMembers)
      .values({ userId, agencyId: w.a, role: 'AGENT', managerId: opts.managerId ?? null });
    if (opts.paid) {
      const res = await w.p.owner.client.put(`/api/agency/members/${userId}/subscription`, {
        packageId: pkgId,
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    return userId;
  }

  /** `members` for the four agents unless said; an agent's route refuses an admin and a visitor */
  const agents = (except: Partial<Record<Who, number>>, members: number): Record<Who, number> => ({
    owner: members,
    manager: members,
    agent: members,
    otherOwner: members,
    admin: 403,
    anonymous: 401,
    ...except,
  });
  const userIds = (rows: { userId: number }[]) => rows.map((r) => r.userId);
  const itemIds = (page: { items: { id: number }[] }) => page.items.map((l) => l.id);
  const agencyOf = (answer: { agency: { id: number } }) => [answer.agency.id];

  const ROUTES: AgencyRoute[] = [
    {
      method: 'POST',
      path: '/api/agency',
      // one agency per user: every member of one gets 409
      expect: agents({}, 409),
      request: async () => ({ url: '/api/agency', body: { name: 'A second agency' } }),
    },
    {
      method: 'GET',
      path: '/api/agency',
      expect: agents({}, 200),
      request: async () => ({ url: '/api/agency' }),
      shows: {
        ids: agencyOf,
        want: {
          owner: (w) => [w.a],
          manager: (w) => [w.a],
          agent: (w) => [w.a],
          otherOwner: (w) => [w.b],
        },
      },
    },
    {
      method: 'PATCH',
      path: '/api/agency',
      // B's owner changes B
      expect: agents({ manager: 403, agent: 403 }, 200),
      request: async () => ({ url: '/api/agency', body: { dailyCap: 40 } }),
      shows: { ids: agencyOf, want: { owner: (w) => [w.a], otherOwner: (w) => [w.b] } },
    },
    {
      method: 'DELETE',
      path: '/api/agency/membership',
      // an owner with other members hands over first; the manager, then their agent, leave
      expect: agents({ manager: 204, agent: 204 }, 409),
      request: async () => ({ url: '/api/agency/membership' }),
    },
    {
      method: 'GET',
      path: '/api/agency/members',
      expect: agents({}, 200),
      request: async () => ({ url: '/api/agency/members' }),
      shows: {
        ids: userIds,
        want: {
          owner: (w) => [w.p.owner.id, w.p.manager.id, w.p.agent.id, w.p.ownAgent.id],
          manager: (w) => [w.p.manager.id, w.p.agent.id],
          agent: (w) => [w.p.agent.id],
          otherOwner: (w) => [w.p.otherOwner.id, w.p.otherAgent.id],
        },
      },
    },
    {
      method: 'PATCH',
      path: '/api/agency/members/:userId',
      expect: agents({ owner: 200, otherOwner: 404 }, 403),
      request: async (w) => ({
        url: `/api/agency/members/${w.p.ownAgent.id}`,
        body: { role: 'MANAGER' },
      }),
    },
    {
      method: 'DELETE',
      path: '/api/agency/members/:userId',
      // a member of the manager's team
      expect: agents({ owner: 204, manager: 204, otherOwner: 404 }, 403),
      request: async (w) => ({
        url: `/api/agency/members/${await freshMember(w, { managerId: w.p.manager.id })}`,
      }),
    },
    {
      method: 'PUT',
      path: '/api/agency/members/:userId/subscription',
      expect: agents({ owner: 200, otherOwner: 404 }, 403),
      request: async (w) => ({
        url: `/api/agency/members/${await freshMember(w, { managerId: w.p.manager.id })}/subscription`,
        body: { packageId: pkgId },
      }),
    },
    {
      method: 'DELETE',
      path: '/api/agency/members/:userId/subscription',
      expect: agents({ owner: 200, otherOwner: 404 }, 403),
      request: async (w) => ({
        url: `/api/agency/members/${await freshMember(w, { managerId: w.p.manager.id, paid: true })}/subscription`,
      }),
    },
    {
      method: 'GET',
      path: '/api/agency/leads',
      expect: agents({}, 200),
      request: async () => ({ url: '/api/agency/leads' }),
      shows: {
        ids: itemIds,
        want: {
          owner: (w) => [w.leads.owner, w.leads.manager, w.leads.agent, w.leads.ownAgent],
          manager: (w) => [w.leads.manager, w.leads.agent],
          agent: (w) => [w.leads.agent],
          otherOwner: (w) => [w.leads.otherAgent],
        },
      },
    },
    {
      method: 'POST',
      path: '/api/agency/leads/:id/reassign',
      // a fresh lead the manager's agent holds, to the manager
      expect: agents({ owner: 200, manager: 200, agent: 403 }, 404),
      request: async (w) => ({
        url: `/api/agency/leads/${(await bookLead(w.a, w.p.agent.id)).id}/reassign`,
        body: { userId: w.p.manager.id },
      }),
    },
    {
      method: 'POST',
      path: '/api/agency/invites',
      // B's owner invites into B
      expect: agents({ agent: 403 }, 201),
      request: async () => ({ url: '/api/agency/invites', body: { role: 'AGENT' } }),
    },
    {
      method: 'GET',
      path: '/api/agency/invites',
      expect: agents({ agent: 403 }, 200),
      request: async () => ({ url: '/api/agency/invites' }),
      shows: {
        ids: (list: { id: number }[]) => list.map((i) => i.id),
        want: {
          owner: (w) => [w.invites.owner.id, w.invites.manager.id],
          manager: (w) => [w.invites.manager.id],
          otherOwner: (w) => [w.invites.otherOwner.id],
        },
      },
    },
    {
      method: 'DELETE',
      path: '/api/agency/invites/:id',
      // a fresh invite into the manager's team
      expect: agents({ owner: 204, manager: 204, agent: 403 }, 404),
      request: async (w) => ({
        url: `/api/agency/invites/${(await invite(w.p.manager, { role: 'AGENT' })).id}`,
      }),
    },
    {
      method: 'GET',
      path: '/api/agency/invites/lookup',
      // public: the join page asks before the visitor signs in
      expect: agents({ admin: 200, anonymous: 200 }, 200),
      request: async (w) => ({ url: `/api/agency/invites/lookup?code=${w.invites.owner.code}` }),
    },
    {
      method: 'POST',
      path: '/api/agency/join',
      // every member of an agency already: 409
      expect: agents({}, 409),
      request: async (w) => ({ url: '/api/agency/join', body: { code: w.invites.owner.code } }),
    },
    {
      method: 'GET',
      path: '/api/agency/audit',
      // each owner their own agency's: here, the invites its members made
      expect: agents({ manager: 403, agent: 403 }, 200),
      request: async () => ({ url: '/api/agency/audit' }),
      shows: {
        ids: (page: { events: { actorId: number }[] }) => [
          ...new Set(page.events.map((e) => e.actorId)),
        ],
        want: {
          owner: (w) => [w.p.owner.id, w.p.manager.id],
          otherOwner: (w) => [w.p.otherOwner.id],
        },
      },
    },
    {
      method: 'GET',
      path: '/api/admin/agencies',
      expect: agents({ admin: 200 }, 403),
      request: async () => ({ url: '/api/admin/agencies' }),
      shows: {
        ids: (list: { id: number }[], w) =>
          list.map((a) => a.id).filter((id) => id === w.a || id === w.b),
        want: { admin: (w) => [w.a, w.b] },
      },
    },
    {
      method: 'PATCH',
      path: '/api/admin/agencies/:id',
      expect: agents({ admin: 200 }, 403),
      request: async (w) => ({ url: `/api/admin/agencies/${w.a}`, body: { status: 'SUSPENDED' } }),
    },
  ];

  const sorted = (ids: number[]) => [...ids].sort((x, y) => x - y);

  for (const route of ROUTES) {
    it(`${route.method} ${route.path}: ${WHO.map((w) => `${w} ${route.expect[w]}`).join(', ')}`, async () => {
      const w = await freshWorld();
      for (const who of WHO) {
        const spec = await route.request(w, who);
        const before = await tableChecksums(ctx);
        const res = await clientOf(w, who).request(route.method, spec.url, spec.body);
        expect(res.statusCode, `${who}: ${res.body}`).toBe(route.expect[who]);
        if (res.statusCode >= 400) {
          expect(res.json(), who).toEqual({ message: expect.any(String) });
          expect(await tableChecksums(ctx), `${who}'s refused call changed data`).toEqual(before);
        }
        const want = route.shows?.want[who];
        if (route.shows && res.statusCode === 200) {
          expect(want, `what ${who} sees is listed`).toBeDefined();
          expect(sorted(route.shows.ids(res.json() as never, w)), `what ${who} sees`).toEqual(
            sorted(want?.(w) ?? []),
          );
        }
      }
    });
  }

  it('the table holds every agency route the server has (the authorization matrix lists them all)', () => {
    const agencyRoute = (path: string) =>
      path === '/api/agency' ||
      path.startsWith('/api/agency/') ||
      path.startsWith('/api/admin/agencies');
    const served = MATRIX_ROUTES.filter((r) => agencyRoute(r.path)).map(
      (r) => `${r.method} ${r.path}`,
    );
    expect(ROUTES.map((r) => `${r.method} ${r.path}`).sort()).toEqual(served.sort());
  });
});
