/**
 * Pay per lead in the browser (docs/domain.md, Pay per lead; The wallet): an agent on a
 * pay-per-lead package tops up through Stripe Checkout (the stand-in of Stripe's API: its
 * Checkout page pays, sends the signed webhooks and sends the browser back), receives a lead
 * only inside their schedule, sees its charge in the Wallet, returns it from the lead's drawer
 * and, once an admin approves, sees the credit (and the replacement's charge). The shared e2e server has no Stripe, so this
 * spec starts its own (E2E_PORT + 41, its own PGlite folder). Screenshots of the Wallet at 1280
 * and 375 px go to .tmp/screenshots/.
 */
import { mkdirSync } from 'node:fs';
import { type APIRequestContext, expect, request, test } from '@playwright/test';
import { StripeStandIn } from '../test/support/stripe-stand-in';
import { uniquePhone } from './lead-contact';
import { OwnServer } from './own-server';
import { E2E_ADMIN, loginThroughUi, uniqueEmail } from './support';

const PORT = Number(process.env.E2E_PORT ?? 3100) + 41;
const SHOTS = '.tmp/screenshots';

const standIn = new StripeStandIn();
const server = new OwnServer('wallet', PORT);
const BASE = server.base;

test.use({ baseURL: BASE });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  const apiBase = await standIn.start();
  standIn.webhookUrl = `${BASE}/api/billing/stripe/webhook`;
  mkdirSync(SHOTS, { recursive: true });
  await server.start({
    STRIPE_SECRET_KEY: 'sk_test_e2e',
    STRIPE_WEBHOOK_SECRET: standIn.webhookSecret,
    STRIPE_API_BASE: apiBase,
  });
});

test.afterAll(async () => {
  await server.stop();
  await standIn.stop();
});

const ALL_DAY = { start: '00:00', end: '24:00' };
const NO_DAYS = { mon: null, tue: null, wed: null, thu: null, fri: null, sat: null, sun: null };
const EVERY_DAY = {
  mon: ALL_DAY,
  tue: ALL_DAY,
  wed: ALL_DAY,
  thu: ALL_DAY,
  fri: ALL_DAY,
  sat: ALL_DAY,
  sun: ALL_DAY,
};

/** A vendor's post of one Medicare lead; answers the intake's {id, status}. */
async function postLead(vendor: APIRequestContext, key: string, firstName: string) {
  const res = await vendor.post('/api/v1/leads', {
    headers: { authorization: `Bearer ${key}` },
    data: {
      firstName,
      lastName: 'Wallet',
      phone: uniquePhone(),
      city: 'Austin',
      state: 'TX',
      zip: '78701',
      age: 68,
      category: 'MEDICARE',
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as { id: number; status: string };
}

test('a pay-per-lead agent tops up by card, gets a lead inside their schedule only, sees its charge, returns it and sees the credit', async ({
  page,
}) => {
  const admin = await request.newContext({ baseURL: BASE });
  expect((await admin.post('/api/auth/login', { data: E2E_ADMIN })).status()).toBe(200);
  const created = await admin.post('/api/admin/packages', {
    data: {
      name: 'Medicare by the Lead',
      slug: `medicare-by-the-lead-${Date.now()}`,
      priceMonthlyCents: 0,
      leadsPerDay: 20,
      commissionPct: 0,
      category: 'MEDICARE',
      enrollmentOnly: false,
      services: { crm: true, callRecording: false, followUpMessage: false },
      active: true,
      pricing: 'PER_LEAD',
      perLeadCents: 1250,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const pkg = (await created.json()) as { id: number };
  const source = await admin.post('/api/admin/sources', {
    data: { name: `Wallet vendor ${Date.now()}`, costPerLeadCents: 400 },
  });
  const key = (
    await (await admin.post(`/api/admin/sources/${(await source.json()).id}/keys`)).json()
  ).key as string;
  const vendor = await request.newContext({ baseURL: BASE });

  // the agent subscribes (a pay-per-lead package starts at once) and takes leads on no day yet
  const email = uniqueEmail('wallet');
  const register = await page.request.post('/api/auth/register', {
    data: { name: 'Wanda Wallet', email, password: 'secret123' },
  });
  expect(register.status()).toBe(201);
  await loginThroughUi(page, email, 'secret123', /\/dashboard$/);
  const subscribed = await page.request.post('/api/agent/subscription', {
    data: { packageId: pkg.id },
  });
  expect(subscribed.ok(), await subscribed.text()).toBe(true);
  await page.request.put('/api/agent/schedule', { data: { timeZone: 'UTC', days: NO_DAYS } });

  // the Wallet: nothing yet; top up $50 on Stripe's page and come back to it
  await page.getByRole('link', { name: 'Wallet' }).first().click();
  await expect(page).toHaveURL(`${BASE}/dashboard/wallet`);
  await expect(page.getByTestId('wallet-balance')).toContainText('$0.00');
  const topUp = page.getByTestId('top-up-card');
  await topUp.getByRole('button', { name: '$50', exact: true }).click();
  await topUp.getByRole('button', { name: 'Top up $50' }).click();
  await expect(page).toHaveURL(`${BASE}/dashboard/wallet?top-up=success`);
  await expect(page.getByTestId('wallet-balance')).toContainText('$50.00');
  await expect(page.getByRole('row', { name: /Top-up/ })).toContainText('+$50.00');

  // outside the schedule the lead waits; inside it, it is the agent's and is charged
  const outside = await postLead(vendor, key, 'Olive');
  expect(outside.status).toBe('NEW');
  await page.request.put('/api/agent/schedule', { data: { timeZone: 'UTC', days: EVERY_DAY } });
  const inside = await postLead(vendor, key, 'Ines');
  expect(inside.status).toBe('ASSIGNED');

  await page.reload();
  await expect(page.getByTestId('wallet-balance')).toContainText('$37.50');
  const charge = page.getByRole('row', { name: /Ines Wallet/ });
  await expect(charge).toContainText('−$12.50');
  await expect(page.getByText('Olive Wallet')).toHaveCount(0);
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: width === 1280 ? 900 : 812 });
    await page.screenshot({ path: `${SHOTS}/wallet-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });

  // the agent returns it from the lead's drawer; an admin approves; the price comes back
  await page.goto('/dashboard/leads');
  const row = page.getByTestId('lead-row').filter({ hasText: 'Ines Wallet' });
  await row.getByRole('button', { name: /Update Status/ }).click();
  const section = page.getByTestId('update-status-drawer').getByTestId('lead-return');
  await section.getByRole('button', { name: 'Return this lead' }).click();
  await section.getByLabel('Reason').click();
  await page.getByRole('option', { name: 'Wrong number' }).click();
  await section.getByRole('button', { name: 'Request return' }).click();
  await expect(section.getByTestId('lead-return-state')).toContainText('Return requested');
  const pending = (await (await admin.get('/api/admin/returns?status=PENDING')).json()) as {
    items: { id: number; leadId: number }[];
  };
  const asked = pending.items.find((r) => r.leadId === inside.id);
  expect(asked).toBeDefined();
  const decided = await admin.post(`/api/admin/returns/${asked?.id}/decision`, {
    data: { approve: true },
  });
  expect(decided.status(), await decided.text()).toBe(200);

  // the price comes back, and the return's run gives the agent the lead that waited (now inside
  // the schedule) as its replacement, charged in turn
  await page.goto('/dashboard/wallet');
  await expect(page.getByRole('row', { name: /Return credit/ })).toContainText('+$12.50');
  await expect(page.getByRole('row', { name: /Olive Wallet/ })).toContainText('−$12.50');
  await expect(page.getByTestId('wallet-balance')).toContainText('$37.50');
});
