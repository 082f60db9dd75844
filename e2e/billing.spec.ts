/**
 * Stripe Billing in the browser (docs/domain.md, Billing): choosing a package, Stripe Checkout (a stand-in of
 * Stripe's API whose Checkout page "pays": it sends the signed checkout.session.completed and
 * invoice.paid webhooks to the app and redirects to the success URL), and back to an ACTIVE
 * dashboard; then a failed payment. The shared e2e server has no Stripe, so this spec starts its
 * own server (E2E_PORT + 17, its own PGlite folder) with Stripe's settings pointing at the
 * stand-in. Screenshots of the package screen (ACTIVE, PAST_DUE) and the admin's Agents screen
 * at 1280 and 375 px go to .tmp/screenshots/.
 */
import { mkdirSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, request, test } from '@playwright/test';
import { StripeStandIn } from '../test/support/stripe-stand-in';
import { OwnServer } from './own-server';
import { E2E_ADMIN, loginThroughUi, uniqueEmail } from './support';

const PORT = Number(process.env.E2E_PORT ?? 3100) + 17;
const SHOTS = '.tmp/screenshots';

const standIn = new StripeStandIn();
const server = new OwnServer('billing', PORT);
const BASE = server.base;

test.use({ baseURL: BASE });
test.describe.configure({ mode: 'serial' });

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

/** Screenshots at 1280 and 375 px, each width checked by axe (no serious or critical issue). */
async function shoot(page: Page, name: string) {
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: width === 1280 ? 900 : 812 });
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.waitForFunction(() =>
      document.getAnimations().every((a) => a.playState !== 'running'),
    );
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true });
    const results = await new AxeBuilder({ page })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
      .analyze();
    const bad = results.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    expect(bad, `${name} at ${width} px`).toEqual([]);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

test('choosing a package goes through Stripe Checkout and comes back to an ACTIVE dashboard; a failed payment asks for a new card', async ({
  page,
  browser,
}) => {
  const admin = await request.newContext({ baseURL: BASE });
  expect((await admin.post('/api/auth/login', { data: E2E_ADMIN })).status()).toBe(200);
  const slug = `billing-gold-${Date.now()}`;
  const created = await admin.post('/api/admin/packages', {
    data: {
      name: 'Billing Gold',
      slug,
      priceMonthlyCents: 49_900,
      leadsPerDay: 5,
      commissionPct: 20,
      category: 'MEDICARE',
      enrollmentOnly: false,
      services: { crm: true, callRecording: true, followUpMessage: false },
      active: true,
    },
  });
  expect(created.status(), await created.text()).toBe(201);

  const email = uniqueEmail('billing');
  const register = await page.request.post('/api/auth/register', {
    data: { name: 'Paying Agent', email, password: 'secret123' },
  });
  expect(register.status()).toBe(201);
  await loginThroughUi(page, email, 'secret123', /\/dashboard$/);

  await page.goto('/dashboard/package');
  await expect(page.getByText('You pay monthly by card through Stripe')).toBeVisible();
  await page.getByRole('button', { name: 'Subscribe: Billing Gold' }).click();
  const dialog = page.getByTestId('confirm-subscription');
  await expect(dialog).toContainText('Billing Gold');
  await dialog.getByRole('button', { name: 'Continue to Payment' }).click();

  // Stripe's (stand-in) Checkout page pays, sends the webhooks and sends the browser back
  await expect(page).toHaveURL(`${BASE}/dashboard/package?checkout=success`);
  await expect(page.getByTestId('checkout-confirmed')).toContainText(
    'Payment received: your package is active',
  );
  await expect(page.getByTestId('billing-active')).toContainText('renews on');
  await expect(page.getByTestId('billing-active')).toContainText('$499.00 paid');
  await expect(page.getByRole('button', { name: 'Manage billing' })).toBeVisible();
  await shoot(page, 'package-active');

  await page.getByRole('link', { name: 'Go to Dashboard' }).click();
  await expect(page).toHaveURL(`${BASE}/dashboard`);
  await expect(page.getByTestId('subscription-status').first()).toHaveAttribute(
    'data-status',
    'ACTIVE',
  );
  await expect(page.getByTestId('choose-package-callout')).toHaveCount(0);

  // the admin's Agents screen shows the billing state and the last invoice
  const adminContext = await browser.newContext({ baseURL: BASE });
  const adminPage = await adminContext.newPage();
  await loginThroughUi(adminPage, E2E_ADMIN.email, E2E_ADMIN.password, /\/admin$/);
  await adminPage.goto('/admin/agents');
  const row = adminPage.getByTestId('agent-row').filter({ hasText: 'Paying Agent' });
  await expect(row.getByTestId('agent-billing')).toContainText('$499.00 paid');
  await expect(row.getByTestId('agent-billing')).toContainText('renews');
  await shoot(adminPage, 'admin-agents-active');

  // a renewal fails: PAST_DUE, and the package screen says what to do
  const [subscriptionId] = [...standIn.subscriptions.keys()];
  const failed = standIn.event(
    'invoice.payment_failed',
    standIn.invoice(subscriptionId as string, 'failed'),
  );
  const delivered = await fetch(standIn.webhookUrl as string, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'stripe-signature': failed.header },
    body: failed.payload,
  });
  expect(delivered.status).toBe(200);
  // a wrong signature is refused
  const forged = await fetch(standIn.webhookUrl as string, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=00' },
    body: failed.payload,
  });
  expect(forged.status).toBe(400);

  await page.goto('/dashboard/package');
  const pastDue = page.getByTestId('billing-past-due');
  await expect(pastDue).toContainText('Your last payment failed: update your card');
  await expect(pastDue).toContainText('$499.00 failed');
  await expect(page.getByTestId('current-subscription')).toContainText('Past due');
  await shoot(page, 'package-past-due');

  // ...and the failed invoice, without a renewal date while it is past due
  await adminPage.reload();
  await expect(row.getByTestId('agent-billing')).toContainText('$499.00 failed');
  await expect(row.getByTestId('agent-billing')).not.toContainText('renews');
  await expect(row.getByTestId('subscription-status')).toHaveAttribute('data-status', 'PAST_DUE');
  await shoot(adminPage, 'admin-agents-past-due');
  await adminContext.close();

  // "Update card" opens Stripe's customer portal
  await pastDue.getByRole('button', { name: 'Update card' }).click();
  await expect(page.getByRole('heading', { name: 'Billing portal' })).toBeVisible();
  await admin.dispose();
});

test.describe('without Stripe (the shared e2e server)', () => {
  test.use({ baseURL: `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 3100)}` });

  test('the package screen is as before: no billing notice, the same description', async ({
    page,
  }) => {
    const email = uniqueEmail('nostripe');
    const register = await page.request.post('/api/auth/register', {
      data: { name: 'Plain Agent', email, password: 'secret123' },
    });
    expect(register.status()).toBe(201);
    await loginThroughUi(page, email, 'secret123', /\/dashboard$/);
    await page.goto('/dashboard/package');
    await expect(
      page.getByText(
        'Choose the package that fits your business. Subscribing activates it at once.',
      ),
    ).toBeVisible();
    const billingAnswer = await page.request.get('/api/agent/billing');
    expect((await billingAnswer.json()).state).toBe('OFF');
    await expect(page.locator('[data-testid^="billing-"]')).toHaveCount(0);
    await page.screenshot({ path: `${SHOTS}/package-no-stripe-1280.png`, fullPage: true });
  });
});
