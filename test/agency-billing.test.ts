import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { subscriptions } from '../src/server/db/schema';
import { insertPackage } from './support/agent-fixtures';
import { loginAdmin, registerAgent, setupTestApp } from './support/test-app';

/** The agency pays its members' packages, without Stripe (docs/domain.md, Agencies). */
const ctx = setupTestApp();

type Agent = Awaited<ReturnType<typeof registerAgent>>;
let pkgId: number;
let otherPkgId: number;

beforeAll(async () => {
  pkgId = (await insertPackage(ctx.database.db, { leadsPerDay: 10 })).id;
  otherPkgId = (await insertPackage(ctx.database.db, { leadsPerDay: 4 })).id;
});

async function agencyOf(name: string) {
  const owner = await registerAgent(ctx.app, `${name} Owner`);
  const created = await owner.client.post('/api/agency', { name });
  const agencyId = created.json().agency.id as number;
  const members: Agent[] = [];
  for (const role of ['MANAGER', 'AGENT', 'AGENT'] as const) {
    const { code } = (await owner.client.post('/api/agency/invites', { role })).json();
    const member = await registerAgent(ctx.app, `${name} ${role} ${members.length}`);
    expect((await member.client.post('/api/agency/join', { code })).statusCode).toBe(200);
    members.push(member);
  }
  const [manager, agent, spare] = members;
  return { agencyId, owner, manager, agent, spare };
}

async function subscription(userId: number) {
  const [row] = await ctx.database.db
    .select()
    .from(subscriptions)
    .where(eq(subscriptions.userId, userId));
  return row;
}

const pay = (by: Agent, memberId: number, packageId = pkgId) =>
  by.client.put(`/api/agency/members/${memberId}/subscription`, { packageId });

describe('the agency pays a member (no Stripe)', () => {
  it('the owner pays: ACTIVE at once, shown as paid by the agency; ends it: CANCELED', async () => {
    const t = await agencyOf('Payer');
    const res = await pay(t.owner, t.agent.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      userId: t.agent.id,
      package: { id: pkgId },
      subscriptionStatus: 'ACTIVE',
      paidByAgency: true,
      quotaToday: { assigned: 0, limit: 10 },
    });
    expect((await t.agent.client.get('/api/agency')).json().paidByAgency).toBe(true);
    expect((await t.agent.client.get('/api/agent/stats')).json().subscription).toMatchObject({
      status: 'ACTIVE',
      packageId: pkgId,
    });
    expect(await subscription(t.agent.id)).toMatchObject({
      paidByAgencyId: t.agencyId,
      statusSetBy: 'AGENCY',
    });
    const switched = await pay(t.owner, t.agent.id, otherPkgId);
    expect(switched.json()).toMatchObject({
      package: { id: otherPkgId },
      subscriptionStatus: 'ACTIVE',
    });

    const ended = await t.owner.client.delete(`/api/agency/members/${t.agent.id}/subscription`);
    expect(ended.statusCode).toBe(200);
    expect(ended.json()).toMatchObject({ subscriptionStatus: 'CANCELED', paidByAgency: false });
    expect(
      (await t.owner.client.delete(`/api/agency/members/${t.agent.id}/subscription`)).statusCode,
    ).toBe(404);
    // no longer paid by the agency: the member pays for themself again
    const own = await t.agent.client.post('/api/agent/subscription', { packageId: pkgId });
    expect(own.statusCode).toBe(200);
    expect(own.json()).toMatchObject({ status: 'ACTIVE', packageId: pkgId });
  });

  it('only the owner pays, for members of their agency', async () => {
    const t = await agencyOf('OnlyOwner');
    const other = await agencyOf('NotYours');
    expect((await pay(t.manager, t.agent.id)).statusCode).toBe(403);
    expect((await pay(t.agent, t.agent.id)).statusCode).toBe(403);
    expect((await pay(other.owner, t.agent.id)).statusCode).toBe(404);
    expect((await pay(t.owner, t.agent.id, 2147483000)).statusCode).toBe(404);
    expect(
      (await t.manager.client.delete(`/api/agency/members/${t.agent.id}/subscription`)).statusCode,
    ).toBe(403);
    expect(await subscription(t.agent.id)).toBeUndefined();
  });

  it("a pay-per-lead package is the member's own: the agency cannot pay it (409), the member can", async () => {
    const t = await agencyOf('PerLead');
    const perLead = await insertPackage(ctx.database.db, {
      pricing: 'PER_LEAD',
      perLeadCents: 1250,
      priceMonthlyCents: 0,
    });
    const refused = await pay(t.owner, t.agent.id, perLead.id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toMatch(/own wallet/);
    expect(await subscription(t.agent.id)).toBeUndefined();
    // the member takes it on their own and pays its leads from their wallet
    const own = await t.agent.client.post('/api/agent/subscription', { packageId: perLead.id });
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json()).toMatchObject({ status: 'ACTIVE', packageId: perLead.id });
    expect((await t.agent.client.get('/api/agency')).json().paidByAgency).toBe(false);
  });

  it('a member cannot change or cancel what the agency pays (409)', async () => {
    const t = await agencyOf('Locked');
    await pay(t.owner, t.agent.id);
    const change = await t.agent.client.post('/api/agent/subscription', { packageId: otherPkgId });
    expect(change.statusCode).toBe(409);
    expect(change.json().message).toMatch(/agency pays/);
    expect((await t.agent.client.delete('/api/agent/subscription')).statusCode).toBe(409);
    expect(await subscription(t.agent.id)).toMatchObject({ packageId: pkgId, status: 'ACTIVE' });
  });

  it('leaving or being removed ends what the agency paid', async () => {
    const t = await agencyOf('Leavers');
    await pay(t.owner, t.agent.id);
    await pay(t.owner, t.spare.id);
    expect((await t.agent.client.delete('/api/agency/membership')).statusCode).toBe(204);
    expect(await subscription(t.agent.id)).toMatchObject({
      status: 'CANCELED',
      paidByAgencyId: null,
    });
    expect((await t.owner.client.delete(`/api/agency/members/${t.spare.id}`)).statusCode).toBe(204);
    expect(await subscription(t.spare.id)).toMatchObject({
      status: 'CANCELED',
      paidByAgencyId: null,
    });
  });
});

describe("an agency's suspension holds what it pays", () => {
  it('suspended: every agency-paid member is held and cannot lift it; restored: the hold lifts, an admin hold on one member stays', async () => {
    const t = await agencyOf('Suspended');
    const admin = await loginAdmin(ctx);
    await pay(t.owner, t.agent.id);
    await pay(t.owner, t.spare.id);
    // the manager pays for themself: not the agency's to hold
    expect(
      (await t.manager.client.post('/api/agent/subscription', { packageId: pkgId })).json().status,
    ).toBe('ACTIVE');
    // an admin's own hold on one member
    expect(
      (
        await admin.client.patch(`/api/admin/agents/${t.spare.id}/subscription`, {
          status: 'INACTIVE',
        })
      ).statusCode,
    ).toBe(200);

    const suspended = await admin.client.patch(`/api/admin/agencies/${t.agencyId}`, {
      status: 'SUSPENDED',
    });
    expect(suspended.statusCode).toBe(200);
    expect(suspended.json()).toMatchObject({ id: t.agencyId, status: 'SUSPENDED', paidMembers: 2 });
    expect((await t.agent.client.get('/api/agency')).json().agency.status).toBe('SUSPENDED');
    expect(await subscription(t.agent.id)).toMatchObject({
      status: 'INACTIVE',
      statusSetBy: 'AGENCY',
    });
    expect(await subscription(t.manager.id)).toMatchObject({ status: 'ACTIVE' });
    const members = (await t.owner.client.get('/api/agency/members')).json();
    expect(members.find((m: { userId: number }) => m.userId === t.agent.id)).toMatchObject({
      subscriptionStatus: 'INACTIVE',
      quotaToday: { limit: 0 },
    });

    // the member cannot lift it
    expect(
      (await t.agent.client.post('/api/agent/subscription', { packageId: pkgId })).statusCode,
    ).toBe(409);
    expect((await t.agent.client.delete('/api/agent/subscription')).statusCode).toBe(409);
    // a package the agency starts paying while suspended is held too
    const third = await registerAgent(ctx.app, 'Third');
    const { code } = (await t.owner.client.post('/api/agency/invites', { role: 'AGENT' })).json();
    await third.client.post('/api/agency/join', { code });
    expect((await pay(t.owner, third.id)).json().subscriptionStatus).toBe('INACTIVE');
    expect(await subscription(t.agent.id)).toMatchObject({ status: 'INACTIVE' });

    const restored = await admin.client.patch(`/api/admin/agencies/${t.agencyId}`, {
      status: 'ACTIVE',
    });
    expect(restored.json().status).toBe('ACTIVE');
    expect(await subscription(t.agent.id)).toMatchObject({ status: 'ACTIVE' });
    expect(await subscription(third.id)).toMatchObject({ status: 'ACTIVE' });
    expect(await subscription(t.spare.id)).toMatchObject({
      status: 'INACTIVE',
      statusSetBy: 'ADMIN',
    });
  });
});
