/**
 * Agencies in the engine (docs/domain.md, Agencies): a SUSPENDED agency's members get no leads,
 * the agency's daily cap bounds its members' leads of the day in a run, in the intake's pick and
 * in the Assign Lead warnings, every assignment records the member's agency, and a departing
 * member's uncontacted leads go to the agency's other members.
 */
import { sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { queryRows } from '../src/server/db/client';
import { subscriptions } from '../src/server/db/schema';
import { assignedOnDate } from '../src/server/modules/assignment/quota.repository';
import { runAssignment } from '../src/server/modules/assignment/run-assignment.service';
import { releaseDepartingMember } from '../src/server/modules/reclaim/agency-leave.service';
import { createAgency, leadOwners, resetAgencies } from './support/agency-fixtures';
import {
  createAgent,
  createLeads,
  createPackage,
  resetAssignmentData,
} from './support/assignment-fixtures';
import { uniqueEmail, uniquePhone } from './support/lead-contact';
import { loginAdmin, registerAgent, setupTestApp, testConfig } from './support/test-app';

const ctx = setupTestApp({ ASSIGN_ON_IMPORT: false });
const db = () => ctx.database.db;
const config = testConfig();
const events = () => ctx.app.leadPorts.events;

beforeEach(async () => {
  await resetAssignmentData(db());
  await resetAgencies(db());
});

const countBy = <K>(values: K[]) => {
  const out = new Map<K, number>();
  for (const v of values) out.set(v, (out.get(v) ?? 0) + 1);
  return out;
};

describe('the engine and agencies', () => {
  it('keeps an agency at its daily cap, at the max-flow bound, and records the agency', async () => {
    const m1 = await createAgent(db(), { quota: 5 });
    const m2 = await createAgent(db(), { quota: 5 });
    const outsider = await createAgent(db(), { quota: 4, states: ['TX'] });
    const suspended = await createAgent(db(), { quota: 5 });
    const agency = await createAgency(db(), { dailyCap: 3, ownerId: m1, members: [m2] });
    await createAgency(db(), { status: 'SUSPENDED', ownerId: suspended });
    // 10 TX leads (the outsider fits them), 2 FL leads only the members can take
    await createLeads(db(), [
      ...Array.from({ length: 10 }, () => ({ state: 'TX' })),
      { state: 'FL' },
      { state: 'FL' },
    ]);
    const run = await runAssignment(db(), config, { trigger: 'MANUAL', events: events() });
    // the bound: the agency's 3 (FL first, so the outsider keeps TX) and the outsider's 4
    expect(run?.assigned).toBe(7);
    const owners = [...(await leadOwners(db())).values()];
    const got = countBy(owners.map((l) => l.agentId));
    expect((got.get(m1) ?? 0) + (got.get(m2) ?? 0)).toBe(3);
    expect(got.get(outsider)).toBe(4);
    expect(got.get(suspended)).toBeUndefined();
    // fair inside the agency: 2 and 1
    expect([got.get(m1), got.get(m2)].sort()).toEqual([1, 2]);
    for (const l of owners) {
      if (l.agentId === m1 || l.agentId === m2) expect(l.agencyId).toBe(agency);
      else expect(l.agencyId).toBeNull();
    }
    // a second run the same day gives the agency nothing more
    await createLeads(db(), [{ state: 'FL' }]);
    const again = await runAssignment(db(), config, { trigger: 'MANUAL', events: events() });
    expect(again?.assigned).toBe(0);
  });

  it('solves categories together when one agency with a cap spans them', async () => {
    const medicare = await createAgent(db(), { quota: 5, category: 'MEDICARE' });
    const aca = await createAgent(db(), { quota: 5, category: 'ACA' });
    await createAgency(db(), { dailyCap: 4, ownerId: medicare, members: [aca] });
    await createLeads(db(), [
      ...Array.from({ length: 4 }, () => ({ category: 'MEDICARE' as const })),
      ...Array.from({ length: 4 }, () => ({ category: 'ACA' as const })),
    ]);
    const run = await runAssignment(db(), config, { trigger: 'MANUAL', events: events() });
    expect(run?.assigned).toBe(4);
    const got = countBy([...(await leadOwners(db())).values()].map((l) => l.agentId));
    expect([got.get(medicare), got.get(aca)]).toEqual([2, 2]);
  });
});

describe('the intake and the Assign Lead warnings honour the cap', () => {
  it('stops handing leads to the members once the agency reached its cap today', async () => {
    const admin = await loginAdmin(ctx);
    const source = (
      await admin.client.post('/api/admin/sources', {
        name: `S ${Date.now()}`,
        costPerLeadCents: 1,
      })
    ).json();
    const key = (await admin.client.post(`/api/admin/sources/${source.id}/keys`)).json().key;
    const m1 = await createAgent(db(), { quota: 5 });
    const m2 = await createAgent(db(), { quota: 5 });
    const agency = await createAgency(db(), { dailyCap: 2, ownerId: m1, members: [m2] });
    const post = async () => {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/v1/leads',
        headers: { authorization: `Bearer ${key}` },
        payload: {
          firstName: 'Ann',
          phone: uniquePhone(),
          email: uniqueEmail('ann'),
          city: 'Austin',
          state: 'TX',
          zip: '78701',
          age: 67,
          category: 'MEDICARE',
          externalId: `ext-${Math.random()}`,
        },
      });
      expect(res.statusCode).toBe(201);
      return res.json() as { id: number; status: string };
    };
    const answers = [await post(), await post(), await post()];
    expect(answers.map((a) => a.status)).toEqual(['ASSIGNED', 'ASSIGNED', 'NEW']);
    const owners = await leadOwners(db());
    expect(new Set(answers.slice(0, 2).map((a) => owners.get(a.id)?.agentId))).toEqual(
      new Set([m1, m2]),
    );
    expect(answers.slice(0, 2).map((a) => owners.get(a.id)?.agencyId)).toEqual([agency, agency]);

    // the Assign Lead dialog warns of the cap; an admin may still assign, and the agency is recorded
    const third = answers[2].id;
    const fit = await admin.client.get(`/api/admin/leads/${third}/fit/${m1}`);
    expect(fit.json().reasons).toEqual(['AGENCY_CAP_FULL']);
    const explained = await admin.client.get(`/api/admin/leads/${third}/explain`);
    expect(explained.json().misfits).toContainEqual(
      expect.objectContaining({ reason: 'AGENCY_CAP_FULL', count: 2 }),
    );
    const assigned = await admin.client.post('/api/admin/leads/assign', {
      leadId: third,
      userId: m1,
      fromAgentId: null,
    });
    expect(assigned.statusCode, assigned.body).toBe(200);
    expect((await leadOwners(db())).get(third)?.agencyId).toBe(agency);
  });

  it('a suspended agency: its members fit no lead (AGENCY_SUSPENDED)', async () => {
    const admin = await loginAdmin(ctx);
    const m = await createAgent(db(), { quota: 5 });
    await createAgency(db(), { status: 'SUSPENDED', ownerId: m });
    const [lead] = await createLeads(db(), [{}]);
    const fit = await admin.client.get(`/api/admin/leads/${lead}/fit/${m}`);
    expect(fit.json().reasons).toEqual(['AGENCY_SUSPENDED']);
  });
});

describe('leaving: releaseDepartingMember', () => {
  it("gives a departing member's uncontacted leads to the other members; worked leads stay", async () => {
    const leaving = await createAgent(db(), { quota: 5 });
    const staying = await createAgent(db(), { quota: 5 });
    const agency = await createAgency(db(), { ownerId: staying, members: [leaving] });
    await createLeads(db(), [{}, {}, {}]);
    // all three to the leaving member (the other one paused for the run)
    await db().execute(sql`update users set paused_at = now() where id = ${staying}`);
    await runAssignment(db(), config, { trigger: 'MANUAL', events: events() });
    await db().execute(sql`update users set paused_at = null where id = ${staying}`);
    const leads = [...(await leadOwners(db())).keys()].sort((a, b) => a - b);
    expect([...(await leadOwners(db())).values()].every((l) => l.agentId === leaving)).toBe(true);
    // one worked
    await db().execute(
      sql`update leads set status = 'CONTACTED', first_contact_at = now() where id = ${leads[0]}`,
    );
    const day = (
      await queryRows<{ d: string }>(db(), sql`select assigned_on::text as d from leads limit 1`)
    )[0].d;
    expect((await assignedOnDate(db(), day)).get(leaving)).toBe(3);

    const outcome = await releaseDepartingMember(
      db(),
      { config, events: events() },
      { userId: leaving, agencyId: agency, actorId: staying },
      (tx) => tx.execute(sql`delete from agency_members where user_id = ${leaving}`).then(() => {}),
    );
    expect(outcome.released).toEqual([leads[1], leads[2]]);
    expect(outcome.toMembers).toEqual([leads[1], leads[2]]);
    expect(outcome.run).toBeNull();
    const owners = await leadOwners(db());
    expect(owners.get(leads[0])).toMatchObject({ agentId: leaving, status: 'CONTACTED' });
    expect(owners.get(leads[1])).toMatchObject({ agentId: staying, agencyId: agency });
    expect(owners.get(leads[2])).toMatchObject({ agentId: staying, agencyId: agency });
    // the quota credited: the leaving member counts one lead today, the other two
    const used = await assignedOnDate(db(), day);
    expect(used.get(leaving)).toBe(1);
    expect(used.get(staying)).toBe(2);
    const history = await queryRows<{ kind: string; from: number | null; agent: number | null }>(
      db(),
      sql`select kind::text, from_agent_id as from, agent_id as agent from lead_history
           where lead_id = ${leads[1]} order by id`,
    );
    expect(history.slice(-2)).toEqual([
      { kind: 'RECLAIMED', from: leaving, agent: null },
      { kind: 'AUTO_ASSIGNED', from: null, agent: staying },
    ]);
  });

  it('through the route: a member who leaves hands their uncontacted leads to the others', async () => {
    const owner = await registerAgent(ctx.app, 'Olga Owner');
    const member = await registerAgent(ctx.app, 'Max Member');
    const packageId = await createPackage(db(), { leadsPerDay: 5 });
    await db()
      .insert(subscriptions)
      .values([
        { userId: owner.id, packageId },
        { userId: member.id, packageId },
      ]);
    expect((await owner.client.post('/api/agency', { name: 'Leaving Co' })).statusCode).toBe(201);
    const invite = (await owner.client.post('/api/agency/invites', { role: 'AGENT' })).json();
    expect((await member.client.post('/api/agency/join', { code: invite.code })).statusCode).toBe(
      200,
    );
    await createLeads(db(), [{}, {}]);
    // both to the member (the owner paused for the run)
    await db().execute(sql`update users set paused_at = now() where id = ${owner.id}`);
    await runAssignment(db(), config, { trigger: 'MANUAL', events: events() });
    await db().execute(sql`update users set paused_at = null where id = ${owner.id}`);
    const [worked, untouched] = [...(await leadOwners(db())).keys()].sort((a, b) => a - b);
    expect(
      (await member.client.post(`/api/agent/leads/${worked}/status`, { status: 'CONTACTED' }))
        .statusCode,
    ).toBe(200);

    expect((await member.client.delete('/api/agency/membership')).statusCode).toBe(204);
    const owners = await leadOwners(db());
    expect(owners.get(worked)).toMatchObject({ agentId: member.id, status: 'CONTACTED' });
    expect(owners.get(untouched)).toMatchObject({ agentId: owner.id, status: 'ASSIGNED' });
    // the owner's book shows where it went
    const book = (await owner.client.get('/api/agency/leads')).json();
    expect(book.items.find((l: { id: number }) => l.id === untouched)?.agent).toMatchObject({
      id: owner.id,
    });
  });

  it('leaves to the engine what no member can take (trigger AGENCY)', async () => {
    const leaving = await createAgent(db(), { quota: 5 });
    const other = await createAgent(db(), { quota: 5, states: ['FL'] });
    const outsider = await createAgent(db(), { quota: 5 });
    const agency = await createAgency(db(), { ownerId: other, members: [leaving] });
    const [lead] = await createLeads(db(), [{ state: 'TX' }]);
    await db().execute(sql`update users set paused_at = now() where id = ${outsider}`);
    await runAssignment(db(), config, { trigger: 'MANUAL', events: events() });
    await db().execute(sql`update users set paused_at = null where id = ${outsider}`);
    expect((await leadOwners(db())).get(lead)?.agentId).toBe(leaving);
    // the member leaves, and the package the agency paid for ends with it
    const outcome = await releaseDepartingMember(
      db(),
      { config, events: events() },
      { userId: leaving, agencyId: agency },
      async (tx) => {
        await tx.execute(sql`delete from agency_members where user_id = ${leaving}`);
        await tx.execute(
          sql`update subscriptions set status = 'CANCELED' where user_id = ${leaving}`,
        );
      },
    );
    expect(outcome.toMembers).toEqual([]);
    expect(outcome.run?.trigger).toBe('AGENCY');
    expect((await leadOwners(db())).get(lead)).toMatchObject({ agentId: outsider, agencyId: null });
  });
});
