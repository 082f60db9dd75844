import { expect, type Page, request, test } from '@playwright/test';
import { E2E_ADMIN, loginAsAdmin } from './support';

test.describe.configure({ mode: 'serial' });

const toast = (page: Page, text: string) =>
  page.getByTestId('toast-viewport').getByText(text, { exact: true });

test('an admin creates a source and a key, sees the key once, and revokes it', async ({
  page,
  baseURL,
}) => {
  const name = `Acme Leads ${Date.now().toString(36)}`;
  await loginAsAdmin(page);
  await page.getByRole('link', { name: 'Sources' }).first().click();
  await expect(page.getByRole('heading', { name: 'Sources', level: 1 })).toBeVisible();

  await page.getByRole('button', { name: 'Create Source' }).first().click();
  const dialog = page.getByTestId('source-dialog');
  await dialog.getByLabel('Name', { exact: true }).fill(name);
  await dialog.getByLabel('Cost per Lead ($)').fill('12.50');
  await dialog.getByRole('button', { name: 'Create Source' }).click();
  await expect(toast(page, 'Source created')).toBeVisible();
  const row = page.getByTestId('source-row').filter({ hasText: name });
  await expect(row).toContainText('$12.50');
  await expect(row).toContainText('Active');

  await row.getByRole('button', { name: `API keys of ${name}` }).click();
  const keys = page.getByTestId('keys-dialog');
  await expect(keys.getByTestId('list-empty')).toHaveText('No keys yet');
  await keys.getByRole('button', { name: 'Create Key' }).click();
  const shown = keys.getByTestId('new-key-value');
  await expect(shown).toHaveText(/^lf_live_[A-Za-z0-9_-]{43}$/);
  const key = (await shown.textContent()) ?? '';
  await expect(keys.getByTestId('new-key')).toContainText('shown only once');
  await expect(keys.getByRole('button', { name: 'Copy' })).toBeVisible();
  await expect(keys.getByTestId('key-row')).toContainText(`${key.slice(0, 16)}…`);

  // the key works for the intake API
  const api = await request.newContext({ baseURL });
  const lead = {
    city: 'Austin',
    state: 'TX',
    age: 66,
    category: 'MEDICARE',
    // a lead needs a phone or an email
    email: `source-${Date.now()}@e2e.test`,
    externalId: `e2e-${Date.now()}`,
  };
  const sent = await api.post('/api/v1/leads', {
    data: lead,
    headers: { authorization: `Bearer ${key}` },
  });
  expect(sent.status()).toBe(201);

  // once dismissed, the whole key is gone for good: only its prefix remains
  await keys.getByRole('button', { name: 'I have saved it' }).click();
  await expect(keys.getByTestId('new-key')).toHaveCount(0);
  await keys.getByRole('button', { name: 'Close' }).click();
  await row.getByRole('button', { name: `API keys of ${name}` }).click();
  await expect(keys.getByTestId('key-row')).toBeVisible();
  await expect(keys).not.toContainText(key);
  await expect(keys.getByTestId('key-row')).toContainText(/Last used \w/);

  await keys.getByRole('button', { name: `Revoke key ${key.slice(0, 16)}` }).click();
  const confirm = page.getByTestId('revoke-dialog');
  await expect(confirm).toContainText('Revoke this key?');
  await confirm.getByRole('button', { name: 'Revoke Key' }).click();
  await expect(toast(page, 'Key revoked')).toBeVisible();
  await expect(keys.getByTestId('key-row')).toContainText('Revoked');

  const refused = await api.post('/api/v1/leads', {
    data: { ...lead, externalId: `${lead.externalId}-2` },
    headers: { authorization: `Bearer ${key}` },
  });
  expect(refused.status()).toBe(401);
  await api.dispose();
});

test('the Sources screen at 1280 and 375 px', async ({ page }) => {
  await loginAsAdmin(page);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/admin/sources');
  await expect(page.getByTestId('source-row').first()).toBeVisible();
  await page.screenshot({ path: '.tmp/sources-1280.png', fullPage: true, animations: 'disabled' });
  const row = page.getByTestId('source-row').first();
  await row.getByRole('button', { name: /API keys of/ }).click();
  await page.getByTestId('keys-dialog').getByRole('button', { name: 'Create Key' }).click();
  await expect(page.getByTestId('new-key')).toBeVisible();
  await page.waitForTimeout(400); // the dialog's opening animation
  await page.screenshot({ path: '.tmp/sources-keys-1280.png', animations: 'disabled' });
  await page.keyboard.press('Escape');

  await page.setViewportSize({ width: 375, height: 800 });
  await expect(page.getByTestId('source-row').first()).toBeVisible();
  await page.screenshot({ path: '.tmp/sources-375.png', fullPage: true, animations: 'disabled' });
  // nothing wider than the screen
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(375);
  await page
    .getByTestId('source-row')
    .first()
    .getByRole('button', { name: /API keys of/ })
    .click();
  await page.getByTestId('keys-dialog').getByRole('button', { name: 'Create Key' }).click();
  await expect(page.getByTestId('new-key')).toBeVisible();
  await page.screenshot({ path: '.tmp/sources-keys-375.png', animations: 'disabled' });
  const box = await page.getByTestId('keys-dialog').boundingBox();
  expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(375);
});

test('an import names its source, and its leads count for that source', async ({
  page,
  baseURL,
}) => {
  const name = `Import Vendor ${Date.now().toString(36)}`;
  const api = await request.newContext({ baseURL });
  expect((await api.post('/api/auth/login', { data: E2E_ADMIN })).status()).toBe(200);
  expect(
    (await api.post('/api/admin/sources', { data: { name, costPerLeadCents: 300 } })).status(),
  ).toBe(201);

  await loginAsAdmin(page);
  await page.goto('/admin/leads');
  await page.getByRole('combobox', { name: 'Source of the imported file' }).click();
  await page.getByRole('option', { name }).click();
  const tag = Date.now().toString(36);
  await page.getByTestId('csv-file-input').setInputFiles({
    name: 'vendor.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(
      `externalId,city,state,age,category,email\n${tag}-1,Austin,TX,65,MEDICARE,${tag}-1@e2e.test\n${tag}-2,Dallas,TX,70,ACA,${tag}-2@e2e.test\n`,
    ),
  });
  await expect(toast(page, 'Import successful')).toBeVisible();
  await page.setViewportSize({ width: 375, height: 800 });
  await page.screenshot({ path: '.tmp/leads-import-375.png', animations: 'disabled' });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

  const sources = (await (await api.get('/api/admin/sources')).json()) as {
    name: string;
    leads: number;
  }[];
  expect(sources.find((s) => s.name === name)?.leads).toBe(2);
  await api.dispose();
});
