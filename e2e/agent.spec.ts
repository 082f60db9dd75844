import { expect, type Page, test } from '@playwright/test';
import { createPackageApi, loginAdminApi, seedLeadsForAgent, uniqueTag } from './agent-fixtures';
import { createAgentViaApi, loginThroughUi } from './support';

async function newAgentOnDashboard(page: Page, name = 'Dana Agent') {
  const agent = await createAgentViaApi(page, name);
  await loginThroughUi(page, agent.email, agent.password, /\/dashboard$/);
  return agent;
}

const toast = (page: Page, title: string) =>
  page.getByTestId('toast-viewport').getByText(title, { exact: true });

test.describe('agent workspace', () => {
  test('a new agent picks a package and the dashboard shows it', async ({ page, request }) => {
    await loginAdminApi(request);
    const tag = uniqueTag('pkg');
    const pkg = await createPackageApi(request, {
      name: `Final Expense ${tag}`,
      leadsPerDay: 9,
      priceMonthlyCents: 12_900,
    });

    await newAgentOnDashboard(page);
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
    await expect(page.getByText("Welcome back! Here's your overview")).toBeVisible();
    const currentCard = page.getByTestId('card-current-package');
    await expect(currentCard).toContainText('No package');
    // no subscription, no quota: N/A and why, as the admin's table says it (never "0 / 0")
    const quotaCard = page.getByTestId('card-today-quota');
    await expect(quotaCard).toContainText('N/A');
    await expect(quotaCard).toContainText('No active subscription');
    await expect(quotaCard).not.toContainText('0 / 0');
    await expect(quotaCard.getByRole('progressbar')).toHaveCount(0);
    await expect(page.getByTestId('card-total-leads')).toContainText('All time assigned');
    await expect(page.getByTestId('card-conversion-rate')).toContainText('0.0%');
    await expect(page.getByRole('link', { name: 'View My Leads' })).toHaveAttribute(
      'href',
      '/dashboard/leads',
    );
    await expect(page.getByRole('link', { name: 'Set Preferences' })).toHaveAttribute(
      'href',
      '/dashboard/preferences',
    );

    // offered after the first login: no subscription yet
    const callout = page.getByTestId('choose-package-callout');
    await expect(callout).toContainText('Choose your package');
    await callout.getByRole('link', { name: 'Choose a Package' }).click();
    await expect(page).toHaveURL(/\/dashboard\/package$/);

    const card = page.getByTestId('package-card').filter({ hasText: pkg.name });
    await expect(card).toContainText('$129');
    await expect(card).toContainText('9 leads per day');
    // one click asks first, with the price to the cent; "Not Now" sends nothing
    const subscribeCalls: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/agent/subscription')) subscribeCalls.push(request.method());
    });
    await card.getByRole('button', { name: /Subscribe/ }).click();
    const confirm = page.getByRole('dialog');
    await expect(confirm.getByRole('heading')).toHaveText(
      `Subscribe to ${pkg.name} for $129.00/month?`,
    );
    await expect(confirm).toContainText('up to 9 FINAL EXPENSE leads a day');
    await confirm.getByRole('button', { name: 'Not Now' }).click();
    await expect(confirm).toBeHidden();
    expect(subscribeCalls).toEqual([]);
    await card.getByRole('button', { name: /Subscribe/ }).click();
    await confirm.getByRole('button', { name: 'Subscribe', exact: true }).click();

    await expect(page).toHaveURL(/\/dashboard$/);
    expect(subscribeCalls).toEqual(['POST']);
    await expect(toast(page, 'Subscribed')).toBeVisible();
    await expect(currentCard).toContainText(pkg.name);
    await expect(currentCard).toContainText('$129/month');
    const badge = currentCard.getByTestId('subscription-status');
    await expect(badge).toHaveText('Active');
    await expect(badge).toHaveAttribute('data-variant', 'default');
    await expect(page.getByTestId('card-today-quota')).toContainText('0 / 9');
    await expect(page.getByTestId('card-today-quota')).toContainText('9 leads remaining today');
    await expect(callout).toHaveCount(0);

    // the Current Package card leads back to the screen, where cancelling is possible
    await currentCard.getByRole('link', { name: 'Change package' }).click();
    await expect(page).toHaveURL(/\/dashboard\/package$/);
    await expect(
      page.getByTestId('package-card').filter({ hasText: pkg.name }).getByRole('button'),
    ).toHaveText('Current Package');
    await page.getByRole('button', { name: 'Cancel Subscription' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel Subscription' }).click();
    await expect(toast(page, 'Subscription canceled')).toBeVisible();
    await expect(
      page.getByTestId('current-subscription').getByTestId('subscription-status'),
    ).toHaveText('Canceled');

    await page.getByRole('link', { name: 'Dashboard', exact: true }).click();
    await expect(badge).toHaveText('Canceled');
    await expect(badge).toHaveAttribute('data-variant', 'secondary');
    await expect(quotaCard).toContainText('N/A');
    await expect(quotaCard).toContainText('Subscription canceled');
  });

  test('search and the status filter narrow the table; the drawer updates a status', async ({
    page,
    request,
  }) => {
    await loginAdminApi(request);
    const agent = await newAgentOnDashboard(page, 'Lena Leads');
    const tag = uniqueTag('lead');
    const ids = await seedLeadsForAgent(request, agent.id, tag, [
      {
        firstName: 'Alice',
        lastName: 'Moreno',
        phone: '(305) 555-7001',
        email: `alice.${tag}@e2e.test`,
        city: 'Miami',
        state: 'FL',
        age: 68,
      },
      {
        firstName: 'Bob',
        lastName: 'Nakamura',
        phone: '214-555-7002',
        email: `bob.${tag}@e2e.test`,
        city: 'Dallas',
        state: 'TX',
        age: 72,
      },
      {
        firstName: 'Carol',
        lastName: 'Okafor',
        phone: '602-555-8003',
        email: `carol.${tag}@e2e.test`,
        city: 'Phoenix',
        state: 'AZ',
        age: 66,
      },
      {
        firstName: 'Dan',
        lastName: 'Moreno',
        phone: '813-555-8004',
        email: `dan.${tag}@e2e.test`,
        city: 'Tampa',
        state: 'FL',
        age: 80,
      },
    ]);
    // one lead already contacted, through the agent's own API
    const contacted = await page.request.post(
      `/api/agent/leads/${ids.get(`bob.${tag}@e2e.test`)}/status`,
      { data: { status: 'CONTACTED' } },
    );
    expect(contacted.status()).toBe(200);

    // loading shows 3 skeleton rows
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(
      (url) => url.pathname === '/api/agent/leads',
      async (route) => {
        await held;
        await route.continue();
      },
      { times: 1 },
    );
    await page.getByRole('link', { name: 'My Leads', exact: true }).click();
    await expect(page.getByTestId('lead-row-skeleton')).toHaveCount(3);
    release();

    const rows = page.getByTestId('lead-row');
    const count = page.getByTestId('lead-count');
    await expect(rows).toHaveCount(4);
    await expect(count).toHaveText('4 leads');
    for (const column of ['Name', 'Contact', 'Location', 'Age', 'Category', 'Status']) {
      await expect(page.getByRole('columnheader', { name: column, exact: true })).toBeVisible();
    }
    const alice = rows.filter({ hasText: 'Alice Moreno' });
    // stored in E.164, shown as people read it
    await expect(alice).toContainText('(305) 555-7001');
    await expect(alice).toContainText(`alice.${tag}@e2e.test`);
    await expect(alice).toContainText('Miami, FL');
    await expect(alice).toContainText('68');
    await expect(alice).toContainText('MEDICARE');
    await expect(alice).toContainText('Assigned');

    const search = page.getByRole('searchbox', { name: 'Search leads' });
    await search.fill('moreno');
    await expect(rows).toHaveCount(2);
    await expect(count).toHaveText('2 leads');
    await search.fill('5558');
    await expect(rows).toHaveCount(2);
    await expect(rows.filter({ hasText: 'Carol Okafor' })).toHaveCount(1);
    await search.fill(`BOB.${tag.toUpperCase()}`);
    await expect(rows).toHaveCount(1);
    await expect(count).toHaveText('1 lead');
    await search.fill('nobody-matches-this');
    await expect(page.getByText('No leads found')).toBeVisible();
    await expect(count).toHaveText('0 leads');
    await search.fill('');
    await expect(rows).toHaveCount(4);

    const filter = page.getByRole('combobox', { name: 'Filter by status' });
    await filter.click();
    const options = page.getByRole('option');
    await expect(options).toHaveText([
      'All Status',
      'New',
      'Assigned',
      'Contacted',
      'In Progress',
      'Converted',
      'Invalid',
    ]);
    await page.getByRole('option', { name: 'Contacted' }).click();
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText('Bob Nakamura');
    await filter.click();
    await page.getByRole('option', { name: 'Converted' }).click();
    await expect(page.getByText('No leads found')).toBeVisible();
    await filter.click();
    await page.getByRole('option', { name: 'All Status' }).click();
    await expect(rows).toHaveCount(4);

    // the drawer: details, submit disabled until a status is chosen, then the change shows
    await alice.getByRole('button', { name: /Update Status/ }).click();
    const drawer = page.getByTestId('update-status-drawer');
    await expect(drawer.getByText('Update Lead Status')).toBeVisible();
    for (const text of [
      'Alice Moreno',
      '(305) 555-7001',
      `alice.${tag}@e2e.test`,
      'Miami, FL',
      'Assigned',
    ]) {
      await expect(drawer).toContainText(text);
    }
    const submit = drawer.getByRole('button', { name: 'Update Status' });
    await expect(submit).toBeDisabled();
    await drawer.getByLabel('New Status').click();
    await expect(page.getByRole('option')).toHaveText([
      'Contacted',
      'In Progress',
      'Converted',
      'Invalid',
    ]);
    await page.getByRole('option', { name: 'Converted' }).click();
    await expect(submit).toBeEnabled();
    await submit.click();
    await expect(toast(page, 'Status updated')).toBeVisible();
    await expect(drawer).toBeHidden();
    await expect(alice).toContainText('Converted');

    await filter.click();
    await page.getByRole('option', { name: 'Converted' }).click();
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText('Alice Moreno');

    // a failed update shows the server's message
    await page.route('**/api/agent/leads/*/status', (route) =>
      route.fulfill({ status: 404, json: { message: 'Lead not found' } }),
    );
    await rows
      .first()
      .getByRole('button', { name: /Update Status/ })
      .click();
    await drawer.getByLabel('New Status').click();
    await page.getByRole('option', { name: 'Invalid' }).click();
    await drawer.getByRole('button', { name: 'Update Status' }).click();
    await expect(toast(page, 'Update failed')).toBeVisible();
    await expect(page.getByTestId('toast-viewport')).toContainText('Lead not found');

    // the dashboard counts the conversion
    await expect(drawer).toBeVisible();
    await drawer.getByRole('button', { name: 'Cancel' }).click();
    await expect(drawer).toBeHidden();
    await page.getByRole('link', { name: 'Dashboard', exact: true }).click();
    await expect(page.getByTestId('card-total-leads')).toContainText('4');
    await expect(page.getByTestId('card-conversion-rate')).toContainText('25.0%');
  });

  test('a long list comes a page at a time, in the order the server gives', async ({
    page,
    request,
  }) => {
    await loginAdminApi(request);
    const agent = await newAgentOnDashboard(page, 'Paula Pages');
    const tag = uniqueTag('page');
    await seedLeadsForAgent(
      request,
      agent.id,
      tag,
      Array.from({ length: 55 }, (_, i) => ({
        firstName: 'Page',
        lastName: `Lead${String(i).padStart(2, '0')}`,
        phone: `212-555-9${String(i).padStart(3, '0')}`,
        email: `page${i}.${tag}@e2e.test`,
        city: 'Austin',
        state: 'TX',
        age: 70,
      })),
    );
    await page.getByRole('link', { name: 'My Leads', exact: true }).click();
    const rows = page.getByTestId('lead-row');
    await expect(page.getByTestId('lead-count')).toHaveText('55 leads');
    await expect(rows).toHaveCount(50);
    await expect(page.getByTestId('page-range')).toHaveText('Showing 1–50 of 55');
    await expect(page.getByRole('button', { name: 'Previous' })).toBeDisabled();
    await page.getByRole('button', { name: 'Next' }).click();
    await expect(page.getByTestId('page-range')).toHaveText('Showing 51–55 of 55');
    await expect(rows).toHaveCount(5);
    await expect(page.getByRole('button', { name: 'Next' })).toBeDisabled();
    await expect(page.getByRole('button', { name: 'Previous' })).toBeEnabled();
    // the 51st lead of My Leads' order (the uncontacted first, newest received first)
    const [fiftyFirst] = await (
      await page.request.get('/api/agent/leads?limit=1&offset=50')
    ).json();
    await expect(rows.first()).toContainText(`${fiftyFirst.firstName} ${fiftyFirst.lastName}`);
    // a search goes back to the first page and counts its own matches
    await page.getByRole('searchbox', { name: 'Search leads' }).fill('lead0');
    await expect(page.getByTestId('lead-count')).toHaveText('10 leads');
    await expect(rows).toHaveCount(10);
    await expect(page.getByTestId('page-range')).toHaveText('Showing 1–10 of 10');
  });

  test('preferences saved survive a reload; a refused save shows Save failed', async ({ page }) => {
    await newAgentOnDashboard(page, 'Pat Prefs');
    await page.getByRole('link', { name: 'Preferences', exact: true }).click();
    await expect(page).toHaveURL(/\/dashboard\/preferences$/);

    // the 50 states, DC and Puerto Rico
    const stateButtons = page.locator('button[aria-pressed]');
    await expect(stateButtons).toHaveCount(52);
    const tx = page.getByRole('button', { name: 'TX', exact: true });
    const fl = page.getByRole('button', { name: 'FL', exact: true });
    await tx.click();
    await fl.click();
    await page.getByRole('button', { name: 'CA', exact: true }).click();
    await page.getByRole('button', { name: 'CA', exact: true }).click();
    await expect(tx).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByRole('button', { name: 'CA', exact: true })).toHaveAttribute(
      'aria-pressed',
      'false',
    );

    await page.getByLabel('Cities').fill(' Miami , , Dallas,');
    const min = page.getByLabel('Minimum Age');
    const max = page.getByLabel('Maximum Age');
    await expect(min).toHaveAttribute('placeholder', '18');
    await expect(max).toHaveAttribute('placeholder', '100');
    await expect(min).toHaveAttribute('min', '18');
    await expect(max).toHaveAttribute('max', '120');
    await min.fill('30');
    await max.fill('70');
    await page.getByLabel('MEDICARE').check();
    await page.getByLabel('FINAL EXPENSE').check();
    await page.getByRole('button', { name: 'Save Preferences' }).click();
    await expect(toast(page, 'Preferences saved')).toBeVisible();

    await page.reload();
    await expect(page.getByRole('button', { name: 'TX', exact: true })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await expect(page.getByRole('button', { name: 'FL', exact: true })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await expect(page.locator('button[aria-pressed="true"]')).toHaveCount(2);
    await expect(page.getByLabel('Cities')).toHaveValue('Miami, Dallas');
    await expect(page.getByLabel('Minimum Age')).toHaveValue('30');
    await expect(page.getByLabel('Maximum Age')).toHaveValue('70');
    await expect(page.getByLabel('MEDICARE')).toBeChecked();
    await expect(page.getByLabel('ACA')).not.toBeChecked();
    await expect(page.getByLabel('FINAL EXPENSE')).toBeChecked();

    // minimum above maximum: the server refuses with its message
    await page.getByLabel('Minimum Age').fill('80');
    await page.getByRole('button', { name: 'Save Preferences' }).click();
    await expect(toast(page, 'Save failed')).toBeVisible();
    await expect(page.getByTestId('toast-viewport')).toContainText(
      'Minimum age cannot be above maximum age',
    );

    // a failure without a message shows the fallback
    await page.route('**/api/agent/preferences', (route) =>
      route.request().method() === 'PUT'
        ? route.fulfill({ status: 500, body: '' })
        : route.continue(),
    );
    await page.getByLabel('Minimum Age').fill('');
    await page.getByRole('button', { name: 'Save Preferences' }).click();
    await expect(page.getByTestId('toast-viewport')).toContainText('Failed to save preferences');

    await page.unroute('**/api/agent/preferences');
    await page.reload();
    await expect(page.getByLabel('Minimum Age')).toHaveValue('30');
    await expect(page.getByLabel('Maximum Age')).toHaveValue('70');
  });
});
