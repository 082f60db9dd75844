import { type APIRequestContext, expect, test } from '@playwright/test';
import { createPackageApi, loginAdminApi, uniqueTag } from './agent-fixtures';
import { loginAsAdmin, loginThroughUi, uniqueEmail } from './support';

/** A CSV of leads through the admin's import; their ids by first name. */
async function importLeads(admin: APIRequestContext, tag: string, names: string[]) {
  const header = 'firstName,lastName,phone,email,city,state,age,category,externalId';
  const rows = names.map(
    (name, i) =>
      `${name},${tag},802-${200 + Math.floor(Math.random() * 700)}-${String(1000 + i).slice(-4)},${name.toLowerCase()}.${tag}@example.com,Burlington,VT,70,FINAL_EXPENSE,${tag}-${i}`,
  );
  const res = await admin.post('/api/admin/leads/import', {
    multipart: {
      file: {
        name: `${tag}.csv`,
        mimeType: 'text/csv',
        buffer: Buffer.from(`${[header, ...rows].join('\n')}\n`),
      },
    },
  });
  expect(res.status(), await res.text()).toBe(200);
  const listed = await admin.get(`/api/admin/leads?q=${tag}&limit=50`);
  const leads = (await listed.json()) as {
    id: number;
    firstName: string;
    agentId: number | null;
  }[];
  return new Map(leads.map((l) => [l.firstName, l]));
}

test('an agent returns a lead from the drawer, an admin approves it, a replacement arrives', async ({
  page,
  browser,
  playwright,
  baseURL,
}) => {
  const admin = await playwright.request.newContext({ baseURL });
  await loginAdminApi(admin);
  const tag = uniqueTag('ret');
  const pkg = await createPackageApi(admin, {
    name: `Final ${tag}`,
    leadsPerDay: 1,
    priceMonthlyCents: 5_000,
    category: 'FINAL_EXPENSE',
  });
  // the agent: one lead a day, Vermont only
  const agentCtx = await playwright.request.newContext({ baseURL });
  const email = uniqueEmail('ret');
  const password = 'secret123';
  const reg = await agentCtx.post('/api/auth/register', {
    data: { name: 'Rita Return', email, password },
  });
  const agentId = (await reg.json()).user.id as number;
  await agentCtx.post('/api/auth/login', { data: { email, password } });
  expect(
    (await agentCtx.post('/api/agent/subscription', { data: { packageId: pkg.id } })).status(),
  ).toBe(200);
  await agentCtx.put('/api/agent/preferences', {
    data: { states: ['VT'], cities: [], ageMin: null, ageMax: null, categories: [] },
  });
  // Earlier specs' agents with a FINAL_EXPENSE package and quota left would take the spare (the
  // e2e database is shared by the specs, one after another): their subscriptions end here.
  const agents = (await (await admin.get('/api/admin/agents')).json()) as {
    id: number;
    subscription: { status: string; package: { category: string } | null } | null;
  }[];
  for (const other of agents) {
    const sub = other.subscription;
    if (other.id === agentId || sub?.status !== 'ACTIVE') continue;
    if (sub.package?.category !== 'FINAL_EXPENSE') continue;
    const res = await admin.patch(`/api/admin/agents/${other.id}/subscription`, {
      data: { status: 'INACTIVE' },
    });
    expect(res.status()).toBe(200);
  }
  // the bad lead, assigned to the agent; then a spare that waits (the agent is full today)
  const first = await importLeads(admin, tag, ['Bad']);
  const bad = first.get('Bad')!;
  if (bad.agentId === null) {
    const res = await admin.post('/api/admin/leads/assign', {
      data: { leadId: bad.id, userId: agentId },
    });
    expect(res.status()).toBe(200);
  }
  const spareTag = `${tag}s`;
  const second = await importLeads(admin, spareTag, ['Spare']);
  expect(second.get('Spare')!.agentId).toBeNull();

  // the agent asks for the return in the lead's drawer
  await loginThroughUi(page, email, password, /\/dashboard$/);
  await page.goto('/dashboard/leads');
  const row = page.getByTestId('lead-row').filter({ hasText: `Bad ${tag}` });
  await row.getByRole('button', { name: /Update Status/ }).click();
  const drawer = page.getByTestId('update-status-drawer');
  const section = drawer.getByTestId('lead-return');
  await section.getByRole('button', { name: 'Return this lead' }).click();
  await section.getByRole('button', { name: 'Request return' }).click();
  await expect(section.getByRole('alert')).toHaveText('Choose a reason');
  await section.getByLabel('Reason').click();
  await page.getByRole('option', { name: 'Wrong number' }).click();
  await section.getByLabel('Note (optional)').fill('Number disconnected');
  await page.setViewportSize({ width: 1280, height: 900 });
  await section.getByRole('button', { name: 'Request return' }).click();
  await expect(section.getByTestId('lead-return-state')).toContainText('Return requested');
  await expect(section.getByTestId('lead-return-state')).toContainText('Wrong number');
  await expect(drawer.getByText('Return requested').last()).toBeVisible();
  await page.screenshot({ path: '.tmp/returns-drawer-1280.png', fullPage: true });

  // an admin approves it in the Returns queue
  const adminPage = await browser.newPage();
  await loginAsAdmin(adminPage);
  // the menu counts the returns waiting
  await expect(adminPage.getByTestId('pending-returns')).toBeVisible();
  await adminPage.getByRole('link', { name: 'Returns' }).click();
  await expect(adminPage).toHaveURL(/\/admin\/returns$/);
  await expect(adminPage.getByRole('heading', { name: 'Returns', level: 1 })).toBeVisible();
  const card = adminPage.getByTestId('return-item').filter({ hasText: `Bad ${tag}` });
  await expect(card).toContainText('Wrong number');
  await expect(card).toContainText('Rita Return');
  await expect(card).toContainText('Number disconnected');
  await adminPage.screenshot({ path: '.tmp/returns-queue-1280.png', fullPage: true });
  await adminPage.setViewportSize({ width: 375, height: 800 });
  await adminPage.screenshot({ path: '.tmp/returns-queue-375.png', fullPage: true });
  await adminPage.setViewportSize({ width: 1280, height: 900 });
  await card.getByLabel('Note to the agent (optional)').fill('Confirmed');
  await card.getByRole('button', { name: 'Approve' }).click();
  await expect(adminPage.getByTestId('toast-viewport').getByText('Return approved')).toBeVisible();
  await expect(card).toBeHidden();
  await adminPage.getByRole('tab', { name: 'Approved' }).click();
  await expect(
    adminPage.getByTestId('return-item').filter({ hasText: `Bad ${tag}` }),
  ).toContainText('Approved by');

  // the agent sees the replacement in My Leads, and the returned lead as Invalid
  await page.goto('/dashboard/leads');
  await expect(page.getByTestId('lead-row').filter({ hasText: `Spare ${spareTag}` })).toBeVisible();
  const returned = page.getByTestId('lead-row').filter({ hasText: `Bad ${tag}` });
  await expect(returned).toContainText('Invalid');
  await returned.getByRole('button', { name: /Update Status/ }).click();
  await expect(drawer.getByTestId('lead-return-state')).toContainText('Return approved');
  await expect(drawer.getByTestId('lead-return-state')).toContainText('Confirmed');
  await page.setViewportSize({ width: 375, height: 800 });
  await page.screenshot({ path: '.tmp/returns-drawer-375.png', fullPage: true });
  await adminPage.close();
});
