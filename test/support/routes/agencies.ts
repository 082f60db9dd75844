import { ADMIN_ONLY, type Caller, type Fixtures, type RouteCase } from './route-case';

/**
 * Agencies (docs/domain.md, Agencies): agent A owns an agency with members; agent B belongs to
 * none, so every request naming A's agency, members, leads or invites is a 404 for B.
 */

/** Prepares: A owns an agency with a fresh member (their id); B is in none. */
async function ready(fx: Fixtures, caller: Caller): Promise<number> {
  if (caller === 'otherAgent') await fx.withoutAgency(fx.otherAgent.id);
  return fx.agencyMember();
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
      if (caller === 'otherAgent') await fx.withoutAgency(fx.otherAgent.id);
      const member = await fx.agencyPaidMember();
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
      const to = await fx.agencyMember();
      const leadId = await fx.agencyLead(from);
      return { url: `/api/agency/leads/${leadId}/reassign`, body: { userId: to } };
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
      if (caller === 'otherAgent') await fx.withoutAgency(fx.otherAgent.id);
      return { url: `/api/agency/invites/${(await fx.agencyInvite()).id}` };
    },
    invalid: () => ({ url: '/api/agency/invites/0' }),
  },
  {
    method: 'GET',
    path: '/api/agency/invites/lookup',
    // public: the join page asks before the visitor signs in
    expect: { anonymous: 200, agent: 200, otherAgent: 200, admin: 200 },
    request: async (fx) => ({
      url: `/api/agency/invites/lookup?code=${encodeURIComponent((await fx.agencyInvite()).code)}`,
    }),
    invalid: () => ({ url: '/api/agency/invites/lookup?code=' }),
  },
  {
    method: 'POST',
    path: '/api/agency/join',
    // A is a member already: 409; B joins
    expect: { anonymous: 401, agent: 409, otherAgent: 200, admin: 403 },
    request: async (fx, caller) => {
      if (caller === 'otherAgent') await fx.withoutAgency(fx.otherAgent.id);
      return { url: '/api/agency/join', body: { code: (await fx.agencyInvite()).code } };
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
      url: `/api/admin/agencies/${await fx.agencyOfAgent()}`,
      body: { status: 'ACTIVE' },
    }),
    invalid: () => ({ url: '/api/admin/agencies/1', body: { status: 'CLOSED' } }),
  },
];
