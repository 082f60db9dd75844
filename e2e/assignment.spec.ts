import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { createPackageApi, loginAdminApi, uniqueTag } from './agent-fixtures';
import { loginAsAdmin, uniqueEmail } from './support';

const toastViewport = (page: Page) => page.getByTestId('toast-viewport');

async function importLeads(admin: APIRequestContext, tag: string, rows: string[]) {
  // every lead needs a phone or an email: one of this file's own each
  const csv = [
    'firstName,lastName,city,state,age,category,externalId,email',
    ...rows.map((row, i) => `${row},${tag}-${i}@e2e.test`),
  ].join('\n');
  const res = await admin.post('/api/admin/leads/import', {
    multipart: { file: { name: `${tag}.csv`, mimeType: 'text/csv', buffer: Buffer.from(csv) } },
  });
  expect(res.status(), await res.text()).toBe(200);
}

test.describe('assignment engine on the admin dashboard', () => {
  test('Run assignment now hands waiting leads to an agent and says so in a toast', async ({
    page,
    playwright,
    baseURL,
  }) => {
    const admin = await playwright.request.newContext({ baseURL });
    const agent = await playwright.request.newContext({ baseURL });
    await loginAdminApi(admin);
    const tag = uniqueTag('asg');
    const pkg = await createPackageApi(admin, {
      name: `ACA ${tag}`,
      leadsPerDay: 2,
      priceMonthlyCents: 5_000,
      category: 'ACA',
    });
    // leads arrive before the agent subscribes, so the import's own run cannot give them to it
    await importLeads(
      admin,
      tag,
      [1, 2, 3].map((i) => `Wy${i},${tag},Cheyenne,WY,${30 + i},ACA,${tag}-${i}`),
    );

    const email = uniqueEmail('asg');
    const password = 'secret123';
    const reg = await agent.post('/api/auth/register', {
      data: { name: 'Wyatt', email, password },
    });
    expect(reg.status()).toBe(201);
    expect((await agent.post('/api/auth/login', { data: { email, password } })).status()).toBe(200);
    expect(
      (await agent.post('/api/agent/subscription', { data: { packageId: pkg.id } })).status(),
    ).toBe(200);
    const prefs = await agent.put('/api/agent/preferences', {
      data: { states: ['WY'], cities: [], ageMin: null, ageMax: null, categories: [] },
    });
    expect(prefs.status(), await prefs.text()).toBe(200);
    // an agent of another test (no preferences, ACA) may have taken some at the import
    const listed = await admin.get(`/api/admin/leads?q=${tag}&status=NEW`);
    const waiting = ((await listed.json()) as unknown[]).length;

    await loginAsAdmin(page);
    const status = page.getByTestId('status-assignment');
    const button = status.getByRole('button', { name: 'Run assignment now' });
    await button.click();
    await expect(toastViewport(page).getByText('Assignment run complete')).toBeVisible();
    await expect(
      toastViewport(page).getByText(/^Assigned \d+ leads? to \d+ agents?\.$/),
    ).toBeVisible();
    await expect(page.getByTestId('status-assignment-state')).toHaveText('Operational');
    await expect(status).toContainText(/leads? assigned/);
    await expect(button).toBeEnabled();

    const mine = await agent.get('/api/agent/leads');
    const leads = (await mine.json()) as { lastName: string; state: string }[];
    expect(leads.filter((l) => l.lastName === tag)).toHaveLength(Math.min(2, waiting));
    await page.screenshot({ path: '.tmp/assignment-dashboard.png', fullPage: true });
  });

  test('a failed run shows the server message in a destructive toast', async ({ page }) => {
    await loginAsAdmin(page);
    const message = 'Assignment run #9 failed; the error is recorded in the run history';
    await page.route('**/api/admin/assignment/run', (route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({ message }),
      }),
    );
    await page.getByRole('button', { name: 'Run assignment now' }).click();
    await expect(toastViewport(page).getByText('Assignment run failed')).toBeVisible();
    await expect(toastViewport(page).getByText(message)).toBeVisible();
  });
});
