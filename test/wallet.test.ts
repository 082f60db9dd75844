/**
 * Pay per lead from a wallet (docs/domain.md, Pay per lead; The wallet), without Stripe: prices by
 * rule, charges in the assignment's transaction (a run, the intake, by hand), the capacity the
 * balance and the monthly budget give (the explanation's "Balance too low" and "Monthly budget
 * spent"), credits on an approved return and a reassignment, the admin's credit, the ledger that
 * no statement may change, and the race: 50 intake posts and a run against money for 7 leads.
 */
import { type SQL, sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { queryRows } from '../src/server/db/client';
import { businessDate } from '../src/server/lib/business-time';
import { runAssignment } from '../src/server/modules/assignment/run-assignment.service';
import {
  createExplainedAgents,
  explainLead,
} from '../src/server/modules/explanation/explanation.service';
import {
  createAgent,
  createLeads,
  createPackage,
  leadStates,
  resetAssignmentData,
} from './support/assignment-fixtures';
import { uniqueEmail, uniquePhone } from './support/lead-contact';
import { loginAdmin, registerAgent, setupTestApp } from './support/test-app';

const ctx = setupTestApp({ ASSIGN_ON_IMPORT: false });
const db = () => ctx.database.db;
/** Wednesday 17 June 2026, midday in New York. */
const WED = new Date('2026-06-17T16:00:00Z');
const run = (now = new Date()) =>
  runAssignment(db(), ctx.app.config, { trigger: 'MANUAL', now, events: ctx.app.leadPorts.events });

beforeEach(async () => {
  await resetAssignmentData(db());
  await db().execute(sql`truncate agent_caps, wallet_entries, wallets, package_prices`);
});

/** A PER_LEAD package (`cents` a lead unless a rule says otherwise). */
async function perLeadPackage(cents: number, leadsPerDay = 50): Promise<number> {
  const id = await createPackage(db(), { leadsPerDay });
  await db().execute(
    sql`update packages set pricing = 'PER_LEAD', per_lead_cents = ${cents} where id = ${id}`,
  );
  return id;
}

async function fund(agentId: number, cents: number) {
  await db().execute(
    sql`insert into wallets (user_id, balance_cents) values (${agentId}, ${cents})
        on conflict (user_id) do update set balance_cents = excluded.balance_cents`,
  );
}

async function balanceOf(agentId: number): Promise<number> {
  const [row] = await queryRows<{ b: number }>(
    db(),
    sql`select balance_cents as b from wallets where user_id = ${agentId}`,
  );
  return row?.b ?? 0;
}

async function entriesOf(agentId: number) {
  return queryRows<{ kind: string; amount: number; leadId: number | null; after: number }>(
    db(),
    sql`select kind::text, amount_cents as amount, lead_id::int as "leadId",
               balance_after_cents as after
          from wallet_entries where user_id = ${agentId} order by id`,
  );
}

async function assignedTo(agentId: number): Promise<number[]> {
  return [...(await leadStates(db())).values()]
    .filter((l) => l.agentId === agentId)
    .map((l) => l.id)
    .sort((a, b) => a - b);
}

describe('prices by rule', () => {
  it('charges each lead the first matching rule of the price list, else the price per lead', async () => {
    const admin = await loginAdmin(ctx);
    const pkg = await perLeadPackage(2500);
    const source = (
      await admin.client.post('/api/admin/sources', {
        name: `Vendor ${uniquePhone()}`,
        costPerLeadCents: 100,
      })
    ).json();
    const put = await admin.client.put(`/api/admin/packages/${pkg}/prices`, {
      rules: [
        { state: 'FL', ageMin: 65, ageMax: 70, priceCents: 4000 },
        { state: 'FL', priceCents: 3000 },
        { sourceId: source.id, priceCents: 1500 },
      ],
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().rules).toHaveLength(3);
    expect(put.json().rules[0]).toEqual({
      state: 'FL',
      ageMin: 65,
      ageMax: 70,
      sourceId: null,
      priceCents: 4000,
    });
    // the landing page's card: from the lowest price
    const offered = (await ctx.app.inject({ url: '/api/packages' })).json();
    expect(offered.find((p: { id: number }) => p.id === pkg)).toMatchObject({
      pricing: 'PER_LEAD',
      perLeadCents: 2500,
      fromPerLeadCents: 1500,
    });

    const agent = await createAgent(db(), { packageId: pkg });
    // $200 covers five leads at the highest price ($40): all four are given in one run
    await fund(agent, 200_00);
    const [fl67, fl80, tx, fromSource] = await createLeads(db(), [
      { state: 'FL', age: 67 },
      { state: 'FL', age: 80 },
      { state: 'TX', age: 67 },
      { state: 'TX', age: 67 },
    ]);
    await db().execute(sql`update leads set source_id = ${source.id} where id = ${fromSource}`);
    await run(WED);
    expect(await assignedTo(agent)).toEqual([fl67, fl80, tx, fromSource]);
    const charges = (await entriesOf(agent)).sort((x, y) => (x.leadId ?? 0) - (y.leadId ?? 0));
    expect(charges.map((e) => [e.leadId, e.amount])).toEqual([
      [fl67, -4000],
      [fl80, -3000],
      [tx, -2500],
      [fromSource, -1500],
    ]);
    // each entry carries the balance after it, charged in the leads' order
    expect(charges.map((e) => e.after)).toEqual([16_000, 13_000, 10_500, 9_000]);
    expect(await balanceOf(agent)).toBe(9_000);
  });

  it('refuses a price list for a subscription package, a bad rule, and non-admins', async () => {
    const admin = await loginAdmin(ctx);
    const monthly = await createPackage(db(), { leadsPerDay: 5 });
    const refused = await admin.client.put(`/api/admin/packages/${monthly}/prices`, {
      rules: [{ priceCents: 100 }],
    });
    expect(refused.statusCode).toBe(409);
    const pkg = await perLeadPackage(1000);
    const bad = await admin.client.put(`/api/admin/packages/${pkg}/prices`, {
      rules: [{ ageMin: 80, ageMax: 70, priceCents: 0 }],
    });
    expect(bad.statusCode).toBe(400);
    const fields = bad.json().errors.map((e: { field: string }) => e.field);
    expect(fields).toEqual(expect.arrayContaining(['rules.0.priceCents']));
    const noSource = await admin.client.put(`/api/admin/packages/${pkg}/prices`, {
      rules: [{ sourceId: 999_999, priceCents: 100 }],
    });
    expect(noSource.statusCode).toBe(400);
    expect((await admin.client.get(`/api/admin/packages/${pkg}/prices`)).json()).toEqual({
      rules: [],
    });
    const agent = await registerAgent(ctx.app);
    expect((await agent.client.get(`/api/admin/packages/${pkg}/prices`)).statusCode).toBe(403);
  });

  it('a PER_LEAD package needs its price per lead', async () => {
    const admin = await loginAdmin(ctx);
    const res = await admin.client.post('/api/admin/packages', {
      name: 'Final Expense by the lead',
      slug: `fe-per-lead-${uniquePhone().slice(-6)}`,
      priceMonthlyCents: 0,
      leadsPerDay: 20,
      commissionPct: 0,
      category: 'FINAL_EXPENSE',
      enrollmentOnly: false,
      services: { crm: true, callRecording: false, followUpMessage: false },
      active: true,
      pricing: 'PER_LEAD',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].field).toBe('perLeadCents');
  });
});

describe('the balance as capacity', () => {
  it('a run gives a PER_LEAD agent what the balance covers at the highest price, and says why not more', async () => {
    const pkg = await perLeadPackage(1000);
    await db().execute(
      sql`insert into package_prices (package_id, position, state, price_cents)
          values (${pkg}, 0, 'NY', 2000)`,
    );
    const agent = await createAgent(db(), { packageId: pkg });
    // $50: two leads at the highest price ($20), though TX leads cost $10
    await fund(agent, 5000);
    const ids = await createLeads(db(), [{}, {}, {}, {}]);
    await run(WED);
    expect(await assignedTo(agent)).toHaveLength(2);
    expect(await balanceOf(agent)).toBe(3000);
    // $30 still covers one more at $20
    await run(WED);
    expect(await assignedTo(agent)).toHaveLength(3);
    expect(await balanceOf(agent)).toBe(2000);
    await run(WED);
    expect(await assignedTo(agent)).toEqual(ids);
    expect(await balanceOf(agent)).toBe(1000);
    // $10 no longer covers the highest price: the next lead waits, and the explanation says why
    const [waiting] = await createLeads(db(), [{}]);
    await run(WED);
    expect((await leadStates(db())).get(waiting)?.agentId).toBeNull();
    const why = await explainLead(db(), ctx.app.config, waiting, WED);
    expect(why.fits).toEqual([]);
    expect(why.misfits).toContainEqual(
      expect.objectContaining({ reason: 'BALANCE_TOO_LOW', count: 1 }),
    );
    expect(await balanceOf(agent)).toBe(1000);
  });

  it("an explanation from the process's copy of the agents prices by the price list as it is now", async () => {
    const pkg = await perLeadPackage(1000);
    const agent = await createAgent(db(), { packageId: pkg });
    // $15 covers a $10 lead
    await fund(agent, 1500);
    const [lead] = await createLeads(db(), [{}]);
    const agents = createExplainedAgents(db(), {
      fold: true,
      onError: (err) => {
        throw err;
      },
    });
    await agents.refresh();
    const before = await explainLead(db(), ctx.app.config, lead, WED, agents);
    expect(before.fits.map((f) => f.id)).toEqual([agent]);
    // a rule of $20 for NY: the highest price a lead can cost moves, the agents' version does not
    await db().execute(
      sql`insert into package_prices (package_id, position, state, price_cents)
          values (${pkg}, 0, 'NY', 2000)`,
    );
    expect(await agents.current(db()), "the copy is still the agents' data").not.toBeNull();
    const after = await explainLead(db(), ctx.app.config, lead, WED, agents);
    expect(after.fits).toEqual([]);
    expect(after.misfits).toContainEqual({
      reason: 'BALANCE_TOO_LOW',
      count: 1,
      agents: [{ id: agent, name: expect.any(String) }],
    });
  });

  it("the monthly budget bounds the month's charges, and a new month starts afresh", async () => {
    const pkg = await perLeadPackage(1000);
    const agent = await createAgent(db(), { packageId: pkg });
    await fund(agent, 100_00);
    await db().execute(
      sql`insert into agent_caps (user_id, monthly_budget_cents) values (${agent}, 2500)`,
    );
    const ids = await createLeads(db(), [{}, {}, {}, {}]);
    await run(WED);
    // $25 of budget: two $10 leads, the third would pass it
    const given = await assignedTo(agent);
    expect(given).toHaveLength(2);
    const waiting = ids.find((id) => !given.includes(id)) as number;
    const why = await explainLead(db(), ctx.app.config, waiting, WED);
    expect(why.misfits).toContainEqual(expect.objectContaining({ reason: 'BUDGET_SPENT' }));
    await run(new Date('2026-07-01T16:00:00Z'));
    expect(await assignedTo(agent)).toEqual(ids);
    expect(await balanceOf(agent)).toBe(100_00 - 4000);
  });

  it('an admin cannot hand a lead to an agent whose balance does not cover it, and nothing changes', async () => {
    const admin = await loginAdmin(ctx);
    const pkg = await perLeadPackage(1500);
    const agent = await createAgent(db(), { packageId: pkg });
    await fund(agent, 1000);
    const [lead] = await createLeads(db(), [{}]);
    // the Assign Lead dialog's warnings say so first, with the weekly cap the agent reached
    await db().execute(sql`insert into agent_caps (user_id, weekly) values (${agent}, 1)`);
    await db().execute(
      sql`insert into leads (city, state, age, category, status, agent_id, assigned_at, assigned_on)
          values ('Elsewhere', 'ZZ', 70, 'MEDICARE', 'ASSIGNED', ${agent}, now(),
                  ${businessDate(ctx.app.config.BUSINESS_TZ)}::date)`,
    );
    const warned = await admin.client.get(`/api/admin/leads/${lead}/fit/${agent}`);
    expect(warned.json().reasons).toEqual(['WEEKLY_CAP', 'BALANCE_TOO_LOW']);
    const res = await admin.client.post('/api/admin/leads/assign', { leadId: lead, userId: agent });
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().message).toMatch(/balance does not cover/);
    expect((await leadStates(db())).get(lead)?.status).toBe('NEW');
    await fund(agent, 1500);
    const ok = await admin.client.post('/api/admin/leads/assign', { leadId: lead, userId: agent });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(await balanceOf(agent)).toBe(0);
  });
});

describe('credits', () => {
  it('an approved return gives the price back; a reassignment moves the charge', async () => {
    const admin = await loginAdmin(ctx);
    const pkg = await perLeadPackage(1200);
    const buyer = await registerAgent(ctx.app, 'Bea Buyer');
    const other = await createAgent(db(), { packageId: pkg });
    await db().execute(
      sql`insert into subscriptions (user_id, package_id, status) values (${buyer.id}, ${pkg}, 'ACTIVE')`,
    );
    await fund(buyer.id, 5000);
    await fund(other, 1200);
    const [a, b] = await createLeads(db(), [{}, {}]);
    for (const lead of [a, b]) {
      const res = await admin.client.post('/api/admin/leads/assign', {
        leadId: lead,
        userId: buyer.id,
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    expect(await balanceOf(buyer.id)).toBe(2600);

    const asked = await buyer.client.post(`/api/agent/leads/${a}/return`, {
      reason: 'WRONG_NUMBER',
    });
    expect(asked.statusCode, asked.body).toBe(201);
    const decided = await admin.client.post(`/api/admin/returns/${asked.json().id}/decision`, {
      approve: true,
    });
    expect(decided.statusCode, decided.body).toBe(200);
    expect(await balanceOf(buyer.id)).toBe(3800);

    const moved = await admin.client.post('/api/admin/leads/assign', { leadId: b, userId: other });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(await balanceOf(buyer.id)).toBe(5000);
    expect(await balanceOf(other)).toBe(0);

    const wallet = (await buyer.client.get('/api/agent/wallet')).json();
    expect(wallet.balanceCents).toBe(5000);
    expect(wallet.payPerLead).toBe(true);
    expect(wallet.priceRange).toEqual({ lowestCents: 1200, highestCents: 1200 });
    expect(
      wallet.entries.map((e: { kind: string; amountCents: number }) => [e.kind, e.amountCents]),
    ).toEqual([
      ['RECLAIM_CREDIT', 1200],
      ['RETURN_CREDIT', 1200],
      ['LEAD', -1200],
      ['LEAD', -1200],
    ]);
    // a second approval of the same return changes nothing
    const again = await admin.client.post(`/api/admin/returns/${asked.json().id}/decision`, {
      approve: true,
    });
    expect(again.statusCode).toBe(409);
    expect(await balanceOf(buyer.id)).toBe(5000);
  });
});

describe('the wallet routes', () => {
  it('an admin credits an agent by hand; the agent sees it with its note; top-up needs Stripe', async () => {
    const admin = await loginAdmin(ctx);
    const agent = await registerAgent(ctx.app, 'Walt Wallet');
    const credit = await admin.client.post(`/api/admin/agents/${agent.id}/wallet`, {
      amountCents: 7500,
      note: 'Welcome credit',
    });
    expect(credit.statusCode, credit.body).toBe(200);
    expect(credit.json()).toMatchObject({
      balanceCents: 7500,
      entry: {
        kind: 'ADMIN_CREDIT',
        amountCents: 7500,
        balanceAfterCents: 7500,
        note: 'Welcome credit',
      },
    });
    const wallet = (await agent.client.get('/api/agent/wallet')).json();
    expect(wallet).toMatchObject({
      balanceCents: 7500,
      total: 1,
      canTopUp: false,
      cardSaved: false,
      payPerLead: false,
      autoRecharge: { enabled: false, belowCents: null, amountCents: null },
    });
    expect(wallet.entries[0].note).toBe('Welcome credit');

    const topUp = await agent.client.post('/api/agent/wallet/top-up', { amountCents: 5000 });
    expect(topUp.statusCode).toBe(409);
    expect(topUp.json().message).toMatch(/ask an admin/);
    const recharge = await agent.client.put('/api/agent/wallet/auto-recharge', {
      enabled: true,
      belowCents: 1000,
      amountCents: 5000,
    });
    expect(recharge.statusCode).toBe(409);

    const balances = (await admin.client.get('/api/admin/wallets')).json();
    expect(balances).toContainEqual(
      expect.objectContaining({ agentId: agent.id, name: 'Walt Wallet', balanceCents: 7500 }),
    );
  });

  it('refuses what is wrong: amounts, a note, another role, an admin credited', async () => {
    const admin = await loginAdmin(ctx);
    const agent = await registerAgent(ctx.app);
    const zero = await admin.client.post(`/api/admin/agents/${agent.id}/wallet`, {
      amountCents: 0,
      note: 'x',
    });
    expect(zero.statusCode).toBe(400);
    const noNote = await admin.client.post(`/api/admin/agents/${agent.id}/wallet`, {
      amountCents: 500,
      note: ' ',
    });
    expect(noNote.statusCode).toBe(400);
    const notAgent = await admin.client.post(`/api/admin/agents/${admin.id}/wallet`, {
      amountCents: 500,
      note: 'to myself',
    });
    expect(notAgent.statusCode).toBe(404);
    const byAgent = await agent.client.post(`/api/admin/agents/${agent.id}/wallet`, {
      amountCents: 500,
      note: 'to myself',
    });
    expect(byAgent.statusCode).toBe(403);
    expect((await agent.client.get('/api/admin/wallets')).statusCode).toBe(403);
    expect((await admin.client.get('/api/agent/wallet')).statusCode).toBe(403);
    expect((await agent.client.get('/api/agent/wallet')).json().balanceCents).toBe(0);
  });

  it('the ledger is append-only and the balance never below zero, whatever the statement', async () => {
    const agent = await createAgent(db(), {});
    await fund(agent, 100);
    await db().execute(
      sql`insert into wallet_entries (user_id, kind, amount_cents, balance_after_cents)
          values (${agent}, 'ADMIN_CREDIT', 100, 100)`,
    );
    expect(await refusal(sql`update wallet_entries set amount_cents = 1000000`)).toMatch(
      /append-only/,
    );
    expect(await refusal(sql`delete from wallet_entries`)).toMatch(/append-only/);
    expect(
      await refusal(sql`update wallets set balance_cents = -1 where user_id = ${agent}`),
    ).toMatch(/wallets_never_negative/);
    expect(await balanceOf(agent)).toBe(100);
  });
});

/** The database's own words when it refuses the statement ('' when it runs). */
async function refusal(statement: SQL): Promise<string> {
  try {
    await db().execute(statement);
    return '';
  } catch (error) {
    let current: unknown = error;
    while (current instanceof Error && current.cause instanceof Error) current = current.cause;
    return current instanceof Error ? current.message : String(current);
  }
}

describe('the race', () => {
  it('50 intake posts and a run at once, money for 7 leads: exactly 7 given and charged, never below zero', async () => {
    const admin = await loginAdmin(ctx);
    const pkg = await perLeadPackage(1300, 100);
    const agent = await createAgent(db(), { packageId: pkg });
    await fund(agent, 7 * 1300);
    await createLeads(
      db(),
      Array.from({ length: 10 }, () => ({})),
    );
    const source = (
      await admin.client.post('/api/admin/sources', {
        name: `Race ${uniquePhone()}`,
        costPerLeadCents: 100,
      })
    ).json();
    const key = (await admin.client.post(`/api/admin/sources/${source.id}/keys`)).json().key;
    const post = (i: number) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/v1/leads',
        headers: { authorization: `Bearer ${key}` },
        payload: {
          firstName: 'Ray',
          lastName: `Race${i}`,
          phone: uniquePhone(),
          email: uniqueEmail('race'),
          city: 'Austin',
          state: 'TX',
          zip: '78701',
          age: 67,
          category: 'MEDICARE',
          externalId: `race-${i}`,
        },
      });
    const answers = await Promise.all([...Array.from({ length: 50 }, (_, i) => post(i)), run()]);
    for (const answer of answers.slice(0, 50)) {
      expect((answer as { statusCode: number }).statusCode).toBe(201);
    }
    const given = await assignedTo(agent);
    expect(given).toHaveLength(7);
    expect(await balanceOf(agent)).toBe(0);
    const charges = await entriesOf(agent);
    expect(
      charges
        .filter((e) => e.kind === 'LEAD')
        .map((e) => e.leadId)
        .sort((a, b) => (a ?? 0) - (b ?? 0)),
    ).toEqual(given);
    expect(Math.min(...charges.map((e) => e.after))).toBe(0);
  });
});
