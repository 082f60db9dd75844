/**
 * Consent verified at intake in the browser (docs/domain.md, Consent verified at intake): an admin
 * sets a source's "Consent verification" to TrustedForm on the Sources screen; a lead sent with a
 * certificate TrustedForm's stand-in matches is stored, and the admin's lead drawer says it was
 * verified and until when the certificate is kept; a lead whose certificate matches nobody is
 * refused. The shared e2e server has no TrustedForm key, so this spec starts its own server
 * (E2E_PORT + 7, its own PGlite folder) pointed at the stand-in.
 */
import { mkdirSync } from 'node:fs';
import { expect, request, test } from '@playwright/test';
import { TrustedFormStandIn } from '../test/support/trustedform-stand-in';
import { OwnServer } from './own-server';
import { SHOTS, shoot } from './screenshots';
import { E2E_ADMIN, loginThroughUi } from './support';

const PORT = Number(process.env.E2E_PORT ?? 3100) + 7;

const standIn = new TrustedFormStandIn();
const server = new OwnServer('consent', PORT);

test.use({ baseURL: server.base });
test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  const apiBase = await standIn.start();
  mkdirSync(SHOTS, { recursive: true });
  await server.start({ TRUSTEDFORM_API_KEY: standIn.apiKey, TRUSTEDFORM_API_BASE: apiBase });
});

test.afterAll(async () => {
  await server.stop();
  await standIn.stop();
});

test('a TrustedForm source: a matched lead shows as verified in its drawer, a mismatched one is refused', async ({
  page,
}) => {
  const name = `Verified Leads ${Date.now().toString(36)}`;
  await loginThroughUi(page, E2E_ADMIN.email, E2E_ADMIN.password, /\/admin$/);
  await page.getByRole('link', { name: 'Sources' }).first().click();

  await page.getByRole('button', { name: 'Create Source' }).first().click();
  const dialog = page.getByTestId('source-dialog');
  await dialog.getByLabel('Name', { exact: true }).fill(name);
  await dialog.getByLabel('Cost per Lead ($)').fill('10');
  await dialog.getByRole('button', { name: 'Create Source' }).click();
  const row = page.getByTestId('source-row').filter({ hasText: name });
  await expect(row).toBeVisible();

  await row.getByRole('button', { name: `Edit ${name}` }).click();
  await expect(dialog.getByLabel('Consent verification')).toHaveText(/None/);
  await dialog.getByLabel('Consent verification').click();
  await page.getByRole('option', { name: /TrustedForm/ }).click();
  await shoot(page, 'consent-source-form');
  await dialog.getByRole('button', { name: 'Save Changes' }).click();
  await expect(dialog).toHaveCount(0);
  await row.getByRole('button', { name: `Edit ${name}` }).click();
  await expect(dialog.getByLabel('Consent verification')).toHaveText(/TrustedForm/);
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  await row.getByRole('button', { name: `API keys of ${name}` }).click();
  const keys = page.getByTestId('keys-dialog');
  await keys.getByRole('button', { name: 'Create Key' }).click();
  const key = (await keys.getByTestId('new-key-value').textContent()) ?? '';
  await keys.getByRole('button', { name: 'I have saved it' }).click();
  await keys.getByRole('button', { name: 'Close' }).click();

  const email = `consent-${Date.now()}@e2e.test`;
  const cert = standIn.issue({ email, expiresAt: '2027-02-25T18:00:00.000Z' });
  const api = await request.newContext({ baseURL: server.base });
  const lead = (certUrl: string, externalId: string) => ({
    firstName: 'Vera',
    lastName: 'Fied',
    email,
    city: 'Austin',
    state: 'TX',
    age: 45,
    category: 'ACA',
    externalId,
    consent: {
      at: '2026-11-24T15:04:05Z',
      text: 'I agree to be called',
      trustedFormCertUrl: certUrl,
    },
  });
  const refused = await api.post('/api/v1/leads', {
    data: lead(standIn.issue({ email: 'someone.else@e2e.test' }), `e2e-no-${Date.now()}`),
    headers: { authorization: `Bearer ${key}` },
  });
  expect(refused.status()).toBe(422);
  expect((await refused.json()).reason).toBe('consent');

  const sent = await api.post('/api/v1/leads', {
    data: lead(cert, `e2e-yes-${Date.now()}`),
    headers: { authorization: `Bearer ${key}` },
  });
  expect(sent.status()).toBe(201);
  const { id } = await sent.json();
  await api.dispose();

  await page.goto(`/admin/leads?lead=${id}`);
  const drawer = page.getByTestId('admin-lead-drawer');
  await expect(drawer.getByTestId('consent-verified')).toHaveText(
    'Verified by TrustedForm, certificate kept until Feb 25, 2027',
  );
  await shoot(page, 'consent-drawer');
});
