import { expect, test } from '@playwright/test';
import { bulkPhones } from './lead-contact';
import { loginAsAdmin } from './support';

const tag = () => `prog${Date.now().toString(36)}`;

test('a large import shows its progress, then its report; the page stays usable', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await loginAsAdmin(page);
  await page.getByRole('link', { name: 'Leads', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Leads Management' })).toBeVisible();

  const t = tag();
  // enough rows that the import is still running while the checks below run (about 1 s)
  const rows = 100_000;
  const phones = bulkPhones(rows);
  let csv = 'firstName,lastName,phone,email,city,state,age,category,externalId\n';
  for (let i = 0; i < rows; i++) {
    csv += `Ann${i},${t},${phones[i]},a${i}.${t}@example.com,Austin,TX,${20 + (i % 70)},ACA,${t}-${i}\n`;
  }
  await page.getByTestId('csv-file-input').setInputFiles({
    name: `${t}.csv`,
    mimeType: 'text/csv',
    buffer: Buffer.from(csv),
  });

  const progress = page.getByTestId('import-progress');
  await expect(progress.getByRole('heading', { name: `Importing ${t}.csv` })).toBeVisible();
  await expect(progress.getByRole('progressbar', { name: 'Upload progress' })).toBeVisible();
  await expect(progress.getByTestId('upload-progress')).toHaveText(
    /Uploading: \d+%|Upload complete, storing the leads\.\.\./,
  );
  await expect(page.getByRole('button', { name: 'Importing...' })).toBeDisabled();
  // the rest of the page is still there to use
  await expect(page.getByRole('searchbox', { name: 'Search leads' })).toBeEditable();

  await expect(page.getByTestId('import-report').getByTestId('import-counts')).toContainText(
    `${rows.toLocaleString('en-US')} imported`,
    { timeout: 150_000 },
  );
  await expect(progress).toBeHidden();
  await expect(page.getByRole('button', { name: 'Import CSV' })).toBeEnabled();

  await page.getByRole('searchbox', { name: 'Search leads' }).fill(`a3999.${t}`);
  await expect(page.getByTestId('lead-count')).toHaveText('1 lead');
  await page.getByRole('searchbox', { name: 'Search leads' }).fill(t);
  await expect(page.getByTestId('lead-count')).toHaveText('1,000+ leads');

  // the report stays after leaving the page: the import history keeps every file's
  await page.getByRole('link', { name: 'Agents', exact: true }).click();
  await page.getByRole('link', { name: 'Leads', exact: true }).click();
  const history = page.getByTestId('import-history');
  const row = history.getByTestId('import-history-row').filter({ hasText: `${t}.csv` });
  await expect(row).toContainText(`${rows.toLocaleString('en-US')} imported`);
  await row.getByRole('button', { name: `Report of ${t}.csv` }).click();
  await expect(history.getByRole('heading', { name: `Import of ${t}.csv` })).toBeVisible();
  await history.scrollIntoViewIfNeeded();
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: width === 1280 ? 900 : 812 });
    await history.screenshot({ path: `.tmp/screenshots/admin-import-history-${width}.png` });
  }
});
