/**
 * Stripe Billing (docs/domain.md "Billing"): the real `stripe` SDK against a stand-in
 * of Stripe's API on loopback, and webhook events signed with the SDK's own test signer.
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppConfig } from '../src/server/config/env';
import { billingEvents, leads, packages, subscriptions } from '../src/server/db/schema';
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
const ctx = setupTestApp(overrides);

type Agent = Awaited<ReturnType<typeof registerAgent>>;

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

async function rowOf(userId: number) {
  const [row] = await ctx.database.db
    .select()
    .from(subscriptions)
    .where(eq(subscriptions.userId, userId));
  return row;
}

/** Subscribes through Checkout and pays: the agent ends ACTIVE on the package. */
async function subscribeAndPay(agent: Agent, packageId: number) {
  const res = await agent.client.post('/api/agent/subscription', { packageId });
  expect(res.statusCode, res.body).toBe(200);
  const { checkoutUrl } = res.json() as { checkoutUrl: string };
  const sessionId = checkoutUrl.split('/').pop() as string;
  const paid = standIn.pay(sessionId);
  await deliverAll(paid.events);
  return { ...paid, checkoutUrl, sessionId };
}

/** The price the stand-in's subscription bills now. */
function billedPrice(subscriptionId: string | null | undefined): string | undefined {
  const subscription = standIn.subscriptions.get(subscriptionId ?? '');
  const items = subscription?.items as { data: { price: { id: string } }[] } | undefined;
  return items?.data[0]?.price.id;
}

async function runEngine() {
  const admin = await loginAdmin(ctx);
  const res = await admin.client.post('/api/admin/assignment/run');
  expect(res.statusCode, res.body).toBe(200);
}

async function leadsOf(agentId: number) {
  const rows = await ctx.database.db
    .select({ n: sql<number>`count(*)::int` })
    .from(leads)
    .where(eq(leads.agentId, agentId));
  return rows[0]?.n ?? 0;
}

describe('subscribing through Stripe Checkout', () => {
  it('answers the Checkout URL, changes nothing until paid, and the payment makes it ACTIVE', async () => {
    const pkg = await insertPackage(ctx.database.db, { name: 'Gold', priceMonthlyCents: 49_900 });
    const agent = await registerAgent(ctx.app, 'Paying Agent');
    const calls = standIn.calls.length;

    const res = await agent.client.post('/api/agent/subscription', { packageId: pkg.id });
    expect(res.statusCode).toBe(200);
    const { checkoutUrl } = res.json();
    expect(checkoutUrl).toMatch(new RegExp(`^${standIn.base}/pay/cs_`));
    expect(await rowOf(agent.id)).toBeUndefined();
    expect((await agent.client.get('/api/agent/billing')).json()).toMatchObject({
      state: 'AWAITING_CHECKOUT',
      pendingPackageId: pkg.id,
      canManage: true,
    });

    // the product, its monthly price, the customer, and the session, as Stripe takes them
    const made = standIn.calls.slice(calls).map((c) => `${c.method} ${c.path}`);
    expect(made).toEqual(
      expect.arrayContaining([
        'POST /v1/customers',
        'POST /v1/products',
        'POST /v1/prices',
        'POST /v1/checkout/sessions',
      ]),
    );
    const price = standIn.calls.slice(calls).find((c) => c.path === '/v1/prices');
    expect(price?.body).toMatchObject({
      unit_amount: '49900',
      currency: 'usd',
      recurring: { interval: 'month' },
    });
    const session = standIn.calls.slice(calls).find((c) => c.path === '/v1/checkout/sessions');
    expect(session?.body).toMatchObject({
      mode: 'subscription',
      client_reference_id: String(agent.id),
      success_url: 'https://portal.example.com/dashboard/package?checkout=success',
      cancel_url: 'https://portal.example.com/dashboard/package?checkout=canceled',
      line_items: [{ quantity: '1' }],
    });

    const sessionId = checkoutUrl.split('/').pop();
    const paid = standIn.pay(sessionId);
    await deliverAll(paid.events);

    expect(await rowOf(agent.id)).toMatchObject({
      status: 'ACTIVE',
      statusSetBy: 'BILLING',
      packageId: pkg.id,
      stripeSubscriptionId: paid.subscriptionId,
      lastInvoiceStatus: 'paid',
      lastInvoiceAmountCents: 49_900,
    });
    const billing = (await agent.client.get('/api/agent/billing')).json();
    expect(billing).toMatchObject({
      state: 'ACTIVE',
      pendingPackageId: null,
      lastInvoice: { status: 'paid', amountCents: 49_900 },
    });
    expect(Date.parse(billing.currentPeriodEnd)).toBeGreaterThan(Date.now() + 20 * 86_400_000);
    const stats = (await agent.client.get('/api/agent/stats')).json();
    expect(stats.subscription).toMatchObject({ status: 'ACTIVE', packageId: pkg.id });

    // the admin's Agents table shows the billing state and the last invoice
    const admin = await loginAdmin(ctx);
    const row = (await admin.client.get('/api/admin/agents'))
      .json()
      .find((a: { id: number }) => a.id === agent.id);
    expect(row.billing).toMatchObject({
      lastInvoice: { status: 'paid', amountCents: 49_900 },
    });
    expect(row.billing.currentPeriodEnd).toBe(billing.currentPeriodEnd);
  });

  it('opens the customer portal for an agent with a Stripe customer, and 409 for one without', async () => {
    const pkg = await insertPackage(ctx.database.db);
    const agent = await registerAgent(ctx.app);
    const none = await agent.client.post('/api/agent/billing/portal');
    expect(none.statusCode).toBe(409);
    await subscribeAndPay(agent, pkg.id);
    const res = await agent.client.post('/api/agent/billing/portal');
    expect(res.statusCode).toBe(200);
    expect(res.json().url).toMatch(new RegExp(`^${standIn.base}/portal/bps_`));
    const call = standIn.calls.findLast((c) => c.path === '/v1/billing_portal/sessions');
    expect(call?.body).toMatchObject({
      return_url: 'https://portal.example.com/dashboard/package',
    });
  });
});

describe('webhooks', () => {
  it('refuses a wrong or missing signature with 400 and records nothing', async () => {
    const event = standIn.event('invoice.paid', { id: 'in_x', object: 'invoice' });
    const wrong = await deliver(event, event.header.replace(/v1=[0-9a-f]{4}/, 'v1=0000'));
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ message: 'Invalid Stripe signature' });
    const other = new StripeStandIn('whsec_someone_else').event('invoice.paid', {});
    expect((await deliver({ ...other, payload: event.payload })).statusCode).toBe(400);
    const missing = await ctx.app.inject({
      method: 'POST',
      url: '/api/billing/stripe/webhook',
      headers: { 'content-type': 'application/json' },
      payload: event.payload,
    });
    expect(missing.statusCode).toBe(400);
    const seen = await ctx.database.db
      .select()
      .from(billingEvents)
      .where(eq(billingEvents.id, event.id));
    expect(seen).toHaveLength(0);
  });

  it('invoice.payment_failed makes it PAST_DUE: the next run gives the agent nothing, the agent cannot lift it, invoice.paid does', async () => {
    const db = ctx.database.db;
    const pkg = await insertPackage(db, { category: 'FINAL_EXPENSE', leadsPerDay: 5 });
    const other = await insertPackage(db, { category: 'FINAL_EXPENSE', leadsPerDay: 7 });
    const agent = await registerAgent(ctx.app, 'Failing Card');
    const { subscriptionId } = await subscribeAndPay(agent, pkg.id);

    const failed = standIn.event(
      'invoice.payment_failed',
      standIn.invoice(subscriptionId, 'failed'),
    );
    await deliverAll([failed]);
    expect(await rowOf(agent.id)).toMatchObject({
      status: 'PAST_DUE',
      statusSetBy: 'BILLING',
      lastInvoiceStatus: 'failed',
    });
    expect((await agent.client.get('/api/agent/billing')).json()).toMatchObject({
      state: 'PAST_DUE',
      lastInvoice: { status: 'failed', amountCents: pkg.priceMonthlyCents },
    });

    await insertLeads(db, [{ category: 'FINAL_EXPENSE' }, { category: 'FINAL_EXPENSE' }]);
    await runEngine();
    expect(await leadsOf(agent.id)).toBe(0);

    // item 1 under Stripe: subscribing again or switching never lifts PAST_DUE, nor pays
    const sessions = standIn.sessions.size;
    for (const packageId of [pkg.id, other.id]) {
      const again = await agent.client.post('/api/agent/subscription', { packageId });
      expect(again.statusCode).toBe(200);
      expect(again.json()).toMatchObject({ status: 'PAST_DUE', packageId });
    }
    expect(standIn.sessions.size).toBe(sessions);
    expect(await rowOf(agent.id)).toMatchObject({ status: 'PAST_DUE', statusSetBy: 'BILLING' });
    // the switch moved the Stripe subscription to the other package's price
    const [otherRow] = await db.select().from(packages).where(eq(packages.id, other.id));
    expect(billedPrice(subscriptionId)).toBe(otherRow?.stripePriceId);

    await deliverAll([standIn.event('invoice.paid', standIn.invoice(subscriptionId, 'paid'))]);
    expect(await rowOf(agent.id)).toMatchObject({ status: 'ACTIVE', statusSetBy: 'BILLING' });
    await runEngine();
    expect(await leadsOf(agent.id)).toBe(2);
  });

  it('customer.subscription.deleted makes it CANCELED; paying again through Checkout restarts it', async () => {
    const pkg = await insertPackage(ctx.database.db);
    const agent = await registerAgent(ctx.app);
    const { subscriptionId } = await subscribeAndPay(agent, pkg.id);
    const subscription = standIn.subscriptions.get(subscriptionId);
    if (!subscription) throw new Error('no subscription');
    subscription.status = 'canceled';
    await deliverAll([standIn.event('customer.subscription.deleted', subscription)]);
    expect(await rowOf(agent.id)).toMatchObject({ status: 'CANCELED', statusSetBy: 'BILLING' });
    expect((await agent.client.get('/api/agent/billing')).json().state).toBe('CANCELED');

    const second = await subscribeAndPay(agent, pkg.id);
    expect(second.subscriptionId).not.toBe(subscriptionId);
    expect(await rowOf(agent.id)).toMatchObject({
      status: 'ACTIVE',
      stripeSubscriptionId: second.subscriptionId,
    });
    // an event of the old subscription changes nothing now
    await deliverAll([standIn.event('customer.subscription.deleted', subscription)]);
    expect((await rowOf(agent.id))?.status).toBe('ACTIVE');
  });

  it('applies a replayed event once', async () => {
    const pkg = await insertPackage(ctx.database.db);
    const agent = await registerAgent(ctx.app);
    const { subscriptionId } = await subscribeAndPay(agent, pkg.id);
    const failed = standIn.event(
      'invoice.payment_failed',
      standIn.invoice(subscriptionId, 'failed'),
    );
    expect((await deliver(failed)).json()).toEqual({ received: true, outcome: 'applied' });
    // an admin restores the agent; the same delivery again must not suspend them once more
    const admin = await loginAdmin(ctx);
    await admin.client.patch(`/api/admin/agents/${agent.id}/subscription`, { status: 'ACTIVE' });
    const replay = await deliver(failed);
    expect(replay.statusCode).toBe(200);
    expect(replay.json()).toEqual({ received: true, outcome: 'duplicate' });
    expect(await rowOf(agent.id)).toMatchObject({ status: 'ACTIVE', statusSetBy: 'ADMIN' });
    const rows = await ctx.database.db
      .select()
      .from(billingEvents)
      .where(eq(billingEvents.id, failed.id));
    expect(rows).toHaveLength(1);
  });

  it('an older event never undoes a newer state: a late payment_failed after a newer paid changes nothing', async () => {
    const pkg = await insertPackage(ctx.database.db, { priceMonthlyCents: 12_300 });
    const agent = await registerAgent(ctx.app);
    const { subscriptionId } = await subscribeAndPay(agent, pkg.id);
    const t = Math.floor(Date.now() / 1000);
    const olderFailed = standIn.event(
      'invoice.payment_failed',
      standIn.invoice(subscriptionId, 'failed', t + 10),
      t + 10,
    );
    const newerPaid = standIn.event(
      'invoice.paid',
      standIn.invoice(subscriptionId, 'paid', t + 20),
      t + 20,
    );
    await deliverAll([newerPaid, olderFailed]);
    expect(await rowOf(agent.id)).toMatchObject({
      status: 'ACTIVE',
      lastInvoiceStatus: 'paid',
      lastInvoiceAmountCents: 12_300,
    });
    // an older subscription.updated saying past_due changes nothing either
    const subscription = structuredClone(standIn.subscriptions.get(subscriptionId));
    if (!subscription) throw new Error('no subscription');
    subscription.status = 'past_due';
    await deliverAll([standIn.event('customer.subscription.updated', subscription, t + 15)]);
    expect((await rowOf(agent.id))?.status).toBe('ACTIVE');
    // a newer one does
    await deliverAll([standIn.event('customer.subscription.updated', subscription, t + 30)]);
    expect((await rowOf(agent.id))?.status).toBe('PAST_DUE');
  });

  it('an invoice that arrives before Checkout completes is applied after asking Stripe for its subscription', async () => {
    const pkg = await insertPackage(ctx.database.db);
    const agent = await registerAgent(ctx.app);
    const { checkoutUrl } = (
      await agent.client.post('/api/agent/subscription', { packageId: pkg.id })
    ).json();
    const paid = standIn.pay(checkoutUrl.split('/').pop());
    const [completed, invoicePaid] = paid.events as [SignedEvent, SignedEvent];
    await deliverAll([invoicePaid, completed]);
    expect(await rowOf(agent.id)).toMatchObject({
      status: 'ACTIVE',
      statusSetBy: 'BILLING',
      stripeSubscriptionId: paid.subscriptionId,
      lastInvoiceStatus: 'paid',
    });
  });

  it('a subscription Stripe created but not yet paid (incomplete) changes nothing', async () => {
    const pkg = await insertPackage(ctx.database.db);
    const agent = await registerAgent(ctx.app);
    const { checkoutUrl } = (
      await agent.client.post('/api/agent/subscription', { packageId: pkg.id })
    ).json();
    const session = standIn.sessions.get(checkoutUrl.split('/').pop());
    if (!session) throw new Error('no session');
    const [item] = session.line_items as { price: string }[];
    const incomplete = standIn.createSubscription(
      session.customer as string,
      item?.price as string,
      { userId: String(agent.id), packageId: String(pkg.id) },
      'incomplete',
    );
    const res = await deliver(standIn.event('customer.subscription.created', incomplete));
    expect(res.json()).toEqual({ received: true, outcome: 'ignored' });
    expect(await rowOf(agent.id)).toBeUndefined();
    expect((await agent.client.get('/api/agent/billing')).json().state).toBe('AWAITING_CHECKOUT');

    // abandoned: Checkout expires (within the hour the session was opened for)
    expect(Number(session.expires_at)).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 3600);
    const expired = await deliver(
      standIn.event('checkout.session.expired', { ...session, status: 'expired' }),
    );
    expect(expired.json()).toEqual({ received: true, outcome: 'applied' });
    expect((await agent.client.get('/api/agent/billing')).json()).toMatchObject({
      state: 'NONE',
      pendingPackageId: null,
    });
  });

  it("a payment never lifts an admin's INACTIVE, and the agent cannot either", async () => {
    const pkg = await insertPackage(ctx.database.db);
    const agent = await registerAgent(ctx.app);
    const { subscriptionId } = await subscribeAndPay(agent, pkg.id);
    const admin = await loginAdmin(ctx);
    await admin.client.patch(`/api/admin/agents/${agent.id}/subscription`, {
      status: 'INACTIVE',
    });
    await deliverAll([standIn.event('invoice.paid', standIn.invoice(subscriptionId, 'paid'))]);
    expect(await rowOf(agent.id)).toMatchObject({ status: 'INACTIVE', statusSetBy: 'ADMIN' });
    const sessions = standIn.sessions.size;
    const again = await agent.client.post('/api/agent/subscription', { packageId: pkg.id });
    expect(again.json()).toMatchObject({ status: 'INACTIVE' });
    expect(standIn.sessions.size).toBe(sessions);
    expect((await agent.client.get('/api/agent/billing')).json().state).toBe('SUSPENDED');
  });
});

describe('Stripe unavailable', () => {
  it('answers 503 to the agent and to the webhook (which Stripe retries), changing nothing', async () => {
    const pkg = await insertPackage(ctx.database.db);
    const agent = await registerAgent(ctx.app);
    const { subscriptionId } = await subscribeAndPay(agent, pkg.id);
    const fresh = await registerAgent(ctx.app);
    // an invoice of a subscription we do not know yet needs Stripe to tell whose it is
    const unknown = standIn.createSubscription(
      standIn.customers.keys().next().value as string,
      (await rowOf(agent.id))?.stripePriceId as string,
    );
    const invoice = standIn.event('invoice.paid', standIn.invoice(unknown.id as string, 'paid'));
    standIn.failing = true;
    try {
      for (const res of [
        await fresh.client.post('/api/agent/subscription', { packageId: pkg.id }),
        await agent.client.post('/api/agent/billing/portal'),
        await agent.client.delete('/api/agent/subscription'),
        await deliver(invoice),
      ]) {
        expect(res.statusCode, res.body).toBe(503);
        // a 5xx names its request, for the operator's logs
        expect(res.json()).toEqual({
          message: 'Payments are unavailable right now: please try again in a moment',
          requestId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        });
      }
    } finally {
      standIn.failing = false;
    }
    expect(await rowOf(fresh.id)).toBeUndefined();
    expect(await rowOf(agent.id)).toMatchObject({
      status: 'ACTIVE',
      stripeSubscriptionId: subscriptionId,
    });
    expect(standIn.subscriptions.get(subscriptionId)?.status).toBe('active');
    const seen = await ctx.database.db
      .select()
      .from(billingEvents)
      .where(eq(billingEvents.id, invoice.id));
    expect(seen).toHaveLength(0);
  });
});

describe('prices kept in step with packages', () => {
  it('a price change makes a new price; existing subscribers keep theirs until they switch', async () => {
    const db = ctx.database.db;
    const pkg = await insertPackage(db, { priceMonthlyCents: 10_000 });
    const target = await insertPackage(db, { priceMonthlyCents: 20_000 });
    const early = await registerAgent(ctx.app, 'Early');
    await subscribeAndPay(early, pkg.id);
    const [before] = await db.select().from(packages).where(eq(packages.id, pkg.id));
    const oldPrice = before?.stripePriceId;
    expect(before).toMatchObject({ stripePriceCents: 10_000 });
    expect((await rowOf(early.id))?.stripePriceId).toBe(oldPrice);

    // a second subscriber at the same price reuses it
    const pricesBefore = standIn.prices.size;
    const same = await registerAgent(ctx.app);
    await subscribeAndPay(same, pkg.id);
    expect(standIn.prices.size).toBe(pricesBefore);

    const admin = await loginAdmin(ctx);
    const current = (await admin.client.get('/api/admin/packages'))
      .json()
      .find((p: { id: number }) => p.id === pkg.id);
    const { id: _id, ...body } = current;
    const edit = await admin.client.put(`/api/admin/packages/${pkg.id}`, {
      ...body,
      name: 'Renamed Gold',
      priceMonthlyCents: 15_000,
    });
    expect(edit.statusCode, edit.body).toBe(200);

    const late = await registerAgent(ctx.app, 'Late');
    await subscribeAndPay(late, pkg.id);
    const [after] = await db.select().from(packages).where(eq(packages.id, pkg.id));
    expect(after?.stripePriceId).not.toBe(oldPrice);
    expect(after).toMatchObject({
      stripePriceCents: 15_000,
      stripeProductId: before?.stripeProductId,
    });
    expect(standIn.prices.get(after?.stripePriceId as string)).toMatchObject({
      unit_amount: 15_000,
      product: before?.stripeProductId,
    });
    expect((await rowOf(late.id))?.stripePriceId).toBe(after?.stripePriceId);
    expect(standIn.products.get(before?.stripeProductId as string)?.name).toBe('Renamed Gold');
    // the early subscriber's Stripe subscription still bills the old price
    const earlySub = (await rowOf(early.id))?.stripeSubscriptionId;
    expect(billedPrice(earlySub)).toBe(oldPrice);
    expect((await rowOf(early.id))?.stripePriceId).toBe(oldPrice);

    // switching moves the live subscription to the other package's current price: no Checkout
    const sessions = standIn.sessions.size;
    const switched = await early.client.post('/api/agent/subscription', { packageId: target.id });
    expect(switched.json()).toMatchObject({ status: 'ACTIVE', packageId: target.id });
    expect(standIn.sessions.size).toBe(sessions);
    const [targetRow] = await db.select().from(packages).where(eq(packages.id, target.id));
    expect(billedPrice(earlySub)).toBe(targetRow?.stripePriceId);
    expect((await rowOf(early.id))?.stripePriceId).toBe(targetRow?.stripePriceId);
  });

  it('cancelling cancels the Stripe subscription too', async () => {
    const pkg = await insertPackage(ctx.database.db);
    const agent = await registerAgent(ctx.app);
    const { subscriptionId } = await subscribeAndPay(agent, pkg.id);
    const res = await agent.client.delete('/api/agent/subscription');
    expect(res.json()).toMatchObject({ status: 'CANCELED' });
    expect(standIn.subscriptions.get(subscriptionId)?.status).toBe('canceled');
  });
});

describe('switching packages with Stripe: paid before it holds', () => {
  /** An agent paying for 5 leads a day (100.00 a month); a package of 15 (300.00) beside it. */
  async function paidOnSmallPackage() {
    const small = await insertPackage(ctx.database.db, {
      priceMonthlyCents: 10_000,
      leadsPerDay: 5,
    });
    const big = await insertPackage(ctx.database.db, {
      priceMonthlyCents: 30_000,
      leadsPerDay: 15,
    });
    const agent = await registerAgent(ctx.app);
    const { subscriptionId } = await subscribeAndPay(agent, small.id);
    return { small, big, agent, subscriptionId };
  }

  const customerOf = (subscriptionId: string) =>
    standIn.subscriptions.get(subscriptionId)?.customer as string;

  it('a bigger package holds only once its invoice is paid: with a declined card the package stays until the invoice page is paid', async () => {
    const { small, big, agent, subscriptionId } = await paidOnSmallPackage();
    standIn.declining.add(customerOf(subscriptionId));
    standIn.outbox.length = 0;

    const res = await agent.client.post('/api/agent/subscription', { packageId: big.id });
    expect(res.statusCode, res.body).toBe(200);
    const { checkoutUrl } = res.json() as { checkoutUrl: string };
    expect(checkoutUrl).toMatch(/\/invoices\/in_/);
    const mine = () => rowOf(agent.id);
    expect(await mine()).toMatchObject({ status: 'ACTIVE', packageId: small.id });
    // Stripe's own word: the failed invoice of the switch; no status changes, the package stays
    await deliverAll(standIn.outbox.splice(0));
    expect(await mine()).toMatchObject({ status: 'ACTIVE', packageId: small.id });
    expect(await rowOf(agent.id)).toMatchObject({ lastInvoiceStatus: 'failed' });
    expect(billedPrice(subscriptionId)).toBe((await rowOf(agent.id))?.stripePriceId);

    // the agent pays the invoice on its page: the switch holds
    await deliverAll(standIn.payInvoice(checkoutUrl.split('/').pop() as string));
    expect(await mine()).toMatchObject({ status: 'ACTIVE', packageId: big.id });
    expect(standIn.paidFor(subscriptionId)).toBeGreaterThan(10_000 + 19_000);
  });

  it('with a card that pays, the difference is invoiced at once and the switch holds', async () => {
    const { big, agent, subscriptionId } = await paidOnSmallPackage();
    const res = await agent.client.post('/api/agent/subscription', { packageId: big.id });
    expect(res.json()).toMatchObject({ status: 'ACTIVE', packageId: big.id });
    const update = standIn.calls.findLast((c) => c.path === `/v1/subscriptions/${subscriptionId}`);
    expect(update?.body).toMatchObject({
      proration_behavior: 'always_invoice',
      payment_behavior: 'pending_if_incomplete',
    });
    // a month of the small package, and about 200.00 for the rest of this month on the big one
    expect(standIn.paidFor(subscriptionId)).toBeGreaterThan(10_000 + 19_000);
  });

  it('cancelling after a switch still collects what is owed, and ends the Stripe subscription', async () => {
    const { big, agent, subscriptionId } = await paidOnSmallPackage();
    await agent.client.post('/api/agent/subscription', { packageId: big.id });
    const cancelled = await agent.client.delete('/api/agent/subscription');
    expect(cancelled.json()).toMatchObject({ status: 'CANCELED' });
    const call = standIn.calls.findLast(
      (c) => c.method === 'DELETE' && c.path === `/v1/subscriptions/${subscriptionId}`,
    );
    expect(call?.body).toMatchObject({ invoice_now: 'true', prorate: 'false' });
    expect(standIn.subscriptions.get(subscriptionId)?.status).toBe('canceled');
    // nothing owed was dropped: the month on the small package and the switch's difference
    expect(standIn.paidFor(subscriptionId)).toBeGreaterThan(10_000 + 19_000);
  });
});

describe('Stripe events of the same second', () => {
  it("apply by the subscription's own state, whatever order they are delivered in", async () => {
    const pkg = await insertPackage(ctx.database.db);
    const agent = await registerAgent(ctx.app);
    const { subscriptionId } = await subscribeAndPay(agent, pkg.id);
    const t = Math.floor(Date.now() / 1000) + 100;
    const subscription = structuredClone(standIn.subscriptions.get(subscriptionId));
    if (!subscription) throw new Error('no subscription');
    const pastDue = standIn.event(
      'customer.subscription.updated',
      { ...subscription, status: 'past_due' },
      t,
    );
    const deleted = standIn.event(
      'customer.subscription.deleted',
      { ...subscription, status: 'canceled' },
      t,
    );
    await deliverAll([deleted, pastDue]);
    expect((await rowOf(agent.id))?.status).toBe('CANCELED');

    // a payment of the next period and a failure of this one, in one second, newest first
    const other = await registerAgent(ctx.app);
    const second = await subscribeAndPay(other, pkg.id);
    const failed = standIn.invoice(second.subscriptionId, 'failed', t);
    const paid = standIn.invoice(second.subscriptionId, 'paid', t);
    const period = (paid.lines as { data: { period: { end: number } }[] }).data[0]?.period;
    if (period) period.end += 30 * 24 * 60 * 60;
    await deliverAll([
      standIn.event('invoice.paid', paid, t),
      standIn.event('invoice.payment_failed', failed, t),
    ]);
    expect(await rowOf(other.id)).toMatchObject({ status: 'ACTIVE' });
  });
});
