import { readFile } from 'node:fs/promises';
import { expect, request, test } from '@playwright/test';
import { uniquePhone } from './lead-contact';
import { E2E_ADMIN, loginAsAdmin } from './support';

const HEADER =
  'firstName,lastName,phone,email,city,state,age,category,status,externalId,createdAt,agentName,agentEmail,assignedAt,zip,timeZone,consentAt,consentText,trustedFormCertUrl,jornayaLeadId,consentIp';

test('leads: Export CSV downloads the leads of the current search as CSV', async ({
  page,
  baseURL,
}) => {
  const t = `exp${Date.now().toString(36)}`;
  const api = await request.newContext({ baseURL });
  expect((await api.post('/api/auth/login', { data: E2E_ADMIN })).status()).toBe(200);
  const csv = [
    'externalId,firstName,lastName,phone,email,city,state,age,category',
    `${t}-1,Ann,${t},512-555-0101,ann.${t}@example.com,"Austin, East",TX,67,MEDICARE`,
    `${t}-2,=HYPERLINK(1),${t},${uniquePhone()},bob.${t}@example.com,Miami,FL,44,ACA`,
    `other-${t},Zed,Other${Date.now()},${uniquePhone()},zed${Date.now()}@example.com,Reno,NV,70,MEDICARE`,
  ].join('\n');
  const imported = await api.post('/api/admin/leads/import', {
    multipart: { file: { name: `${t}.csv`, mimeType: 'text/csv', buffer: Buffer.from(csv) } },
  });
  expect(imported.status()).toBe(200);
  expect((await imported.json()).imported).toBe(3);
  await api.dispose();

  await loginAsAdmin(page);
  await page.getByRole('link', { name: 'Leads', exact: true }).click();
  await page.getByLabel('Search leads').fill(t);
  await expect(page.getByTestId('lead-count')).toHaveText('2 leads');
  const button = page.getByRole('link', { name: 'Export CSV' });
  await expect(button).toHaveAttribute('href', `/api/admin/leads/export?q=${t}`);

  const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
  expect(download.suggestedFilename()).toMatch(/^leads-\d{4}-\d{2}-\d{2}\.csv$/);
  const text = await readFile(await download.path(), 'utf8');
  const lines = text.split('\r\n');
  expect(lines[0]).toBe(HEADER);
  expect(lines).toHaveLength(4); // header, two leads, and the empty rest after the last CRLF
  expect(lines[lines.length - 1]).toBe('');
  const ann = lines.find((l) => l.startsWith('Ann,'));
  // the E.164 phone starts with '+', which a spreadsheet runs as a formula: neutralised too
  expect(ann).toMatch(
    new RegExp(
      `^Ann,${t},"'\\+15125550101",ann\\.${t}@example\\.com,"Austin, East",TX,67,MEDICARE,(NEW,${t}-1,[\\d:.TZ-]+,,,|ASSIGNED,${t}-1,[\\d:.TZ-]+,[^,]+,[^,]+,\\d{4}-\\d{2}-\\d{2}T[\\d:.]+Z),,America/Chicago,,,,,$`,
    ),
  );
  // the formula is neutralised: a leading quote, and quoted
  expect(lines.some((l) => l.startsWith(`"'=HYPERLINK(1)",${t},`))).toBe(true);
  expect(text).not.toContain(`other-${t}`);

  // the status filter goes into the link too
  await page.getByRole('combobox', { name: 'Filter by status' }).click();
  await page.getByRole('option', { name: 'Converted' }).click();
  await expect(page.getByTestId('lead-count')).toHaveText('0 leads');
  await expect(button).toHaveAttribute('href', `/api/admin/leads/export?status=CONVERTED&q=${t}`);
});
