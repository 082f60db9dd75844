import { expect, test } from '@playwright/test';
import { e164, uniquePhone } from './lead-contact';
import { loginAsAdmin } from './support';

const tag = () => `lq${Date.now().toString(36)}`;

/**
 * Lead quality (docs/domain.md) at the import: a file with a repeated phone, a repeated email and a number on the
 * do-not-call list; the report counts each and lists the skipped rows by line, with why.
 */
test('the import report counts duplicates and do-not-call rows and lists them by line', async ({
  page,
}) => {
  await loginAsAdmin(page);
  const blocked = uniquePhone();
  const added = await page.request.post('/api/admin/dnc', { data: { phones: [blocked] } });
  expect(added.ok(), await added.text()).toBe(true);

  await page.getByRole('link', { name: 'Leads', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Leads Management' })).toBeVisible();
  const t = tag();
  const ann = uniquePhone();
  const csv = [
    'firstName,lastName,phone,email,city,state,zip,age,category,externalId',
    `Ann,${t},${ann},ann.${t}@example.com,Austin,TX,78701,67,MEDICARE,${t}-1`,
    `Bob,${t},(${ann.slice(0, 3)}) ${ann.slice(4)},bob.${t}@example.com,Miami,FL,,44,ACA,${t}-2`,
    `Cy,${t},${uniquePhone()},ANN.${t}@Example.com,Reno,NV,,70,MEDICARE,${t}-3`,
    `Dee,${t},${blocked},dee.${t}@example.com,Dallas,TX,,71,MEDICARE,${t}-4`,
    `Eve,${t},555-0100,eve.${t}@example.com,Boise,ID,,80,FINAL_EXPENSE,${t}-5`,
    `Fay,${t},${uniquePhone()},fay.${t}@example.com,Tulsa,OK,,66,FINAL_EXPENSE,${t}-6`,
  ].join('\n');
  await page.getByTestId('csv-file-input').setInputFiles({
    name: `${t}.csv`,
    mimeType: 'text/csv',
    buffer: Buffer.from(csv),
  });
  const report = page.getByTestId('import-report');
  await expect(report.getByTestId('import-counts')).toContainText(
    '2 imported · 2 duplicates skipped · 1 on the do-not-call list · 1 errors',
  );
  await report.getByText('Show the 3 duplicate and do-not-call rows that were skipped').click();
  await expect(report.getByTestId('import-duplicates').getByRole('listitem')).toHaveText([
    'Line 3duplicate of line 2 (same phone)',
    'Line 4duplicate of line 2 (same email)',
    'Line 5on the do-not-call list',
  ]);
  await report.getByText('Show the 1 rows that were not imported').click();
  await expect(report.getByTestId('import-errors').getByRole('listitem')).toHaveText([
    /^Line 6Invalid phone: '555-0100'/,
  ]);

  // the stored lead carries its number in E.164, shown as people read it
  await page.getByLabel('Search leads').fill(t);
  await expect(page.getByTestId('lead-count')).toHaveText('2 leads');
  const digits = e164(ann).slice(2);
  await expect(page.getByTestId('lead-row').filter({ hasText: `Ann ${t}` })).toContainText(
    `(${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}`,
  );

  // SCREENSHOT_DIR=... keeps the report as it looks at a desktop's and a phone's width
  const dir = process.env.SCREENSHOT_DIR;
  if (dir) {
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 900 });
      await report.evaluate((el) => el.scrollIntoView({ block: 'start' }));
      await page.screenshot({ path: `${dir}/import-report-${width}.png` });
    }
  }
});
