/**
 * Passkeys in Chromium (docs/domain.md, Accounts: two factors), with Chromium's virtual
 * authenticator (DevTools protocol, WebAuthn domain): an agent adds a passkey on the Account
 * screen, logs out, signs in with it from the login page without email or password and lands on
 * the dashboard; with the password, the second step offers "Use a passkey"; an admin resets the
 * agent's lost second factor from the Agents screen. WebAuthn wants a secure context and a domain
 * as RP ID (never an IP address), so this spec runs its own server (E2E_PORT + 1) at
 * http://localhost with PUBLIC_URL saying so. Screenshots at 1280 and 375 px (axe-checked) go to .tmp/screenshots/.
 */
import { mkdirSync } from 'node:fs';
import { type Browser, expect, type Page, test } from '@playwright/test';
import { OwnServer } from './own-server';
import { SHOTS, shoot } from './screenshots';
import { E2E_ADMIN, uniqueEmail } from './support';

const PORT = Number(process.env.E2E_PORT ?? 3100) + 1;
const BASE = `http://localhost:${PORT}`;
const server = new OwnServer('passkeys', PORT);

test.use({ baseURL: BASE });
test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  mkdirSync(SHOTS, { recursive: true });
  await server.start({ PUBLIC_URL: BASE });
});

test.afterAll(async () => {
  await server.stop();
});

const toast = (page: Page, text: string) =>
  page.getByTestId('toast-viewport').getByText(text, { exact: true });

/** Chromium's virtual platform authenticator: resident keys, user verification always passes. */
async function virtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
    },
  });
  return {
    credentials: async () =>
      (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials,
  };
}

const agent = { name: 'Pia Passkey', email: uniqueEmail(), password: 'secret123' };

async function logIn(page: Page, email: string, password: string) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log In' }).click();
}

async function logOut(page: Page) {
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/login$/);
}

let page: Page;
let authenticator: Awaited<ReturnType<typeof virtualAuthenticator>>;

test.beforeAll(async ({ browser }: { browser: Browser }) => {
  const context = await browser.newContext({ baseURL: BASE });
  page = await context.newPage();
  authenticator = await virtualAuthenticator(page);
});

test('an agent adds a passkey on the Account screen, logs out, and signs in with it alone', async () => {
  const reg = await page.request.post('/api/auth/register', { data: agent });
  expect(reg.status()).toBe(201);
  await logIn(page, agent.email, agent.password);
  await expect(page).toHaveURL(/\/dashboard$/);

  await page.goto('/account');
  const card = page.getByTestId('passkeys-card');
  await expect(card.getByRole('heading', { name: 'Passkeys' })).toBeVisible();
  await expect(card.getByText('No passkeys yet.')).toBeVisible();
  await card.getByLabel('Name of the new passkey').fill('Work laptop');
  await card.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(toast(page, 'Passkey added')).toBeVisible();
  await expect(card.getByTestId('passkey-list').getByText('Work laptop')).toBeVisible();
  await expect(card.getByText(/Never used/)).toBeVisible();
  // the passkey turns two factors on
  await expect(page.getByTestId('two-factor-card').getByText('On', { exact: true })).toBeVisible();
  expect(await authenticator.credentials()).toHaveLength(1);
  await shoot(page, 'passkeys-card', { axe: true });

  await logOut(page);
  await shoot(page, 'passkeys-login', { axe: true });
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(toast(page, 'Login successful')).toBeVisible();
  const me = await page.request.get('/api/auth/me');
  expect((await me.json()).email).toBe(agent.email);

  await page.goto('/account');
  await expect(page.getByTestId('passkeys-card').getByText(/Last used/)).toBeVisible();
});

test('with the password, the second step asks for the passkey and signs in with it', async () => {
  await logOut(page);
  await logIn(page, agent.email, agent.password);
  const step = page.getByTestId('two-factor-code-form');
  await expect(step.getByText('Confirm it is you with one of your passkeys.')).toBeVisible();
  // no session before the second factor
  expect((await page.request.get('/api/auth/me')).status()).toBe(401);
  await shoot(page, 'passkeys-second-step', { axe: true });
  await step.getByRole('button', { name: 'Use a passkey' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  expect((await page.request.get('/api/auth/me')).status()).toBe(200);
});

test("an admin resets the agent's lost second factor from the Agents screen", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const adminContext = await browser.newContext({ baseURL: BASE });
  const admin = await adminContext.newPage();
  await logIn(admin, E2E_ADMIN.email, E2E_ADMIN.password);
  await expect(admin).toHaveURL(/\/admin$/);
  await admin.goto('/admin/agents');
  const reset = admin.getByRole('button', { name: `Reset two-factor for ${agent.name}` });
  await expect(reset).toBeVisible();
  await shoot(admin, 'passkeys-admin-agents');
  await reset.click();
  const dialog = admin.getByTestId('reset-two-factor-dialog');
  await expect(dialog.getByText(/signed out everywhere/)).toBeVisible();
  // one width only: a narrower one lays the table out anew, which closes the dialog
  await admin.screenshot({ path: `${SHOTS}/passkeys-admin-reset-dialog-1280.png` });
  await dialog.getByRole('button', { name: 'Reset 2FA' }).click();
  await expect(toast(admin, 'Two-factor authentication reset')).toBeVisible();
  await adminContext.close();

  // the agent is signed out, and the password alone signs in again
  expect((await page.request.get('/api/auth/me')).status()).toBe(401);
  await logIn(page, agent.email, agent.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto('/account');
  await expect(page.getByTestId('passkeys-card').getByText('No passkeys yet.')).toBeVisible();
});
