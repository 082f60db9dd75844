/**
 * Links that open a lead, the list an agent works from, and offboarding, in the browser
 * (docs/domain.md, Lists, search and export; Offboarding): a `?lead=ID` link (the lead email's
 * "Open it", the bell) opens that lead's drawer for its agent only; My Leads shows when each lead
 * was received, the uncontacted first, keeps its order, status filter and search in the URL and
 * marks a pending return; an admin reassigns a lead being worked and disables the agent who had
 * it. Screenshots at 1280 and 375 px (axe-checked) go to .tmp/screenshots/.
 */
import { mkdirSync } from 'node:fs';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { createPackageApi, loginAdminApi, seedLeadsForAgent, uniqueTag } from './agent-fixtures';
import { SHOTS, shoot } from './screenshots';
import { createAgentViaApi, loginAsAdmin, loginThroughUi } from './support';

test.beforeAll(() => mkdirSync(SHOTS, { recursive: true }));

const toast = (page: Page, text: string) =>
  page.getByTestId('toast-viewport').getByText(text, { exact: true });

/** An agent with an ACTIVE MEDICARE package (so a lead being worked may be reassigned to them). */
async function subscribedAgent(page: Page, request: APIRequestContext, name: string) {
  const agent = await createAgentViaApi(page, name);
  const pkg = await createPackageApi(request, {
    name: uniqueTag('Medicare Pro'),
    leadsPerDay: 20,
    priceMonthlyCents: 9900,
    category: 'MEDICARE',
  });
  const own = await page
    .context()
    .browser()!
    .newContext({ baseURL: test.info().project.use.baseURL });
  const login = await own.request.post('/api/auth/login', {
    data: { email: agent.email, password: agent.password },
  });
  expect(login.status()).toBe(200);
  const sub = await own.request.post('/api/agent/subscription', { data: { packageId: pkg.id } });
  expect(sub.status(), await sub.text()).toBeLessThan(300);
  await own.close();
  return agent;
}

const lead = (tag: string, firstName: string, i: number) => ({
  firstName,
  lastName: `Lane${tag}`,
  phone: `2125550${String(100 + i).padStart(3, '0')}`,
  email: `${firstName.toLowerCase()}.${tag}@example.com`,
  city: 'Austin',
  state: 'TX',
  age: 67,
});

test('a lead link or the bell opens its drawer for its agent only; My Leads lists the uncontacted first, newest received first, and keeps its order and filters in the URL', async ({
  page,
  request,
}) => {
  await loginAdminApi(request);
  const tag = uniqueTag('ml');
  const agent = await createAgentViaApi(page, 'Link Agent');
  const other = await createAgentViaApi(page, 'Other Agent');
  const ids = await seedLeadsForAgent(request, agent.id, tag, [
    lead(tag, 'Olive', 1),
    lead(tag, 'Pablo', 2),
    lead(tag, 'Quinn', 3),
  ]);
  const theirs = await seedLeadsForAgent(request, other.id, `${tag}x`, [
    lead(`${tag}x`, 'Secret', 4),
  ]);
  const olive = ids.get(`olive.${tag}@example.com`)!;
  const quinn = ids.get(`quinn.${tag}@example.com`)!;

  await loginThroughUi(page, agent.email, agent.password, /\/dashboard$/);
  // Olive is worked already (contacted); Quinn's return waits for an admin
  expect(
    (
      await page.request.post(`/api/agent/leads/${olive}/status`, { data: { status: 'CONTACTED' } })
    ).status(),
  ).toBe(200);
  expect(
    (
      await page.request.post(`/api/agent/leads/${quinn}/return`, {
        data: { reason: 'WRONG_NUMBER' },
      })
    ).status(),
  ).toBe(201);

  // the bell's notification of a new lead, from the dashboard
  const pablo = ids.get(`pablo.${tag}@example.com`)!;
  const drawer = page.getByTestId('update-status-drawer');
  await page.getByRole('button', { name: /^Notifications/ }).click();
  await page
    .getByRole('dialog', { name: 'Notifications' })
    .getByRole('link', { name: new RegExp(`^New lead: Pablo Lane${tag}`) })
    .click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/leads\\?lead=${pablo}$`));
  await expect(drawer).toContainText(`Pablo Lane${tag}`);
  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();

  // the email's "Open it" link
  await page.goto(`/dashboard/leads?lead=${olive}`);
  await expect(drawer.getByRole('heading', { name: 'Update Lead Status' })).toBeVisible();
  await expect(drawer).toContainText(`Olive Lane${tag}`);
  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();
  await expect(page).toHaveURL(/\/dashboard\/leads$/);

  // another agent's lead: the plain list, a toast, nothing of that lead
  const secret = [...theirs.values()][0];
  await page.goto(`/dashboard/leads?lead=${secret}`);
  await expect(toast(page, 'This lead is not yours')).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard\/leads$/);
  await expect(page.getByTestId('update-status-drawer')).toBeHidden();
  await expect(page.getByText('Secret')).toHaveCount(0);

  // the uncontacted first (newest first), then the rest; each row says when it came
  const rows = page.getByTestId('lead-row');
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(2)).toContainText('Olive');
  await expect(rows.nth(2).getByTestId('lead-status')).toHaveText('Contacted');
  const received = rows.first().getByTestId('lead-received');
  await expect(received).toHaveText(/just now|min ago/);
  await expect(received).toHaveAttribute('title', /\d{4}, \d{1,2}:\d{2}/);
  await expect(rows.filter({ hasText: 'Quinn' }).getByTestId('return-pending')).toHaveText(
    'Return pending',
  );
  // axe checks the list, not the toast above fading out while it reads the page (under load)
  await expect(toast(page, 'This lead is not yours')).toBeHidden();
  await shoot(page, 'my-leads-sorted', { axe: true });

  // the order is in the URL: a reload keeps it, back returns to the default
  await page.getByLabel('Sort by received').click();
  await page.getByRole('option', { name: 'Oldest first' }).click();
  await expect(page).toHaveURL(/sort=oldest/);
  await page.reload();
  await expect(page.getByLabel('Sort by received')).toHaveText('Oldest first');
  await page.goBack();
  await expect(page).not.toHaveURL(/sort=/);

  // the name opens the lead, as Update Status does
  await rows.filter({ hasText: 'Pablo' }).getByTestId('lead-open').click();
  await expect(page.getByTestId('update-status-drawer')).toContainText(`Pablo Lane${tag}`);
  await expect(page).toHaveURL(new RegExp(`lead=${pablo}`));
  await page.keyboard.press('Escape');

  // the status filter and the search are in the URL too: a reload keeps both
  await page.getByLabel('Filter by status').click();
  await page.getByRole('option', { name: 'Assigned', exact: true }).click();
  await expect(page).toHaveURL(/status=ASSIGNED/);
  await expect(rows).toHaveCount(2);
  await page.getByLabel('Search leads').fill('Quinn');
  await expect(page).toHaveURL(/q=Quinn/);
  await expect(rows).toHaveCount(1);
  await page.reload();
  await expect(page.getByLabel('Filter by status')).toHaveText('Assigned');
  await expect(page.getByLabel('Search leads')).toHaveValue('Quinn');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(`Quinn Lane${tag}`);
});

test('an admin reassigns a lead being worked to an agent who fits, then disables the agent who had it', async ({
  page,
  request,
}) => {
  await loginAdminApi(request);
  const tag = uniqueTag('rs');
  const leaving = await createAgentViaApi(page, `Leaving ${tag}`);
  // seeded first: the import's run would give the lead to the subscribed agent
  const ids = await seedLeadsForAgent(request, leaving.id, tag, [lead(tag, 'Rita', 5)]);
  const rita = ids.get(`rita.${tag}@example.com`)!;
  const taking = await subscribedAgent(page, request, `Taking ${tag}`);
  try {
    await reassignThenDisable(page, { tag, rita, leaving, taking });
  } finally {
    // a subscribed agent left behind would take the leads other specs import on this server
    await request.patch(`/api/admin/users/${taking.id}`, { data: { disabled: true } });
  }
});

async function reassignThenDisable(
  page: Page,
  {
    tag,
    rita,
    leaving,
    taking,
  }: {
    tag: string;
    rita: number;
    leaving: { email: string; password: string };
    taking: { email: string };
  },
) {
  await loginAsAdmin(page);
  await page.goto(`/admin/leads?lead=${rita}`);
  await expect(page.getByRole('dialog')).toContainText(`Rita Lane${tag}`);
  await page.keyboard.press('Escape');
  await page.getByLabel('Search leads').fill(tag);
  const row = page.getByTestId('lead-row').filter({ hasText: `Rita Lane${tag}` });
  await row.getByRole('button', { name: `Reassign Rita Lane${tag}` }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('heading', { name: 'Reassign Lead' })).toBeVisible();
  await expect(dialog).toContainText(`now with Leaving ${tag}`);
  await dialog.getByLabel('Select Agent').click();
  await expect(page.getByRole('option').filter({ hasText: `Leaving ${tag}` })).toHaveCount(0);
  await page.getByRole('option').filter({ hasText: taking.email }).click();
  await dialog.getByRole('button', { name: 'Reassign Lead' }).click();
  await expect(toast(page, 'Lead reassigned')).toBeVisible();
  await expect(row.getByTestId('lead-agent')).toContainText(`Taking ${tag}`);

  await page.getByRole('link', { name: 'Agents' }).first().click();
  const agentRow = page.getByTestId('agent-row').filter({ hasText: leaving.email });
  await agentRow.getByRole('button', { name: `Disable Leaving ${tag}` }).click();
  await expect(toast(page, 'Account disabled')).toBeVisible();
  await expect(agentRow.getByTestId('agent-disabled')).toHaveText('Disabled');

  // the disabled agent cannot sign in
  const ownPage = await page.context().browser()!.newPage({
    baseURL: test.info().project.use.baseURL,
  });
  await ownPage.goto('/login');
  await ownPage.getByLabel('Email').fill(leaving.email);
  await ownPage.getByLabel('Password').fill(leaving.password);
  await ownPage.getByRole('button', { name: 'Log In' }).click();
  await expect(toast(ownPage, 'This account is disabled')).toBeVisible();
  await ownPage.close();
}
