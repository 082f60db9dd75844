import { expect, test } from '@playwright/test';
import { loginAsAdmin, loginThroughUi, uniqueEmail } from './support';

test('an agent pauses deliveries through a date, the admin sees it, the agent resumes', async ({
  page,
  browser,
  playwright,
  baseURL,
}) => {
  const agentCtx = await playwright.request.newContext({ baseURL });
  const email = uniqueEmail('pause');
  const password = 'secret123';
  const name = `Paula Pause ${Date.now().toString(36)}`;
  expect(
    (await agentCtx.post('/api/auth/register', { data: { name, email, password } })).status(),
  ).toBe(201);

  await loginThroughUi(page, email, password, /\/dashboard$/);
  const card = page.getByTestId('pause-card');
  await expect(card.getByRole('heading', { name: 'Pause deliveries' })).toBeVisible();
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: '.tmp/pause-card-1280.png', fullPage: true });
  // a date is needed for "Through a date"
  await card.getByRole('button', { name: 'Pause deliveries' }).click();
  await expect(card.getByText('Pick the last day of your pause')).toBeVisible();
  const year = new Date().getFullYear() + 1;
  await card.getByLabel('Last day paused').fill(`${year}-12-01`);
  await card.getByRole('button', { name: 'Pause deliveries' }).click();
  await expect(card.getByRole('heading', { name: 'Deliveries paused until Dec 1' })).toBeVisible();
  await expect(card).toContainText('No new leads are assigned to you while paused');
  await page.screenshot({ path: '.tmp/pause-paused-1280.png', fullPage: true });
  await page.setViewportSize({ width: 375, height: 800 });
  await page.screenshot({ path: '.tmp/pause-paused-375.png', fullPage: true });
  // survives a reload: the server holds it
  await page.reload();
  await expect(card.getByRole('heading', { name: 'Deliveries paused until Dec 1' })).toBeVisible();

  // the admin's Agents screen shows the pause
  const adminPage = await browser.newPage();
  await loginAsAdmin(adminPage);
  await adminPage.goto('/admin/agents');
  const row = adminPage.getByTestId('agent-row').filter({ hasText: name });
  await expect(row.getByTestId('agent-paused')).toHaveText('Paused until Dec 1');
  await adminPage.close();

  // until resumed, then resume
  await card.getByRole('button', { name: 'Resume deliveries' }).click();
  await expect(card.getByRole('heading', { name: 'Pause deliveries' })).toBeVisible();
  await card.getByLabel('Until I resume').check();
  await card.getByRole('button', { name: 'Pause deliveries' }).click();
  await expect(
    card.getByRole('heading', { name: 'Deliveries paused until you resume' }),
  ).toBeVisible();
  await card.getByRole('button', { name: 'Resume deliveries' }).click();
  await expect(card.getByRole('heading', { name: 'Pause deliveries' })).toBeVisible();
  const state = await agentCtx.post('/api/auth/login', { data: { email, password } });
  expect(state.status()).toBe(200);
  expect((await (await agentCtx.get('/api/agent/pause')).json()).paused).toBe(false);
});

test('an admin sets licensed states; the agent sees preferences outside them flagged', async ({
  page,
  browser,
  playwright,
  baseURL,
}) => {
  const agentCtx = await playwright.request.newContext({ baseURL });
  const email = uniqueEmail('lic');
  const password = 'secret123';
  const name = `Lena Licence ${Date.now().toString(36)}`;
  await agentCtx.post('/api/auth/register', { data: { name, email, password } });
  await agentCtx.post('/api/auth/login', { data: { email, password } });
  await agentCtx.put('/api/agent/preferences', {
    data: { states: ['TX', 'FL'], cities: [], ageMin: null, ageMax: null, categories: [] },
  });

  const adminPage = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await loginAsAdmin(adminPage);
  await adminPage.goto('/admin/agents');
  const row = adminPage.getByTestId('agent-row').filter({ hasText: name });
  await expect(row.getByTestId('agent-licences')).toContainText('All states');
  await row.getByRole('button', { name: `Edit licensed states of ${name}` }).click();
  const dialog = adminPage.getByRole('dialog');
  await dialog.getByLabel('FL Florida').click();
  await dialog.getByLabel('GA Georgia').click();
  await expect(dialog).toContainText('2 selected');
  await adminPage.screenshot({ path: '.tmp/licences-dialog-1280.png' });
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect(row.getByTestId('agent-licences')).toContainText('FL, GA');
  await adminPage.screenshot({ path: '.tmp/agents-licences-1280.png', fullPage: true });
  await adminPage.setViewportSize({ width: 375, height: 800 });
  await adminPage.screenshot({ path: '.tmp/agents-licences-375.png', fullPage: true });
  await adminPage.close();

  await loginThroughUi(page, email, password, /\/dashboard$/);
  await page.goto('/dashboard/preferences');
  const warning = page.getByTestId('licence-warning');
  await expect(warning).toContainText('You are licensed in 2 states: FL, GA.');
  await expect(warning).toContainText('You will get no leads from Texas (TX)');
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: '.tmp/licence-warning-1280.png', fullPage: true });
  await page.setViewportSize({ width: 375, height: 800 });
  await page.screenshot({ path: '.tmp/licence-warning-375.png', fullPage: true });
});
