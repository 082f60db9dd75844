/**
 * Accounts in the browser (docs/domain.md, Accounts): "Forgot password?" through a real SMTP
 * receiver to a new login; REGISTRATION=approval: the register screen says an admin approves,
 * a new agent sees only "Waiting for approval" until an admin approves them on the agents screen;
 * the admin's Reset link; Change password on the Account page; the new-lead email's link, opened
 * signed out, logs in on the way and opens the lead's drawer. The shared e2e server has no SMTP
 * and opens registration to all, so this spec starts its own (E2E_PORT + 31). Screenshots of each
 * screen at 1280 and 375 px go to .tmp/screenshots/, each checked by axe.
 */
import { mkdirSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, request, test } from '@playwright/test';
import { SmtpReceiver } from '../test/support/smtp-receiver';
import { seedLeadsForAgent, uniqueTag } from './agent-fixtures';
import { OwnServer } from './own-server';
import { E2E_ADMIN, loginThroughUi, uniqueEmail } from './support';

const PORT = Number(process.env.E2E_PORT ?? 3100) + 31;
const SHOTS = '.tmp/screenshots';

const smtp = new SmtpReceiver();
const server = new OwnServer('auth', PORT);
const BASE = server.base;

test.use({ baseURL: BASE });
test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  mkdirSync(SHOTS, { recursive: true });
  const smtpUrl = await smtp.start();
  await server.start({ SMTP_URL: smtpUrl, REGISTRATION: 'approval' });
});

test.afterAll(async () => {
  await server.stop();
  await smtp.stop();
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

const PASSWORD = 'plum-tree-41';

async function registerThroughUi(page: Page, name: string, email: string) {
  await page.goto('/register');
  await expect(page.getByText('Join LeadFlow. An admin will approve your account')).toBeVisible();
  await page.getByLabel('Full Name').fill(name);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page).toHaveURL(/\/login$/);
}

test('a new agent waits for approval, an admin approves them, and they reach the dashboard', async ({
  page,
  browser,
}) => {
  const email = uniqueEmail('waiting');
  await page.goto('/register');
  await expect(page.getByText('Join LeadFlow. An admin will approve your account')).toBeVisible();
  await shoot(page, 'auth-register-approval');
  await registerThroughUi(page, 'Wendy Waiting', email);
  await loginThroughUi(page, email, PASSWORD, /\/dashboard$/);
  await expect(page.getByRole('heading', { name: 'Waiting for approval' })).toBeVisible();
  await shoot(page, 'auth-waiting-for-approval');

  const adminContext = await browser.newContext({ baseURL: BASE });
  const adminPage = await adminContext.newPage();
  await loginThroughUi(adminPage, E2E_ADMIN.email, E2E_ADMIN.password, /\/admin$/);
  await adminPage.goto('/admin/agents');
  await adminPage.getByRole('button', { name: /Waiting for approval/ }).click();
  const row = adminPage.getByTestId('agent-row').filter({ hasText: 'Wendy Waiting' });
  await expect(row.getByRole('button', { name: 'Approve' })).toBeVisible();
  await shoot(adminPage, 'auth-admin-agents-waiting');
  await row.getByRole('button', { name: 'Approve' }).click();
  await expect(adminPage.getByText('Agent approved').first()).toBeVisible();

  await page.reload();
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  await adminContext.close();
});

test('forgot password: the emailed link sets a new password, which signs in', async ({ page }) => {
  const email = uniqueEmail('forgot');
  await registerThroughUi(page, 'Fran Forgot', email);

  await page.goto('/login');
  await shoot(page, 'auth-login');
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  await shoot(page, 'auth-forgot-password');
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Send Reset Link' }).click();
  await expect(
    page.getByText('If an account exists for this email, we sent a link to reset the password.'),
  ).toBeVisible();
  await shoot(page, 'auth-forgot-password-sent');

  await expect.poll(() => smtp.inbox.some((m) => m.to.includes(email))).toBe(true);
  const mail = smtp.inbox.find((m) => m.to.includes(email));
  const link = mail?.mail.text?.match(/http\S+reset-password\?token=\S+/)?.[0] ?? '';
  expect(link.startsWith(`${BASE}/reset-password?token=`)).toBe(true);

  await page.goto(link);
  await page.getByLabel('New Password').fill('fresh-lime-tree-7');
  await page.getByLabel('Confirm Password').fill('not-the-same-7');
  await page.getByRole('button', { name: 'Set Password' }).click();
  await expect(
    page.getByTestId('toast-viewport').getByText('Passwords do not match'),
  ).toBeVisible();
  await shoot(page, 'auth-reset-password');
  await page.getByLabel('Confirm Password').fill('fresh-lime-tree-7');
  await page.getByRole('button', { name: 'Set Password' }).click();
  await expect(page).toHaveURL(/\/login$/);

  // the agent is PENDING here (REGISTRATION=approval): the login itself is what is shown
  await loginThroughUi(page, email, 'fresh-lime-tree-7', /\/dashboard$/);
  await expect(page.getByRole('heading', { name: 'Waiting for approval' })).toBeVisible();
});

test('an admin hands over a reset link, and changes their own password on the Account page', async ({
  page,
}) => {
  const email = uniqueEmail('handed');
  await registerThroughUi(page, 'Hank Handed', email);
  // approved, so the row offers the reset link (a PENDING row offers Approve / Refuse)
  const admin = await request.newContext({ baseURL: BASE });
  expect((await admin.post('/api/auth/login', { data: E2E_ADMIN })).status()).toBe(200);
  const pending = (await (await admin.get('/api/admin/agents?approval=PENDING')).json()) as {
    id: number;
    email: string;
  }[];
  const hank = pending.find((a) => a.email === email);
  expect(
    (
      await admin.post(`/api/admin/agents/${hank?.id}/approval`, { data: { approve: true } })
    ).status(),
  ).toBe(200);
  await loginThroughUi(page, E2E_ADMIN.email, E2E_ADMIN.password, /\/admin$/);
  await page.goto('/admin/agents');
  const row = page.getByTestId('agent-row').filter({ hasText: 'Hank Handed' });
  await row.getByRole('button', { name: 'Reset link for Hank Handed' }).click();
  await expect(page.getByTestId('account-link')).toHaveValue(
    new RegExp(`^${BASE}/reset-password\\?token=[\\w-]{43}$`),
  );
  await shoot(page, 'auth-admin-reset-link');
  await page.keyboard.press('Escape');

  await page.getByRole('link', { name: 'Account' }).click();
  await expect(page).toHaveURL(/\/account$/);
  await shoot(page, 'auth-account');
  await page.getByLabel('Current Password').fill(E2E_ADMIN.password);
  await page.getByLabel('New Password').fill(E2E_ADMIN.password);
  await page.getByLabel('Confirm Password').fill(E2E_ADMIN.password);
  await page.getByRole('button', { name: 'Change Password' }).click();
  await expect(
    page.getByTestId('toast-viewport').getByText('Your other sessions were signed out'),
  ).toBeVisible();
});

test("the new-lead email's link opens the lead's drawer for its agent", async ({ page }) => {
  const tag = uniqueTag('mail');
  const email = uniqueEmail('mailed');
  const admin = await request.newContext({ baseURL: BASE });
  expect((await admin.post('/api/auth/login', { data: E2E_ADMIN })).status()).toBe(200);
  const registered = await admin.post('/api/auth/register', {
    data: { name: 'Mae Mailed', email, password: PASSWORD },
  });
  expect(registered.status(), await registered.text()).toBe(201);
  const agentId = (await registered.json()).user.id as number;
  expect(
    (
      await admin.post(`/api/admin/agents/${agentId}/approval`, { data: { approve: true } })
    ).status(),
  ).toBe(200);
  const ids = await seedLeadsForAgent(admin, agentId, tag, [
    {
      firstName: 'Ellis',
      lastName: `Inbox${tag}`,
      phone: '+16145550142',
      email: `${tag}@e2e.test`,
      city: 'Columbus',
      state: 'OH',
      age: 67,
    },
  ]);
  const leadId = ids.get(`${tag}@e2e.test`);

  // the email the agent received for the lead, and its "Open the lead" link
  await expect
    .poll(() => smtp.inbox.some((m) => m.to.includes(email) && m.mail.text?.includes(tag)), {
      timeout: 30_000,
    })
    .toBe(true);
  const mail = smtp.inbox.find((m) => m.to.includes(email) && m.mail.text?.includes(tag));
  const link = mail?.mail.text?.match(/http\S+\/dashboard\/leads\?lead=\d+/)?.[0] ?? '';
  expect(link).toBe(`${BASE}/dashboard/leads?lead=${leadId}`);

  // opened by the agent, signed in or signing in on the way
  await page.goto(link);
  await expect(page).toHaveURL(/\/login/);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Log In' }).click();
  const drawer = page.getByTestId('update-status-drawer');
  await expect(drawer.getByRole('heading', { name: 'Update Lead Status' })).toBeVisible();
  await expect(drawer).toContainText(`Ellis Inbox${tag}`);
  await shoot(page, 'auth-email-link-drawer');
  await admin.dispose();
});
