import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, request as playwrightRequest, test } from '@playwright/test';
import { loginAdminApi, uniqueTag } from './agent-fixtures';
import { createAgentViaApi, loginAsAdmin, loginThroughUi } from './support';

const toast = (page: Page, text: string) =>
  page.getByTestId('toast-viewport').getByText(text, { exact: true });

/** The numbers the first test lists: taken off again after it, so no other spec's lead is refused. */
const LISTED = ['+14795550191', '+14795550192', '+14795550193', '+14795550194'];

test.afterAll(async ({ baseURL }) => {
  const admin = await playwrightRequest.newContext({ baseURL });
  await loginAdminApi(admin);
  for (const phone of LISTED) await admin.delete(`/api/admin/dnc/${encodeURIComponent(phone)}`);
  await admin.dispose();
});

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
    'Ann,(479) 555-0191',
    'Bob,479.555.0192',
    'Cy,12345',
    'Di,479-555-0193',
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
  for (const shown of ['(479) 555-0191', '(479) 555-0192', '(479) 555-0193']) {
    await expect(rows.filter({ hasText: shown })).toHaveCount(1);
  }
  await expect(rows.filter({ hasText: '(479) 555-0191' })).toContainText('Admin');

  // search by digits
  await page.getByLabel('Search numbers').fill('4795550192');
  await expect(page.getByTestId('dnc-matching')).toHaveText('1 number found');
  await expect(rows).toHaveCount(1);
  await expect(rows).toContainText('(479) 555-0192');
  await page.getByLabel('Search numbers').fill('');
  await expect(rows.filter({ hasText: '(479) 555-0191' })).toHaveCount(1);

  // remove one, after confirming
  await page.getByRole('button', { name: 'Remove (479) 555-0191' }).click();
  const dialog = page.getByTestId('dnc-remove-dialog');
  await expect(dialog).toContainText('Remove (479) 555-0191 from the list?');
  await dialog.getByRole('button', { name: 'Remove' }).click();
  await expect(toast(page, '(479) 555-0191 removed from the list')).toBeVisible();
  await expect(rows.filter({ hasText: '(479) 555-0191' })).toHaveCount(0);
  await expect(page.getByTestId('dnc-count')).toHaveText(String(before + 2));

  // add one: a bad number is refused on the spot, a good one is listed
  const field = page.getByLabel('Add a number');
  await field.fill('555');
  await page.getByRole('button', { name: 'Add Number' }).click();
  await expect(
    page.getByRole('alert').filter({ hasText: 'Enter a valid phone number' }),
  ).toBeVisible();
  await field.fill('+1 (479) 555-0194');
  await page.getByRole('button', { name: 'Add Number' }).click();
  await expect(toast(page, '(479) 555-0194 added to the list')).toBeVisible();
  await expect(field).toHaveValue('');
  await expect(rows.filter({ hasText: '(479) 555-0194' })).toHaveCount(1);
  await expect(page.getByTestId('dnc-count')).toHaveText(String(before + 3));

  // nothing serious for axe on the screen with its report open
  await page.getByTestId('toast-viewport').waitFor({ state: 'attached' });
  const axe = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  expect(
    axe.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => v.id),
  ).toEqual([]);

  // the list is the server's: it survives a reload
  await page.reload();
  await expect(rows.filter({ hasText: '(479) 555-0194' })).toHaveCount(1);
  await expect(rows.filter({ hasText: '(479) 555-0191' })).toHaveCount(0);
});

test("the agent sees each lead's calling window on My Leads and its consent in the drawer", async ({
  page,
  baseURL,
}) => {
  const tag = uniqueTag('cw');
  const agent = await createAgentViaApi(page, 'Window Agent');
  const admin = await playwrightRequest.newContext({ baseURL });
  await loginAdminApi(admin);
  const header =
    'firstName,lastName,phone,email,city,state,age,category,externalId,zip,consentAt,consentText,trustedFormCertUrl,jornayaLeadId,consentIp';
  const rows = [
    `Mia,${tag},(305) 555-0181,mia.${tag}@e2e.test,Miami,FL,68,MEDICARE,${tag}-1,33101,2026-11-20T15:04:00Z,I agree to be called about Medicare plans.,https://cert.trustedform.com/${tag},LEADID-${tag},203.0.113.7`,
    `Pat,${tag},(850) 555-0182,pat.${tag}@e2e.test,Pensacola,FL,70,MEDICARE,${tag}-2,32501,,,,,`,
    `Tex,${tag},(214) 555-0183,tex.${tag}@e2e.test,Dallas,TX,72,MEDICARE,${tag}-3,,,,,,`,
  ];
  const imported = await admin.post('/api/admin/leads/import', {
    multipart: {
      file: {
        name: `${tag}.csv`,
        mimeType: 'text/csv',
        buffer: Buffer.from(`${[header, ...rows].join('\n')}\n`),
      },
    },
  });
  expect(imported.status(), await imported.text()).toBe(200);
  const listed = (await (await admin.get(`/api/admin/leads?q=${tag}`)).json()) as {
    id: number;
    status: string;
    agentId: number | null;
  }[];
  expect(listed).toHaveLength(3);
  // as seedLeadsForAgent does: a lead the engine already gave away cannot be assigned by hand
  for (const lead of listed) {
    if (lead.status !== 'NEW') {
      expect(lead.agentId).toBe(agent.id);
      continue;
    }
    const res = await admin.post('/api/admin/leads/assign', {
      data: { leadId: lead.id, userId: agent.id },
    });
    expect(res.status(), await res.text()).toBe(200);
  }
  await admin.dispose();

  await loginThroughUi(page, agent.email, agent.password, /\/dashboard$/);
  // 8:30 PM in Miami, 7:30 PM in Pensacola and Dallas: Florida closes at 8 PM local
  await page.clock.setFixedTime(new Date('2026-11-25T01:30:00Z'));
  await page.goto('/dashboard/leads');
  const row = (name: string) => page.getByTestId('lead-row').filter({ hasText: name });
  await expect(row('Mia').getByTestId('lead-calling-window')).toHaveText(
    'Call tomorrow after 8 AM ET',
  );
  await expect(row('Mia').getByTestId('lead-calling-window')).toHaveAttribute(
    'data-callable',
    'false',
  );
  await expect(row('Pat').getByTestId('lead-calling-window')).toHaveText(
    'Callable now until 8 PM CT',
  );
  await expect(row('Tex').getByTestId('lead-calling-window')).toHaveText(
    'Callable now until 9 PM CT',
  );

  await row('Mia').getByRole('button', { name: 'Update Status' }).click();
  const drawer = page.getByTestId('update-status-drawer');
  await expect(drawer.getByTestId('lead-calling-window')).toHaveText('Call tomorrow after 8 AM ET');
  const consent = drawer.getByTestId('lead-consent');
  await expect(consent).toContainText('I agree to be called about Medicare plans.');
  await expect(consent).toContainText(`LEADID-${tag}`);
  await expect(consent).toContainText('203.0.113.7');
  await expect(consent.getByRole('link', { name: 'View certificate' })).toHaveAttribute(
    'href',
    `https://cert.trustedform.com/${tag}`,
  );
  await page.keyboard.press('Escape');
  await row('Tex').getByRole('button', { name: 'Update Status' }).click();
  await expect(drawer.getByTestId('lead-consent')).toContainText('No consent recorded');
});
