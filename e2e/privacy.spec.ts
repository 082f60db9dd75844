/**
 * Consumer deletion in the browser (docs/domain.md, Consumer deletion and retention): an admin
 * deletes a consumer by email on the Privacy screen, confirms, and sees the request listed with
 * the lead it anonymized; the lead no longer carries the consumer's name.
 */
import { expect, request as playwrightRequest, test } from '@playwright/test';
import { loginAdminApi, uniqueTag } from './agent-fixtures';
import { shoot } from './screenshots';
import { loginAsAdmin } from './support';

test('an admin deletes a consumer by email: confirmed, listed with the lead anonymized, the name gone', async ({
  page,
  baseURL,
}) => {
  const tag = uniqueTag('gone');
  const email = `${tag}@e2e.test`;
  const api = await playwrightRequest.newContext({ baseURL });
  await loginAdminApi(api);
  const imported = await api.post('/api/admin/leads/import', {
    multipart: {
      file: {
        name: `${tag}.csv`,
        mimeType: 'text/csv',
        buffer: Buffer.from(
          `state,city,age,category,firstName,lastName,email\nTX,Austin,50,ACA,Erased,${tag},${email}\n`,
        ),
      },
    },
  });
  expect(imported.status()).toBe(200);
  const found = await (await api.get(`/api/admin/leads?q=${tag}`)).json();
  expect(found).toHaveLength(1);
  const leadId = found[0].id as number;

  await loginAsAdmin(page);
  await page.getByRole('link', { name: 'Privacy' }).first().click();
  await expect(page).toHaveURL(/\/admin\/privacy$/);
  await expect(page.getByRole('heading', { name: 'Privacy', level: 1 })).toBeVisible();

  // nothing given: said at once, nothing sent
  await page.getByRole('button', { name: 'Delete Consumer' }).click();
  await expect(page.getByRole('alert')).toHaveText('Enter the consumer’s phone, email or both');

  await page.getByLabel('Email').fill(email.toUpperCase());
  await page.getByRole('button', { name: 'Delete Consumer' }).click();
  const dialog = page.getByTestId('privacy-confirm-dialog');
  await expect(dialog).toContainText('This cannot be undone');
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(
    page.getByTestId('toast-viewport').getByText('Consumer deleted: 1 lead anonymized'),
  ).toBeVisible();

  const row = page.getByTestId('deletion-row').first();
  await expect(row).toContainText('Email');
  await expect(row.getByTestId('deletion-leads')).toHaveText('1');
  await expect(page.getByLabel('Email')).toHaveValue('');
  await shoot(page, 'privacy');

  // the lead is found by nobody's name any more, and its drawer says why
  expect(await (await api.get(`/api/admin/leads?q=${tag}`)).json()).toEqual([]);
  await page.goto(`/admin/leads?lead=${leadId}`);
  await expect(page.getByTestId('lead-anonymized')).toContainText(
    "The consumer's data was deleted on",
  );
  await api.dispose();
});
