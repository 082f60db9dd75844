/**
 * The wallet's money through Stripe (docs/domain.md, The wallet), with the official SDK against
 * the stand-in and its events signed as Stripe signs them: a top-up through Checkout in payment
 * mode credited once (replayed and out of order), the card it saved charged off session by
 * auto-recharge, a declined card turning auto-recharge off, and a refund that never takes the
 * balance below zero.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AppConfig } from '../src/server/config/env';
import { queryRows } from '../src/server/db/client';
import { type Billing, createBilling } from '../src/server/modules/billing/billing.service';
import { type SignedEvent, StripeStandIn } from './support/stripe-stand-in';
import { registerAgent, setupTestApp } from './support/test-app';

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
const db = () => ctx.database.db;

beforeEach(() => {
  standIn.outbox.length = 0;
  standIn.declining.clear();
});

async function deliver(event: SignedEvent) {
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/billing/stripe/webhook',
    headers: { 'content-type': 'application/json', 'stripe-signature': event.header },
    payload: event.payload,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().outcome as string;
}

type Agent = Awaited<ReturnType<typeof registerAgent>>;

/** A top-up of `cents` started by the agent and paid on the stand-in's Checkout page. */
async function topUp(agent: Agent, cents: number) {
  const started = await agent.client.post('/api/agent/wallet/top-up', { amountCents: cents });
  expect(started.statusCode, started.body).toBe(200);
  const url = new URL(started.json().checkoutUrl);
  const session = standIn.sessions.get(url.pathname.split('/').pop() as string);
  expect(session).toMatchObject({
    mode: 'payment',
    success_url: 'https://portal.example.com/dashboard/wallet?top-up=success',
    payment_intent_data: { setup_future_usage: 'off_session' },
  });
  return standIn.pay(session?.id as string).events;
}

const walletOf = async (agent: Agent) => (await agent.client.get('/api/agent/wallet')).json();
/** Billing as a worker process builds it: its auto-recharge sweep is what these tests call. */
let made: Billing | null = null;
const billing = () => {
  made ??= createBilling(db(), ctx.app.config);
  return made;
};

async function customerOf(agentId: number): Promise<string> {
  const [row] = await queryRows<{ id: string }>(
    db(),
    sql`select stripe_customer_id as id from billing_customers where user_id = ${agentId}`,
  );
  return row.id;
}

describe('top-up', () => {
  it('credits a paid Checkout once, however often and in whatever order its events come', async () => {
    const agent = await registerAgent(ctx.app, 'Tina Topup');
    const [completed, succeeded] = await topUp(agent, 5000);
    // the PaymentIntent's event first, then Checkout's, then both again
    expect(await deliver(succeeded)).toBe('applied');
    expect(await deliver(completed)).toBe('applied');
    expect(await deliver(succeeded)).toBe('duplicate');
    expect(await deliver(completed)).toBe('duplicate');
    const wallet = await walletOf(agent);
    expect(wallet.balanceCents).toBe(5000);
    expect(wallet.entries).toHaveLength(1);
    expect(wallet.entries[0]).toMatchObject({ kind: 'TOP_UP', amountCents: 5000 });
    expect(wallet).toMatchObject({ canTopUp: true, cardSaved: true });
  });

  it('refuses a top-up below $1 or above $10,000, and a forged event', async () => {
    const agent = await registerAgent(ctx.app);
    for (const amountCents of [50, 1_000_001, 12.5]) {
      const res = await agent.client.post('/api/agent/wallet/top-up', { amountCents });
      expect(res.statusCode).toBe(400);
    }
    const [completed] = await topUp(agent, 2000);
    const forged = await ctx.app.inject({
      method: 'POST',
      url: '/api/billing/stripe/webhook',
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=forged' },
      payload: completed.payload,
    });
    expect(forged.statusCode).toBe(400);
    expect((await walletOf(agent)).balanceCents).toBe(0);
  });
});

describe('a pay-per-lead package', () => {
  it('starts at once, without Checkout: its leads are paid from the wallet', async () => {
    const agent = await registerAgent(ctx.app, 'Paul Perlead');
    const [pkg] = await queryRows<{ id: number }>(
      db(),
      sql`insert into packages (slug, name, category, price_monthly_cents, leads_per_day,
                                commission_pct, pricing, per_lead_cents)
          values ('ppl-' || ${agent.id}, 'Final Expense by the lead', 'FINAL_EXPENSE', 0, 20, 0,
                  'PER_LEAD', 1800)
          returning id`,
    );
    const calls = standIn.calls.length;
    const res = await agent.client.post('/api/agent/subscription', { packageId: pkg.id });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'ACTIVE' });
    expect(standIn.calls.slice(calls).filter((c) => c.path === '/v1/checkout/sessions')).toEqual(
      [],
    );
    const wallet = await walletOf(agent);
    expect(wallet).toMatchObject({
      payPerLead: true,
      priceRange: { lowestCents: 1800, highestCents: 1800 },
    });
  });
});

describe('auto-recharge', () => {
  it('charges the saved card off session below the threshold, once', async () => {
    const agent = await registerAgent(ctx.app, 'Otto Recharge');
    // no card yet: refused
    const early = await agent.client.put('/api/agent/wallet/auto-recharge', {
      enabled: true,
      belowCents: 2000,
      amountCents: 5000,
    });
    expect(early.statusCode).toBe(409);
    for (const event of await topUp(agent, 1500)) await deliver(event);
    const on = await agent.client.put('/api/agent/wallet/auto-recharge', {
      enabled: true,
      belowCents: 2000,
      amountCents: 5000,
    });
    expect(on.statusCode, on.body).toBe(200);
    // two sweeps at once (two processes): one charge
    const [a, b] = await Promise.all([
      billing()?.wallet.rechargeDue(),
      billing()?.wallet.rechargeDue(),
    ]);
    expect((a ?? 0) + (b ?? 0)).toBe(1);
    const intents = standIn.calls.filter((c) => c.path === '/v1/payment_intents');
    expect(intents.at(-1)?.body).toMatchObject({
      amount: '5000',
      off_session: 'true',
      confirm: 'true',
      customer: await customerOf(agent.id),
    });
    // Stripe's own event of the same payment changes nothing more
    for (const event of standIn.outbox) expect(await deliver(event)).toBe('applied');
    const wallet = await walletOf(agent);
    expect(wallet.balanceCents).toBe(6500);
    expect(wallet.entries[0]).toMatchObject({
      kind: 'TOP_UP',
      amountCents: 5000,
      note: 'Auto-recharge',
    });
    // above the threshold now: nothing to do
    expect(await billing()?.wallet.rechargeDue()).toBe(0);
  });

  it('a declined card turns auto-recharge off and takes nothing', async () => {
    const agent = await registerAgent(ctx.app, 'Dee Declined');
    for (const event of await topUp(agent, 1000)) await deliver(event);
    await agent.client.put('/api/agent/wallet/auto-recharge', {
      enabled: true,
      belowCents: 2000,
      amountCents: 3000,
    });
    standIn.declining.add(await customerOf(agent.id));
    expect(await billing()?.wallet.rechargeDue()).toBe(0);
    const wallet = await walletOf(agent);
    expect(wallet.balanceCents).toBe(1000);
    expect(wallet.autoRecharge.enabled).toBe(false);
  });
});

describe('refunds', () => {
  it('a refund takes its amount back, never more than the balance', async () => {
    const agent = await registerAgent(ctx.app, 'Rhea Refund');
    const [completed, succeeded] = await topUp(agent, 4000);
    await deliver(completed);
    await deliver(succeeded);
    const intent = JSON.parse(succeeded.payload).data.object.id as string;
    // $30 of it already spent
    await db().execute(sql`update wallets set balance_cents = 1000 where user_id = ${agent.id}`);
    const refunded = standIn.refund(intent);
    expect(await deliver(refunded)).toBe('applied');
    expect(await deliver(refunded)).toBe('duplicate');
    const wallet = await walletOf(agent);
    expect(wallet.balanceCents).toBe(0);
    expect(wallet.entries[0]).toMatchObject({ kind: 'REFUND', amountCents: -1000 });
    expect(wallet.entries[0].note).toMatch(/\$30\.00 had already paid for leads/);
  });
});
