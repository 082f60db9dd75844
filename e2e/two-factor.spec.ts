/**
 * Two-factor authentication in the browser (docs/domain.md, Accounts: two factors): an agent sets
 * up TOTP on the Account screen (QR code, key, a code, the recovery codes shown once), logs out,
 * and logs in with the password and then a code; an agency owner who requires two factors is held
 * to the Account screen until they are on. Screenshots of the Account card and the login's
 * code step at 1280 and 375 px (axe-checked) go to .tmp/screenshots/.
 */
import { mkdirSync } from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import { generate } from 'otplib';
import { SHOTS, shoot } from './screenshots';
import { createAgentViaApi, loginThroughUi } from './support';

test.beforeAll(() => mkdirSync(SHOTS, { recursive: true }));

const toast = (page: Page, text: string) =>
  page.getByTestId('toast-viewport').getByText(text, { exact: true });

/** The code of the time step `steps` away from now (the server accepts one step either side). */
const codeAt = (secret: string, steps = 0) =>
  generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });

test('an agent sets up TOTP on the Account screen, then logs in with password and code', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const agent = await createAgentViaApi(page, 'Tess Totp');
  await loginThroughUi(page, agent.email, agent.password, /\/dashboard$/);
  await page.goto('/account');
  const card = page.getByTestId('two-factor-card');
  await expect(card.getByRole('heading', { name: /Two-factor authentication/ })).toBeVisible();
  await expect(card.getByText('Off', { exact: true })).toBeVisible();
  await card.getByRole('button', { name: 'Set up authenticator app' }).click();
  await expect(card.getByTestId('totp-qr')).toBeVisible();
  const secret = ((await card.getByTestId('totp-secret').textContent()) ?? '').replace(/\s/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
  await shoot(page, 'two-factor-setup', { axe: true });

  await card.getByLabel('Code from the app').fill(await codeAt(secret));
  await card.getByRole('button', { name: 'Turn on' }).click();
  await expect(toast(page, 'Two-factor authentication is on')).toBeVisible();
  const codes = card.getByTestId('recovery-codes').getByRole('listitem');
  await expect(codes).toHaveCount(10);
  await card.getByRole('button', { name: 'Copy codes' }).click();
  await expect(toast(page, 'Recovery codes copied')).toBeVisible();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied.split('\n')).toHaveLength(10);
  await shoot(page, 'two-factor-recovery-codes', { axe: true });
  await card.getByRole('button', { name: 'I saved them' }).click();
  await expect(card.getByText('On', { exact: true })).toBeVisible();
  await expect(card.getByText(/10 of 10 recovery codes left/)).toBeVisible();

  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/login$/);

  await page.getByLabel('Email').fill(agent.email);
  await page.getByLabel('Password').fill(agent.password);
  await page.getByRole('button', { name: 'Log In' }).click();
  const codeField = page.getByLabel('Authentication code');
  await expect(codeField).toBeVisible();
  await expect(codeField).toBeFocused();
  // no session before the code
  expect((await page.request.get('/api/auth/me')).status()).toBe(401);
  await shoot(page, 'two-factor-code-step', { axe: true });

  await codeField.fill('000000x');
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByText('This code is not valid')).toBeVisible();
  // the next step's code (the current one turned TOTP on: a code is accepted once)
  await codeField.fill(await codeAt(secret, 1));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(toast(page, 'Login successful')).toBeVisible();
  expect((await page.request.get('/api/auth/me')).status()).toBe(200);
});

test('an agency owner who requires two factors is held to the Account screen until they are on', async ({
  page,
}) => {
  const owner = await createAgentViaApi(page, 'Rita Required');
  await loginThroughUi(page, owner.email, owner.password, /\/dashboard$/);
  expect(
    (await page.request.post('/api/agency', { data: { name: 'Strict Agency' } })).status(),
  ).toBe(201);
  const set = await page.request.patch('/api/agency', { data: { requireTwoFactor: true } });
  expect(set.status()).toBe(200);

  await page.goto('/dashboard/leads');
  await expect(page).toHaveURL(/\/account$/);
  const card = page.getByTestId('two-factor-card');
  await expect(card.getByText(/must use two-factor authentication/)).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Change password' })).toHaveCount(0);

  await card.getByRole('button', { name: 'Set up authenticator app' }).click();
  const secret = ((await card.getByTestId('totp-secret').textContent()) ?? '').replace(/\s/g, '');
  await card.getByLabel('Code from the app').fill(await codeAt(secret));
  await card.getByRole('button', { name: 'Turn on' }).click();
  await expect(card.getByTestId('recovery-codes').getByRole('listitem')).toHaveCount(10);
  await card.getByRole('button', { name: 'I saved them' }).click();
  await expect(page.getByRole('heading', { name: 'Change password' })).toBeVisible();
  await page.goto('/dashboard/leads');
  await expect(page).toHaveURL(/\/dashboard\/leads$/);
});
