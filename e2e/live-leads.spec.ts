/**
 * Live updates (docs/domain.md, Delivery of assigned leads): an agent has My Leads open; a lead assigned elsewhere (an admin, the
 * intake API) appears without a reload, a toast names it and the bell counts it.
 */
import { type APIRequestContext, expect, type Page, request, test } from '@playwright/test';
import { createPackageApi, seedLeadsForAgent, uniqueTag } from './agent-fixtures';
import { uniquePhone } from './lead-contact';
import { createAgentViaApi, E2E_ADMIN, loginThroughUi } from './support';

test.describe.configure({ mode: 'serial' });

/** An API context of its own (cookie jar apart from the page), logged in as the e2e admin. */
async function adminApi(baseURL: string): Promise<APIRequestContext> {
  const ctx = await request.newContext({ baseURL });
  expect((await ctx.post('/api/auth/login', { data: E2E_ADMIN })).status()).toBe(200);
  return ctx;
}

/** A new agent signed in on the page, with My Leads open and its event stream connected. */
async function agentOnMyLeads(page: Page) {
  const agent = await createAgentViaApi(page, 'Live Agent');
  await loginThroughUi(page, agent.email, agent.password, /\/dashboard$/);
  const stream = page.waitForResponse((r) => r.url().endsWith('/api/agent/events'));
  await page.goto('/dashboard/leads');
  expect((await stream).status()).toBe(200);
  await expect(page.getByText('No leads found')).toBeVisible();
  // set on this document: still there at the end means the page was never reloaded
  await page.evaluate(() => {
    (window as unknown as { liveMarker: string }).liveMarker = 'same page';
  });
  return agent;
}

async function expectSamePage(page: Page) {
  expect(await page.evaluate(() => (window as unknown as { liveMarker?: string }).liveMarker)).toBe(
    'same page',
  );
}

const toast = (page: Page) => page.getByTestId('toast-viewport');
/** The lead's name on My Leads: a table row on a wide screen, a card on a phone. */
const leadOnList = (page: Page, name: string) =>
  page.locator('main').getByText(name, { exact: true });

for (const width of [1280, 375]) {
  test(`at ${width} px: a lead the admin assigns appears on My Leads with a toast and the bell counts it`, async ({
    page,
    baseURL,
  }) => {
    await page.setViewportSize({ width, height: width > 500 ? 800 : 740 });
    const agent = await agentOnMyLeads(page);
    const bell = page.getByRole('button', { name: /^Notifications/ });
    await expect(bell).toHaveAccessibleName('Notifications');

    const admin = await adminApi(baseURL!);
    const first = uniqueTag('Jane');
    // the tag is what the admin's search finds the imported lead by: it is the first name
    await seedLeadsForAgent(admin, agent.id, first, [
      {
        firstName: first,
        lastName: 'Doe',
        phone: uniquePhone(),
        email: `${first.toLowerCase()}@example.com`,
        city: 'Miami',
        state: 'FL',
        age: 67,
      },
    ]);

    await expect(leadOnList(page, `${first} Doe`)).toBeVisible();
    await expect(toast(page).getByText(`New lead: ${first} Doe`, { exact: true })).toBeVisible();
    await expect(toast(page).getByText('Miami, FL · MEDICARE')).toBeVisible();
    await expect(bell).toHaveAccessibleName('Notifications, 1 unread');
    await expectSamePage(page);

    // the toast leaves the header usable: the bell opens at once while the toast shows
    await bell.click({ timeout: 2000 });
    await expect(toast(page).getByText(`New lead: ${first} Doe`, { exact: true })).toBeVisible();
    const panel = page.getByRole('dialog', { name: 'Notifications' });
    await expect(panel.getByText(`New lead: ${first} Doe`)).toBeVisible();
    await expect(panel.getByText('just now')).toBeVisible();
    // toast and open panel together, inside the viewport (once the panel's fade-in is over)
    await panel.evaluate((el) => Promise.all(el.getAnimations().map((a) => a.finished)));
    await page.screenshot({ path: `.tmp/live-leads-${width}.png` });
    const box = await panel.boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(width);

    await panel.getByRole('button', { name: 'Mark all read' }).click();
    await expect(bell).toHaveAccessibleName('Notifications');
    await page.keyboard.press('Escape');
    await expect(panel).toBeHidden();
    await expect(bell).toBeFocused();
    await admin.dispose();
  });
}

test('the open dashboard counts a new lead without a reload', async ({ page, baseURL }) => {
  const agent = await createAgentViaApi(page, 'Live Dashboard Agent');
  const stream = page.waitForResponse((r) => r.url().endsWith('/api/agent/events'));
  await loginThroughUi(page, agent.email, agent.password, /\/dashboard$/);
  expect((await stream).status()).toBe(200);
  const total = page.getByTestId('card-total-leads');
  await expect(total).toHaveText(/^Total Leads\s*0\s*All time assigned$/);
  await page.evaluate(() => {
    (window as unknown as { liveMarker: string }).liveMarker = 'same page';
  });

  const admin = await adminApi(baseURL!);
  const first = uniqueTag('Dana');
  await seedLeadsForAgent(admin, agent.id, first, [
    {
      firstName: first,
      lastName: 'Lee',
      phone: uniquePhone(),
      email: `${first.toLowerCase()}@example.com`,
      city: 'Tulsa',
      state: 'OK',
      age: 70,
    },
  ]);
  await expect(total).toHaveText(/^Total Leads\s*1\s*All time assigned$/);
  await expect(toast(page).getByText(`New lead: ${first} Lee`, { exact: true })).toBeVisible();
  await expectSamePage(page);
  await admin.dispose();
});

test('a lead posted to the intake API with a source key reaches the open My Leads', async ({
  page,
  baseURL,
}) => {
  const admin = await adminApi(baseURL!);
  await agentOnMyLeads(page);
  // the agent is the one eligible for the intake's at-once assignment: a package of a category
  // no other test's agent holds
  const pkg = await createPackageApi(admin, {
    name: uniqueTag('Live ACA'),
    leadsPerDay: 5,
    priceMonthlyCents: 4900,
    category: 'ACA',
  });
  const subscribed = await page.request.post('/api/agent/subscription', {
    data: { packageId: pkg.id },
  });
  expect(subscribed.status(), await subscribed.text()).toBe(200);
  const source = await admin.post('/api/admin/sources', {
    data: { name: uniqueTag('Live source'), costPerLeadCents: 1500 },
  });
  expect(source.status(), await source.text()).toBe(201);
  const key = await admin.post(`/api/admin/sources/${(await source.json()).id}/keys`);
  expect(key.status(), await key.text()).toBe(201);

  const vendor = await request.newContext({ baseURL });
  const first = uniqueTag('Omar');
  const posted = await vendor.post('/api/v1/leads', {
    headers: { authorization: `Bearer ${(await key.json()).key}` },
    data: {
      firstName: first,
      lastName: 'Reyes',
      phone: uniquePhone(),
      city: 'Austin',
      state: 'TX',
      age: 44,
      category: 'ACA',
      externalId: uniqueTag('ext'),
    },
  });
  expect(posted.status(), await posted.text()).toBe(201);
  expect((await posted.json()).status).toBe('ASSIGNED');

  await expect(leadOnList(page, `${first} Reyes`)).toBeVisible();
  await expect(toast(page).getByText(`New lead: ${first} Reyes`, { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Notifications, 1 unread' })).toBeVisible();
  await expectSamePage(page);
  await vendor.dispose();
  await admin.dispose();
});
