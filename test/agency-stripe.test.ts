/**
 * The agency pays its members' packages through Stripe (docs/domain.md, Agencies, "Paying with
 * Stripe"): the real `stripe` SDK against the stand-in on loopback, events signed as Stripe does.
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppConfig } from '../src/server/config/env';
import { agencies, leads, packages, subscriptions } from '../src/server/db/schema';
import { insertLeads, insertPackage } from './support/agent-fixtures';
import { type SignedEvent, StripeStandIn } from './support/stripe-stand-in';
import { loginAdmin, registerAgent, setupTestApp } from './support/test-app';

const standIn = new StripeStandIn();
const overrides: Partial<AppConfig> = {
  STRIPE_SECRET_KEY: 'sk_test_leadflow',
  STRIPE_WEBHOOK_SECRET: standIn.webhookSecret,
  PUBLIC_URL: 'https://portal.example.com',
};
beforeAll(async () => {
  overrides.STRIPE_API_BASE = await standIn.start();
});
afterAll(() => standIn.stop());
// the queue's sweepers every half second: the seats' catch-up is seen within a test
const ctx = setupTestApp(overrides, { deliveryQueue: { sweepIntervalMs: 500 } });

type Agent = Awaited<ReturnType<typeof registerAgent>>;
type Obj = Record<string, unknown>;

let gold: number;
let silver: number;
beforeAll(async () => {
  gold = (await insertPackage(ctx.database.db, { name: 'Gold', priceMonthlyCents: 30_000 })).id;
  silver = (await insertPackage(ctx.database.db, { name: 'Silver', priceMonthlyCents: 10_000 })).id;
});

async function deliver(event: SignedEvent, signature = event.header) {
  return ctx.app.inject({
    method: 'POST',
    url: '/api/billing/stripe/webhook',
    headers: { 'content-type': 'application/json', 'stripe-signature': signature },
    payload: event.payload,
  });
}

async function deliverAll(events: SignedEvent[]) {
  for (const event of events) {
    const res = await deliver(event);
    expect(res.statusCode, res.body).toBe(200);
  }
}

async function agencyOf(name: string, size = 3) {
  const owner = await registerAgent(ctx.app, `${name} Owner`);
  const created = await owner.client.post('/api/agency', { name });
  const agencyId = created.json().agency.id as number;
  const members: Agent[] = [];
  for (let i = 0; i < size; i += 1) {
    const { code } = (await owner.client.post('/api/agency/invites', { role: 'AGENT' })).json();
    const member = await registerAgent(ctx.app, `${name} Agent ${i}`);
    expect((await member.client.post('/api/agency/join', { code })).statusCode).toBe(200);
    members.push(member);
  }
  return { agencyId, owner, members };
}

const pay = (owner: Agent, memberId: number, packageId: number) =>
  owner.client.put(`/api/agency/members/${memberId}/subscription`, { packageId });

async function agencyRow(agencyId: number) {
  const [row] = await ctx.database.db.select().from(agencies).where(eq(agencies.id, agencyId));
  return row;
}

async function statusOf(userId: number) {
  const [row] = await ctx.database.db
    .select({ status: subscriptions.status, setBy: subscriptions.statusSetBy })
    .from(subscriptions)
    .where(eq(subscriptions.userId, userId));
  return row;
}

/** The agency's Stripe items: price's package id → quantity. */
async function itemsOf(agencyId: number): Promise<Record<number, number>> {
  const row = await agencyRow(agencyId);
  const subscription = standIn.subscriptions.get(row?.stripeSubscriptionId ?? '');
  const out: Record<number, number> = {};
  const items = (subscription?.items as { data: Obj[] } | undefined)?.data ?? [];
  for (const item of items) {
    const price = item.price as { metadata: { packageId: string } };
    out[Number(price.metadata.packageId)] = item.quantity as number;
  }
  return out;
}

/** The owner's first payment: Checkout, paid; its events delivered. */
async function payFirst(owner: Agent, memberId: number, packageId: number) {
  const res = await pay(owner, memberId, packageId);
  expect(res.statusCode, res.body).toBe(200);
  const { checkoutUrl } = res.json() as { checkoutUrl: string };
  expect(checkoutUrl).toMatch(new RegExp(`^${standIn.base}/pay/cs_`));
  const paid = standIn.pay(checkoutUrl.split('/').pop() as string);
  await deliverAll(paid.events);
  return paid.subscriptionId;
}

describe('the agency pays through Stripe', () => {
  it('pays first through Checkout; then one item per package, its quantity the members on it', async () => {
    const t = await agencyOf('Seats');
    const [a, b, c] = t.members as [Agent, Agent, Agent];

    // no payment method yet: Checkout, and nothing changes until Stripe says it is paid
    const first = await pay(t.owner, a.id, gold);
    expect(first.json()).toHaveProperty('checkoutUrl');
    expect(await statusOf(a.id)).toBeUndefined();
    const sessionId = (first.json().checkoutUrl as string).split('/').pop() as string;
    expect(standIn.sessions.get(sessionId)).toMatchObject({
      mode: 'subscription',
      metadata: { agencyId: String(t.agencyId), memberId: String(a.id) },
    });
    const paid = standIn.pay(sessionId);
    await deliverAll(paid.events);
    expect(await statusOf(a.id)).toEqual({ status: 'ACTIVE', setBy: 'AGENCY' });
    const row = await agencyRow(t.agencyId);
    expect(row).toMatchObject({
      stripeSubscriptionId: paid.subscriptionId,
      billingStatus: 'ACTIVE',
    });
    expect(row?.stripeCustomerId).toMatch(/^cus_/);
    expect(await itemsOf(t.agencyId)).toEqual({ [gold]: 1 });

    // with a live subscription: ACTIVE at once, the item's quantity follows
    const second = await pay(t.owner, b.id, gold);
    expect(second.json()).toMatchObject({ userId: b.id, subscriptionStatus: 'ACTIVE' });
    expect(await itemsOf(t.agencyId)).toEqual({ [gold]: 2 });
    // paying again for the same member on the same package counts them once
    expect((await pay(t.owner, b.id, gold)).statusCode).toBe(200);
    expect(await itemsOf(t.agencyId)).toEqual({ [gold]: 2 });
    // a third member on another package: a second item, the seat invoiced at once
    const invoices = standIn.invoices.size;
    expect((await pay(t.owner, c.id, silver)).json()).toMatchObject({
      subscriptionStatus: 'ACTIVE',
    });
    expect(await itemsOf(t.agencyId)).toEqual({ [gold]: 2, [silver]: 1 });
    expect(standIn.invoices.size).toBe(invoices + 1);
    const added = standIn.calls.filter((call) => call.path === '/v1/subscription_items');
    expect(added.at(-1)?.body).toMatchObject({
      quantity: '1',
      proration_behavior: 'always_invoice',
    });

    // ending one: quantity 1, not credited
    const ended = await t.owner.client.delete(`/api/agency/members/${b.id}/subscription`);
    expect(ended.json()).toMatchObject({ subscriptionStatus: 'CANCELED', paidByAgency: false });
    expect(await itemsOf(t.agencyId)).toEqual({ [gold]: 1, [silver]: 1 });
    expect(standIn.calls.at(-1)?.body).toMatchObject({ quantity: '1', proration_behavior: 'none' });

    // the silver member leaves: the item goes
    expect((await c.client.delete('/api/agency/membership')).statusCode).toBe(204);
    expect(await itemsOf(t.agencyId)).toEqual({ [gold]: 1 });
    // the last paid member removed: the subscription is cancelled
    const removed = await t.owner.client.delete(`/api/agency/members/${a.id}`);
    expect(removed.statusCode).toBe(204);
    expect(standIn.subscriptions.get(paid.subscriptionId)?.status).toBe('canceled');
    await deliverAll(standIn.outbox.splice(0));
    expect(await agencyRow(t.agencyId)).toMatchObject({ billingStatus: 'CANCELED' });

    // paying again after the end: Checkout again, a new subscription
    const next = await payFirst(t.owner, b.id, silver);
    expect(next).not.toBe(paid.subscriptionId);
    expect(await statusOf(b.id)).toEqual({ status: 'ACTIVE', setBy: 'AGENCY' });
    expect(await itemsOf(t.agencyId)).toEqual({ [silver]: 1 });
  });

  it('Stripe down: the payment stands, and the next change brings the quantities in step', async () => {
    const t = await agencyOf('Outage');
    const [a, b, c] = t.members as [Agent, Agent, Agent];
    await payFirst(t.owner, a.id, gold);
    standIn.failing = true;
    try {
      const res = await pay(t.owner, b.id, gold);
      expect(res.json()).toMatchObject({ subscriptionStatus: 'ACTIVE' });
      // read while Stripe is still down (the sweeper cannot catch up meanwhile)
      expect(await itemsOf(t.agencyId)).toEqual({ [gold]: 1 });
      const lagging = await agencyRow(t.agencyId);
      expect(lagging?.seatsVersion).toBeGreaterThan(lagging?.seatsSyncedVersion ?? 0);
      // the next change brings the quantities in step
      standIn.failing = false;
      await pay(t.owner, c.id, gold);
    } finally {
      standIn.failing = false;
    }
    expect(await itemsOf(t.agencyId)).toEqual({ [gold]: 3 });
    const synced = await agencyRow(t.agencyId);
    expect(synced?.seatsSyncedVersion).toBe(synced?.seatsVersion);
  });

  it('Stripe down: the sweeper brings the quantities in step with no other change', async () => {
    const t = await agencyOf('Sweep');
    const [a, b] = t.members as [Agent, Agent];
    await payFirst(t.owner, a.id, gold);
    standIn.failing = true;
    try {
      expect((await pay(t.owner, b.id, gold)).json()).toMatchObject({
        subscriptionStatus: 'ACTIVE',
      });
      // read while Stripe is still down (the sweeper cannot catch up meanwhile)
      expect(await itemsOf(t.agencyId)).toEqual({ [gold]: 1 });
    } finally {
      standIn.failing = false;
    }
    // nobody touches the agency again: the queue's sweeper catches Stripe up by itself, then
    // records the version it brought Stripe to (a moment after Stripe's items change)
    await expect.poll(() => itemsOf(t.agencyId), { timeout: 10_000 }).toEqual({ [gold]: 2 });
    await expect
      .poll(
        async () => {
          const synced = await agencyRow(t.agencyId);
          return synced && synced.seatsSyncedVersion === synced.seatsVersion;
        },
        { timeout: 10_000 },
      )
      .toBe(true);
  });

  it('a sync repeated for the same members (a crash before it was recorded) changes nothing', async () => {
    const t = await agencyOf('Retry', 2);
    const [a, b] = t.members as [Agent, Agent];
    const subscriptionId = await payFirst(t.owner, a.id, gold);
    expect((await pay(t.owner, b.id, silver)).statusCode).toBe(200);
    const items = await itemsOf(t.agencyId);
    expect(items).toEqual({ [gold]: 1, [silver]: 1 });
    const made = standIn.calls.filter((call) => call.path.startsWith('/v1/subscription_items'));
    await ctx.database.db
      .update(agencies)
      .set({ seatsSyncedVersion: sql`${agencies.seatsVersion} - 1` })
      .where(eq(agencies.id, t.agencyId));
    // the agency's next event tries the sync again: Stripe already holds the members
    await deliverAll([standIn.event('invoice.paid', standIn.invoice(subscriptionId, 'paid'))]);
    expect(await itemsOf(t.agencyId)).toEqual(items);
    expect(standIn.calls.filter((call) => call.path.startsWith('/v1/subscription_items'))).toEqual(
      made,
    );
    const row = await agencyRow(t.agencyId);
    expect(row?.seatsSyncedVersion).toBe(row?.seatsVersion);
  });
});

describe("the agency's payment events", () => {
  async function heldAgency(name: string) {
    const category = 'FINAL_EXPENSE' as const;
    const pkg = (await insertPackage(ctx.database.db, { category, leadsPerDay: 5 })).id;
    const t = await agencyOf(name, 2);
    const [a, b] = t.members as [Agent, Agent];
    const subscriptionId = await payFirst(t.owner, a.id, pkg);
    expect((await pay(t.owner, b.id, pkg)).statusCode).toBe(200);
    standIn.outbox.splice(0);
    return { ...t, a, b, pkg, subscriptionId };
  }

  async function leadsOf(agentId: number) {
    const [row] = await ctx.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(leads)
      .where(eq(leads.agentId, agentId));
    return row?.n ?? 0;
  }

  async function runEngine() {
    const admin = await loginAdmin(ctx);
    const res = await admin.client.post('/api/admin/assignment/run');
    expect(res.statusCode, res.body).toBe(200);
  }

  it('a failed payment holds every paid member (no leads, no own change); paid again lifts it', async () => {
    const t = await heldAgency('Held');
    const failed = standIn.event(
      'invoice.payment_failed',
      standIn.invoice(t.subscriptionId, 'failed'),
    );
    await deliverAll([failed]);
    expect(await agencyRow(t.agencyId)).toMatchObject({ billingStatus: 'PAST_DUE' });
    for (const member of [t.a, t.b]) {
      expect(await statusOf(member.id)).toEqual({ status: 'PAST_DUE', setBy: 'AGENCY' });
      const own = await member.client.post('/api/agent/subscription', { packageId: t.pkg });
      expect(own.statusCode).toBe(409);
      expect((await member.client.delete('/api/agent/subscription')).statusCode).toBe(409);
    }
    await insertLeads(ctx.database.db, [
      { category: 'FINAL_EXPENSE' },
      { category: 'FINAL_EXPENSE' },
    ]);
    await runEngine();
    expect((await leadsOf(t.a.id)) + (await leadsOf(t.b.id))).toBe(0);

    // a replay changes nothing; a forged signature is refused and changes nothing
    const replay = await deliver(failed);
    expect(replay.json()).toMatchObject({ outcome: 'duplicate' });
    const paidEvent = standIn.event('invoice.paid', standIn.invoice(t.subscriptionId, 'paid'));
    const forged = await deliver(
      paidEvent,
      paidEvent.header.replace(/v1=\w+/, `v1=${'0'.repeat(64)}`),
    );
    expect(forged.statusCode).toBe(400);
    expect(await statusOf(t.a.id)).toEqual({ status: 'PAST_DUE', setBy: 'AGENCY' });

    await deliverAll([paidEvent]);
    expect(await agencyRow(t.agencyId)).toMatchObject({ billingStatus: 'ACTIVE' });
    expect(await statusOf(t.a.id)).toEqual({ status: 'ACTIVE', setBy: 'AGENCY' });
    await runEngine();
    expect((await leadsOf(t.a.id)) + (await leadsOf(t.b.id))).toBe(2);
  });

  it('an older event after a newer one changes nothing', async () => {
    const t = await heldAgency('Order');
    const at = Math.floor(Date.now() / 1000) + 60;
    const newer = standIn.event('invoice.paid', standIn.invoice(t.subscriptionId, 'paid'), at);
    const older = standIn.event(
      'invoice.payment_failed',
      standIn.invoice(t.subscriptionId, 'failed'),
      at - 10,
    );
    await deliverAll([newer, older]);
    expect(await agencyRow(t.agencyId)).toMatchObject({ billingStatus: 'ACTIVE' });
    expect(await statusOf(t.b.id)).toEqual({ status: 'ACTIVE', setBy: 'AGENCY' });
  });

  it('the subscription deleted ends every package the agency paid', async () => {
    const t = await heldAgency('Deleted');
    const subscription = standIn.subscriptions.get(t.subscriptionId) as Obj;
    subscription.status = 'canceled';
    await deliverAll([standIn.event('customer.subscription.deleted', subscription)]);
    expect(await agencyRow(t.agencyId)).toMatchObject({ billingStatus: 'CANCELED' });
    for (const member of [t.a, t.b]) {
      expect(await statusOf(member.id)).toEqual({ status: 'CANCELED', setBy: 'AGENCY' });
    }
    expect((await t.owner.client.get('/api/agency/members')).json()).toEqual(
      expect.arrayContaining([expect.objectContaining({ userId: t.a.id, paidByAgency: false })]),
    );
    // the package's row is untouched by the agency's billing
    const [pkg] = await ctx.database.db.select().from(packages).where(eq(packages.id, t.pkg));
    expect(pkg?.stripePriceId).toMatch(/^price_/);
  });

  it("a member's own Stripe subscription is cancelled when the agency pays", async () => {
    const t = await agencyOf('Own', 2);
    const [a, b] = t.members as [Agent, Agent];
    await payFirst(t.owner, a.id, gold);
    const own = await b.client.post('/api/agent/subscription', { packageId: silver });
    const paid = standIn.pay((own.json().checkoutUrl as string).split('/').pop() as string);
    await deliverAll(paid.events);
    expect(await statusOf(b.id)).toMatchObject({ status: 'ACTIVE', setBy: 'BILLING' });
    expect((await pay(t.owner, b.id, gold)).json()).toMatchObject({ paidByAgency: true });
    expect(standIn.subscriptions.get(paid.subscriptionId)?.status).toBe('canceled');
    expect(await itemsOf(t.agencyId)).toEqual({ [gold]: 2 });
  });
});
