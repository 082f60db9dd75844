import { expect, test } from '@playwright/test';
import { createPackageApi, loginAdminApi, uniqueTag } from './agent-fixtures';
import { loginAsAdmin, loginThroughUi, uniqueEmail } from './support';

/**
 * Analytics that explain (docs/domain.md, Analytics that explain): the admin opens a lead's drawer and reads why it went where
 * it went (or why it is still NEW), the NEW leads that fit no agent filter the list, and the
 * agent's preferences preview changes while editing.
 */
/** The spec's agent pauses at the end, so it takes no later spec's Texas leads (one e2e database). */
let pauseAgent: (() => Promise<unknown>) | null = null;
test.afterAll(async () => {
  await pauseAgent?.();
});

test('why this agent, NEW leads by reason, and the live preferences preview', async ({
  page,
  browser,
  playwright,
  baseURL,
}) => {
  // the preview's counts may wait for their minute's refresh (below)
  test.setTimeout(180_000);
  const tag = uniqueTag('why');
  const admin = await playwright.request.newContext({ baseURL });
  await loginAdminApi(admin);
  const pkg = await createPackageApi(admin, {
    name: `Explain Medicare ${tag}`,
    leadsPerDay: 10,
    priceMonthlyCents: 9900,
    category: 'MEDICARE',
  });

  // the agent: subscribed, wants Texas leads only
  const agentCtx = await playwright.request.newContext({ baseURL });
  const email = uniqueEmail('why');
  const password = 'secret123';
  const name = `Tex Whyman ${tag}`;
  expect(
    (await agentCtx.post('/api/auth/register', { data: { name, email, password } })).status(),
  ).toBe(201);
  expect((await agentCtx.post('/api/auth/login', { data: { email, password } })).status()).toBe(
    200,
  );
  pauseAgent = () => agentCtx.put('/api/agent/pause', { data: { until: null } });
  expect(
    (await agentCtx.post('/api/agent/subscription', { data: { packageId: pkg.id } })).status(),
  ).toBe(200);
  expect(
    (
      await agentCtx.put('/api/agent/preferences', {
        data: { states: ['TX'], cities: [], ageMin: null, ageMax: null, categories: [] },
      })
    ).status(),
  ).toBe(200);

  // two MEDICARE leads: one in Texas (the import's run gives it out), one in Vermont (nobody's)
  const header = 'firstName,lastName,phone,email,city,state,age,category,externalId';
  const csv = [
    header,
    `Tina,${tag},2145550101,tina.${tag}@example.com,Austin,TX,70,MEDICARE,${tag}-1`,
    `Vera,${tag},8025550102,vera.${tag}@example.com,Burlington,VT,71,MEDICARE,${tag}-2`,
  ].join('\n');
  const imported = await admin.post('/api/admin/leads/import', {
    multipart: {
      file: { name: `${tag}.csv`, mimeType: 'text/csv', buffer: Buffer.from(`${csv}\n`) },
    },
  });
  expect(imported.status(), await imported.text()).toBe(200);

  await loginAsAdmin(page);
  await page.goto('/admin/leads');
  await page.getByPlaceholder('Name, phone or email').fill(tag);
  const vera = page.getByTestId('lead-row').filter({ hasText: 'Vera' });
  await expect(vera).toBeVisible();

  // Vera is NEW: no agent fits, ours because of the state
  await vera.getByRole('button', { name: /Details of Vera/ }).click();
  const drawer = page.getByTestId('admin-lead-drawer');
  const why = drawer.getByTestId('why-this-agent');
  await expect(why.getByTestId('why-fits-none')).toHaveText('No agent');
  const stateRow = why.locator('[data-reason="STATE"]');
  await expect(stateRow).toContainText('State not chosen');
  await expect(stateRow).toContainText(name);
  await expect(drawer.getByTestId('lead-consent')).toBeVisible();
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: '.tmp/explain-drawer-new-1280.png', fullPage: true });
  await page.setViewportSize({ width: 375, height: 800 });
  await page.screenshot({ path: '.tmp/explain-drawer-new-375.png', fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
  await drawer.getByRole('button', { name: 'Close' }).click();

  // Tina went to our agent by the import's run
  const tina = page.getByTestId('lead-row').filter({ hasText: 'Tina' });
  await tina.getByRole('button', { name: /Details of Tina/ }).click();
  await expect(drawer.getByTestId('why-assigned-by')).toContainText(`Assigned to ${name} by run #`);
  await expect(drawer.getByTestId('why-fits')).toContainText(name);
  await page.screenshot({ path: '.tmp/explain-drawer-assigned-1280.png', fullPage: true });
  await drawer.getByRole('button', { name: 'Close' }).click();

  // NEW leads that fit no agent, by reason: the count filters the list
  await page.getByPlaceholder('Name, phone or email').fill('');
  const unfit = page.getByTestId('unfit-reasons');
  const stateButton = unfit.locator('[data-reason="STATE"]');
  await expect(stateButton).toBeVisible();
  await stateButton.click();
  await expect(stateButton).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('lead-row').filter({ hasText: 'Vera' })).toBeVisible();
  await expect(page.getByTestId('lead-row').filter({ hasText: 'Tina' })).toHaveCount(0);
  await page.screenshot({ path: '.tmp/explain-leads-unfit-1280.png', fullPage: true });
  await page.setViewportSize({ width: 375, height: 800 });
  await page.screenshot({ path: '.tmp/explain-leads-unfit-375.png', fullPage: true });

  // the agent's preview: Texas only, then Texas and Vermont
  const agentPage = await browser.newPage();
  await loginThroughUi(agentPage, email, password, /\/dashboard$/);
  await agentPage.goto('/dashboard/preferences');
  const preview = agentPage.getByTestId('preferences-preview');
  const matched = preview.getByTestId('preview-matched');
  const count = async () =>
    Number((await matched.textContent())?.match(/^[\d,]+/)?.[0].replace(/,/g, ''));
  await expect(preview.getByTestId('preview-per-day')).toContainText('for your 10-a-day package');
  // the server's counts are refreshed every 60 s (decision 021): Tina's lead is in within that
  await expect
    .poll(
      async () => {
        await agentPage.reload();
        await expect(preview.getByTestId('preview-per-day')).toBeVisible();
        return count();
      },
      { timeout: 80_000, intervals: [2_000, 5_000, 10_000] },
    )
    .toBeGreaterThanOrEqual(1);
  const before = await count();
  await agentPage.getByRole('button', { name: 'VT', exact: true }).click();
  await expect(matched).not.toHaveText(`${before} leads in 30 days`);
  const after = await count();
  // Vera's VT lead is one of them (other specs' VT leads share this database)
  expect(after).toBeGreaterThan(before);
  await agentPage.setViewportSize({ width: 1280, height: 900 });
  await agentPage.screenshot({ path: '.tmp/explain-preview-1280.png', fullPage: true });
  await agentPage.setViewportSize({ width: 375, height: 800 });
  await agentPage.screenshot({ path: '.tmp/explain-preview-375.png', fullPage: true });
  await agentPage.close();

  // the agent contacts Tina: speed to lead has a first figure
  const found = await admin.get(`/api/admin/leads?q=${encodeURIComponent(`tina.${tag}`)}`);
  const [tinaLead] = (await found.json()) as { id: number }[];
  expect(
    (
      await agentCtx.post(`/api/agent/leads/${tinaLead.id}/status`, {
        data: { status: 'CONTACTED' },
      })
    ).status(),
  ).toBe(200);

  // analytics: speed to lead and sources, and the agents' speed column
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/admin/analytics');
  await expect(page.getByTestId('chart-speed-to-lead')).toBeVisible();
  await expect(page.getByTestId('speed-median')).not.toContainText('—');
  await expect(page.getByTestId('speed-not-contacted')).toContainText(/\d/);
  await expect(page.getByTestId('source-stats')).toBeVisible();
  await page.screenshot({ path: '.tmp/explain-analytics-1280.png', fullPage: true });
  await page.setViewportSize({ width: 375, height: 800 });
  await page.screenshot({ path: '.tmp/explain-analytics-375.png', fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/admin/agents');
  const agentRow = page.getByTestId('agent-row').filter({ hasText: name });
  await expect(agentRow.getByTestId('agent-speed')).toContainText('median');
  await page.screenshot({ path: '.tmp/explain-agents-1280.png', fullPage: true });
  await page.setViewportSize({ width: 375, height: 800 });
  await page.screenshot({ path: '.tmp/explain-agents-375.png', fullPage: true });
});
