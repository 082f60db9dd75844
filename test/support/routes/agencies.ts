import { eq } from 'drizzle-orm';
import { agencyMembers, leads } from '../../../src/server/db/schema';
import { insertLeads } from '../agent-fixtures';
import { registerAgent } from '../test-app';
import { ADMIN_ONLY, type Caller, type Fixtures, type RouteCase } from './route-case';

/**
 * Agencies (docs/domain.md, Agencies): agent A owns an agency with members; agent B belongs to
 * none, so every request naming A's agency, members, leads or invites is a 404 for B.
 */

/** Agent A's agency (created when A has none). */
async function agencyOfA(fx: Fixtures): Promise<number> {
  const res = await fx.agent.client.get('/api/agency');
  if (res.statusCode === 200) return res.json().agency.id;
  const created = await fx.agent.client.post('/api/agency', { name: 'Matrix agency' });
  if (created.statusCode !== 201) throw new Error(`agency: ${created.body}`);
  return created.json().agency.id;
}

/** A fresh member of A's agency, subscribed to the fixture package: their id. */
async function memberOfA(fx: Fixtures): Promise<number> {
  const agencyId = await agencyOfA(fx);
  const member = await registerAgent(fx.ctx.app, 'Matrix member');
  await fx.ctx.database.db
    .insert(agencyMembers)
    .values({ userId: member.id, agencyId, role: 'AGENT', managerId: null });
  await fx.ensureSubscription(member.id);
  return member.id;
}

/** Agent B in no agency (a membership another row gave them is dropped). */
async function bWithoutAgency(fx: Fixtures, caller: Caller): Promise<void> {
  if (caller !== 'otherAgent') return;
  await fx.ctx.database.db.delete(agencyMembers).where(eq(agencyMembers.userId, fx.otherAgent.id));
}

/** Prepares: A owns an agency with a member, B is in none. */
async function ready(fx: Fixtures, caller: Caller): Promise<number> {
  await bWithoutAgency(fx, caller);
  return memberOfA(fx);
}

async function inviteOfA(fx: Fixtures): Promise<{ id: number; code: string }> {
  await agencyOfA(fx);
  const res = await fx.agent.client.post('/api/agency/invites', { role: 'AGENT' });
  if (res.statusCode !== 201) throw new Error(`invite: ${res.body}`);
  return res.json();
}

/** An agent in the agency: 200 (A, the owner); B, in none: 404. */
const MEMBERS = (ok: number, other = 404) => ({
  anonymous: 401,
  agent: ok,
  otherAgent: other,
  admin: 403,
});

export const agenciesRoutes: RouteCase[] = [
  {
    method: 'POST',
    path: '/api/agency',
    // A owns one already: 409; B, in none, creates one
    expect: { anonymous: 401, agent: 409, otherAgent: 201, admin: 403 },
    request: async (fx, caller) => {
      await ready(fx, caller);
      return { url: '/api/agency', body: { name: 'Matrix agency' } };
    },
    invalid: () => ({ url: '/api/agency', body: { name: '' } }),
  },
  {
    method: 'GET',
    path: '/api/agency',
    expect: MEMBERS(200),
    request: async (fx, caller) => {
      await ready(fx, caller);
      return { url: '/api/agency' };
    },
  },
  {
    method: 'PATCH',
    path: '/api/agency',
    expect: MEMBERS(200),
    request: async (fx, caller) => {
      await ready(fx, caller);
      return { url: '/api/agency', body: { dailyCap: 40, reclaimAfterMinutes: 30 } };
    },
    invalid: () => ({ url: '/api/agency', body: { dailyCap: 0 } }),
  },
  {
    method: 'DELETE',
    path: '/api/agency/membership',
    // A owns an agency with members: hand it over first
    expect: MEMBERS(409),
    request: async (fx, caller) => {
      await ready(fx, caller);
      return { url: '/api/agency/membership' };
    },
  },
  {
    method: 'GET',
    path: '/api/agency/members',
    expect: MEMBERS(200),
    request: async (fx, caller) => {
      await ready(fx, caller);
      return { url: '/api/agency/members' };
    },
  },
  {
    method: 'PATCH',
    path: '/api/agency/members/:userId',
    expect: MEMBERS(200),
    request: async (fx, caller) => {
      const member = await ready(fx, caller);
      return { url: `/api/agency/members/${member}`, body: { role: 'MANAGER' } };
    },
    invalid: () => ({ url: '/api/agency/members/1', body: { role: 'BOSS' } }),
  },
  {
    method: 'DELETE',
    path: '/api/agency/members/:userId',
    expect: MEMBERS(204),
    request: async (fx, caller) => {
      const member = await ready(fx, caller);
      return { url: `/api/agency/members/${member}` };
    },
    invalid: () => ({ url: '/api/agency/members/x' }),
  },
  {
    method: 'PUT',
    path: '/api/agency/members/:userId/subscription',
    expect: MEMBERS(200),
    request: async (fx, caller) => {
      const member = await ready(fx, caller);
      return {
        url: `/api/agency/members/${member}/subscription`,
        body: { packageId: fx.packageId },
      };
    },
    invalid: () => ({ url: '/api/agency/members/1/subscription', body: { packageId: -1 } }),
  },
  {
    method: 'DELETE',
    path: '/api/agency/members/:userId/subscription',
    expect: MEMBERS(200),
    request: async (fx, caller) => {
      const member = await ready(fx, caller);
      const paid = await fx.agent.client.put(`/api/agency/members/${member}/subscription`, {
        packageId: fx.packageId,
      });
      if (paid.statusCode !== 200) throw new Error(`pay: ${paid.body}`);
      return { url: `/api/agency/members/${member}/subscription` };
    },
  },
  {
    method: 'GET',
    path: '/api/agency/leads',
    expect: MEMBERS(200),
    request: async (fx, caller) => {
      await ready(fx, caller);
      return { url: '/api/agency/leads?status=ASSIGNED&q=First&limit=10' };
    },
    invalid: () => ({ url: '/api/agency/leads?limit=0' }),
  },
  {
    method: 'POST',
    path: '/api/agency/leads/:id/reassign',
    expect: MEMBERS(200),
    request: async (fx, caller) => {
      const from = await ready(fx, caller);
      const to = await memberOfA(fx);
      const agencyId = await agencyOfA(fx);
      const [lead] = await insertLeads(fx.ctx.database.db, [
        { agentId: from, assignedOn: '2020-01-01' },
      ]);
      await fx.ctx.database.db.update(leads).set({ agencyId }).where(eq(leads.id, lead.id));
      return { url: `/api/agency/leads/${lead.id}/reassign`, body: { userId: to } };
    },
    invalid: () => ({ url: '/api/agency/leads/1/reassign', body: { userId: -1 } }),
  },
  {
    method: 'POST',
    path: '/api/agency/invites',
    expect: { anonymous: 401, agent: 201, otherAgent: 404, admin: 403 },
    request: async (fx, caller) => {
      await ready(fx, caller);
      return { url: '/api/agency/invites', body: { role: 'AGENT', maxUses: 3 } };
    },
    invalid: () => ({ url: '/api/agency/invites', body: { role: 'OWNER' } }),
  },
  {
    method: 'GET',
    path: '/api/agency/invites',
    expect: MEMBERS(200),
    request: async (fx, caller) => {
      await ready(fx, caller);
      return { url: '/api/agency/invites' };
    },
  },
  {
    method: 'DELETE',
    path: '/api/agency/invites/:id',
    expect: MEMBERS(204),
    request: async (fx, caller) => {
      await bWithoutAgency(fx, caller);
      return { url: `/api/agency/invites/${(await inviteOfA(fx)).id}` };
    },
    invalid: () => ({ url: '/api/agency/invites/0' }),
  },
  {
    method: 'GET',
    path: '/api/agency/invites/lookup',
    // public: the join page asks before the visitor signs in
    expect: { anonymous: 200, agent: 200, otherAgent: 200, admin: 200 },
    request: async (fx) => ({
      url: `/api/agency/invites/lookup?code=${encodeURIComponent((await inviteOfA(fx)).code)}`,
    }),
    invalid: () => ({ url: '/api/agency/invites/lookup?code=' }),
  },
  {
    method: 'POST',
    path: '/api/agency/join',
    // A is a member already: 409; B joins
    expect: { anonymous: 401, agent: 409, otherAgent: 200, admin: 403 },
    request: async (fx, caller) => {
      await bWithoutAgency(fx, caller);
      return { url: '/api/agency/join', body: { code: (await inviteOfA(fx)).code } };
    },
    invalid: () => ({ url: '/api/agency/join', body: { code: '' } }),
  },
  {
    method: 'GET',
    path: '/api/admin/agencies',
    expect: ADMIN_ONLY(200),
    request: () => ({ url: '/api/admin/agencies' }),
  },
  {
    method: 'PATCH',
    path: '/api/admin/agencies/:id',
    expect: ADMIN_ONLY(200),
    request: async (fx) => ({
      url: `/api/admin/agencies/${await agencyOfA(fx)}`,
      body: { status: 'ACTIVE' },
    }),
    invalid: () => ({ url: '/api/admin/agencies/1', body: { status: 'CLOSED' } }),
  },
];
