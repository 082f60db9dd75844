/**
 * An agency's whole day in the browser (docs/domain.md, Agencies): the owner creates the agency
 * and an invite link; a new agent joins through it; the owner pays their package; a lead posted
 * to the intake API reaches the member's open My Leads live; the member leaves it untouched, and
 * the reclaim hands it to another member (the owner, who took a package meanwhile) even though the
 * server was down when it fell due; the owner sees it all on the Book of business.
 *
 * Time is moved the honest way: the server is killed (SIGKILL: no graceful stop, as in a crash),
 * the lead's assignment is put a day back in the database (a day holds far more than the agency's
 * 5 minutes inside any US calling window), and the server is started again, as after an outage. So this spec runs its own server on its
 * own PostgreSQL database (E2E_PORT + 37), which the test can reach while the server is down.
 */
import { expect, type Page, request, test } from '@playwright/test';
import pg from 'pg';
import { uniqueTag } from './agent-fixtures';
import { uniquePhone } from './lead-contact';
import { OwnServer } from './own-server';
import { E2E_ADMIN, loginThroughUi, uniqueEmail } from './support';

const PORT = Number(process.env.E2E_PORT ?? 3100) + 37;
const DATABASE = `e2e_agency_${PORT}`;
const PG = 'postgres://postgres@127.0.0.1:5432';
const server = new OwnServer('agency-reclaim', PORT);
const BASE = server.base;
const SETTINGS = { DATABASE_URL: `${PG}/${DATABASE}` };

test.use({ baseURL: BASE });
test.describe.configure({ mode: 'serial' });

async function sql(database: string, text: string, values: unknown[] = []) {
  const client = new pg.Client({ connectionString: `${PG}/${database}` });
  await client.connect();
  try {
    return (await client.query(text, values)).rows;
  } finally {
    await client.end();
  }
}

test.beforeAll(async () => {
  test.setTimeout(120_000);
  await sql('postgres', `drop database if exists ${DATABASE} with (force)`);
  await sql('postgres', `create database ${DATABASE}`);
  await server.start(SETTINGS);
});

test.afterAll(async () => {
  await server.stop();
  await sql('postgres', `drop database if exists ${DATABASE} with (force)`);
});

const toast = (page: Page) => page.getByTestId('toast-viewport');

test('a posted lead reaches the member live; left untouched, the reclaim gives it to another member', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const admin = await request.newContext({ baseURL: BASE });
  expect((await admin.post('/api/auth/login', { data: E2E_ADMIN })).status()).toBe(200);
  const tag = uniqueTag('rc');
  const pkg = await admin.post('/api/admin/packages', {
    data: {
      name: `Agency Medicare ${tag}`,
      slug: `agency-medicare-${tag}`,
      category: 'MEDICARE',
      priceMonthlyCents: 9900,
      leadsPerDay: 10,
      commissionPct: 15,
      enrollmentOnly: false,
      services: { crm: true, callRecording: false, followUpMessage: false },
      active: true,
    },
  });
  expect(pkg.status(), await pkg.text()).toBe(201);
  const pkgName = (await pkg.json()).name as string;

  // two agents sign up
  const owner = { name: 'Odette Owner', email: uniqueEmail('owner'), password: 'plum-tree-41' };
  const member = { name: 'Milan Member', email: uniqueEmail('member'), password: 'plum-tree-42' };
  for (const who of [owner, member]) {
    const res = await admin.post('/api/auth/register', { data: who });
    expect(res.status(), await res.text()).toBe(201);
  }

  // the owner creates the agency, turns reclaim on and makes an invite link
  const ownerPage = await (await browser.newContext({ baseURL: BASE })).newPage();
  await loginThroughUi(ownerPage, owner.email, owner.password, /\/dashboard$/);
  await ownerPage.goto('/dashboard/agency');
  await ownerPage.getByLabel('Agency name').fill(`Harbor ${tag}`);
  await ownerPage.getByRole('button', { name: 'Create an agency' }).click();
  await ownerPage.getByRole('tab', { name: 'Settings' }).click();
  await ownerPage.getByLabel('Reclaim after (minutes)').fill('5');
  await ownerPage.getByRole('button', { name: 'Save settings' }).click();
  await expect(toast(ownerPage).getByText('Settings saved', { exact: true })).toBeVisible();
  await ownerPage.getByRole('tab', { name: 'Members' }).click();
  await ownerPage.getByRole('button', { name: 'Invite', exact: true }).click();
  await ownerPage
    .getByTestId('invite-dialog')
    .getByRole('button', { name: 'Create invite link' })
    .click();
  const url = await ownerPage
    .getByTestId('invite-link-dialog')
    .getByLabel('Invite link')
    .inputValue();
  await ownerPage.keyboard.press('Escape');

  // the new agent joins through the link, then opens My Leads
  const memberPage = await (await browser.newContext({ baseURL: BASE })).newPage();
  await loginThroughUi(memberPage, member.email, member.password, /\/dashboard$/);
  await memberPage.goto(new URL(url).pathname);
  await memberPage.getByRole('button', { name: `Join Harbor ${tag}` }).click();
  await expect(memberPage).toHaveURL(/\/dashboard\/agency$/);

  // the owner pays the member's package
  await ownerPage.reload();
  const row = ownerPage.getByTestId('member-row').filter({ hasText: member.name });
  await row.getByRole('button', { name: `Manage ${member.name}` }).click();
  const manage = ownerPage.getByTestId('manage-member-dialog');
  await manage.getByRole('combobox', { name: 'Package' }).click();
  await ownerPage.getByRole('option', { name: new RegExp(pkgName) }).click();
  await manage.getByRole('button', { name: 'Pay this package' }).click();
  await expect(row.getByTestId('paid-by-agency')).toBeVisible();

  const stream = memberPage.waitForResponse((r) => r.url().endsWith('/api/agent/events'));
  await memberPage.goto('/dashboard/leads');
  expect((await stream).status()).toBe(200);

  // a vendor posts a lead: it reaches the member's open page live
  const source = await admin.post('/api/admin/sources', {
    data: { name: `Vendor ${tag}`, costPerLeadCents: 2500 },
  });
  const key = await admin.post(`/api/admin/sources/${(await source.json()).id}/keys`);
  const vendor = await request.newContext({ baseURL: BASE });
  const posted = await vendor.post('/api/v1/leads', {
    headers: { authorization: `Bearer ${(await key.json()).key}` },
    data: {
      firstName: 'Rosa',
      lastName: `Reclaim${tag}`,
      phone: uniquePhone(),
      city: 'Austin',
      state: 'TX',
      age: 67,
      category: 'MEDICARE',
      externalId: tag,
    },
  });
  expect(posted.status(), await posted.text()).toBe(201);
  const leadId = (await posted.json()).id as number;
  const leadName = `Rosa Reclaim${tag}`;
  await expect(memberPage.locator('main').getByText(leadName, { exact: true })).toBeVisible();
  await expect(toast(memberPage).getByText(`New lead: ${leadName}`)).toBeVisible();

  // the owner takes a package too, so that someone else in the agency fits the lead
  const ownerId = (await (await ownerPage.request.get('/api/auth/me')).json()).id as number;
  const own = await ownerPage.request.put(`/api/agency/members/${ownerId}/subscription`, {
    data: { packageId: (await pkg.json()).id },
  });
  expect(own.status(), await own.text()).toBe(200);

  // the member leaves it untouched; the server is killed (no graceful stop) and is down when its
  // 5 minutes pass
  await server.stop('SIGKILL');
  await sql(
    DATABASE,
    `update leads set assigned_at = assigned_at - interval '1 day' where id = $1`,
    [leadId],
  );
  await server.start(SETTINGS, { keepData: true });

  // back up: the reclaim took the lead from the member and gave it to the owner
  await expect
    .poll(
      async () =>
        (await sql(DATABASE, 'select agent_id, reclaims from leads where id = $1', [leadId]))[0],
      { timeout: 30_000 },
    )
    .toEqual({ agent_id: ownerId, reclaims: 1 });

  // the owner sees it on the Book of business: theirs now, taken back once; and the bell says so
  await loginThroughUi(ownerPage, owner.email, owner.password, /\/dashboard$/);
  await ownerPage.goto('/dashboard/agency?tab=book');
  const bookRow = ownerPage.getByTestId('book-row').filter({ hasText: leadName });
  await expect(bookRow.getByTestId('book-member')).toHaveText(owner.name);
  await expect(bookRow).toContainText('Taken back 1 time');
  await ownerPage.getByRole('button', { name: /^Notifications/ }).click();
  await expect(ownerPage.getByRole('dialog', { name: 'Notifications' })).toContainText(leadName);
  await ownerPage.screenshot({
    path: '.tmp/screenshots/agency-reclaimed-1280.png',
    fullPage: true,
  });

  // and the member no longer has it
  await loginThroughUi(memberPage, member.email, member.password, /\/dashboard$/);
  await memberPage.goto('/dashboard/leads');
  await expect(memberPage.getByText('No leads found')).toBeVisible();
  await vendor.dispose();
  await admin.dispose();
});
