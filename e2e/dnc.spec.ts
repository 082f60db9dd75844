import { expect, type Page, test } from '@playwright/test';
import { loginAsAdmin } from './support';

const toast = (page: Page, text: string) =>
  page.getByTestId('toast-viewport').getByText(text, { exact: true });

async function listedCount(page: Page): Promise<number> {
  const count = page.getByTestId('dnc-count');
  await expect(count).toHaveText(/^[\d,]+$/);
  return Number((await count.textContent())?.replace(/,/g, ''));
}

test('an admin uploads a CSV of numbers, sees the count and the numbers, removes one and adds one', async ({
  page,
}) => {
  await loginAsAdmin(page);
  await page.getByRole('link', { name: 'Do Not Call' }).first().click();
  await expect(page).toHaveURL(/\/admin\/dnc$/);
  await expect(page.getByRole('heading', { name: 'Do Not Call', level: 1 })).toBeVisible();
  const before = await listedCount(page);

  const csv = [
    'name,phone',
    'Ann,(305) 555-0123',
    'Bob,212.555.0199',
    'Cy,12345',
    'Di,720-555-0111',
  ];
  await page.getByTestId('dnc-file-input').setInputFiles({
    name: 'do-not-call.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(csv.join('\n')),
  });
  const report = page.getByTestId('dnc-upload-report');
  await expect(report).toContainText('Uploaded do-not-call.csv');
  await expect(report.getByTestId('dnc-upload-counts')).toHaveText(
    '3 added · 0 already listed · 1 not valid',
  );
  await report.getByText('Show the 1 lines that were not added').click();
  await expect(report.getByTestId('dnc-upload-errors')).toContainText(
    "Line 4'12345' is not a valid phone number",
  );
  await expect(page.getByTestId('dnc-count')).toHaveText(String(before + 3));
  const rows = page.getByTestId('dnc-row');
  for (const shown of ['(305) 555-0123', '(212) 555-0199', '(720) 555-0111']) {
    await expect(rows.filter({ hasText: shown })).toHaveCount(1);
  }
  await expect(rows.filter({ hasText: '(305) 555-0123' })).toContainText('Admin');

  // search by digits
  await page.getByLabel('Search numbers').fill('212555');
  await expect(page.getByTestId('dnc-matching')).toHaveText('1 number found');
  await expect(rows).toHaveCount(1);
  await expect(rows).toContainText('(212) 555-0199');
  await page.getByLabel('Search numbers').fill('');
  await expect(rows.filter({ hasText: '(305) 555-0123' })).toHaveCount(1);

  // remove one, after confirming
  await page.getByRole('button', { name: 'Remove (305) 555-0123' }).click();
  const dialog = page.getByTestId('dnc-remove-dialog');
  await expect(dialog).toContainText('Remove (305) 555-0123 from the list?');
  await dialog.getByRole('button', { name: 'Remove' }).click();
  await expect(toast(page, '(305) 555-0123 removed from the list')).toBeVisible();
  await expect(rows.filter({ hasText: '(305) 555-0123' })).toHaveCount(0);
  await expect(page.getByTestId('dnc-count')).toHaveText(String(before + 2));

  // add one: a bad number is refused on the spot, a good one is listed
  const field = page.getByLabel('Add a number');
  await field.fill('555');
  await page.getByRole('button', { name: 'Add Number' }).click();
  await expect(
    page.getByRole('alert').filter({ hasText: 'Enter a valid phone number' }),
  ).toBeVisible();
  await field.fill('+1 (646) 555-0100');
  await page.getByRole('button', { name: 'Add Number' }).click();
  await expect(toast(page, '(646) 555-0100 added to the list')).toBeVisible();
  await expect(field).toHaveValue('');
  await expect(rows.filter({ hasText: '(646) 555-0100' })).toHaveCount(1);
  await expect(page.getByTestId('dnc-count')).toHaveText(String(before + 3));

  // the list is the server's: it survives a reload
  await page.reload();
  await expect(rows.filter({ hasText: '(646) 555-0100' })).toHaveCount(1);
  await expect(rows.filter({ hasText: '(305) 555-0123' })).toHaveCount(0);
});
