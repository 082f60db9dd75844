import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, request as playwrightRequest, test } from '@playwright/test';
import { loginAdminApi, uniqueTag } from './agent-fixtures';
import { loginAsAdmin, loginThroughUi, uniqueEmail } from './support';

/** No serious or critical WCAG 2.1 AA violation on the page as it is. */
async function expectAccessible(page: Page) {
  const axe = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  expect(
    axe.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
  ).toEqual([]);
}

/** Screenshots for the eye (docs/domain.md, Audit log), at a desktop's and a phone's width. */
const SHOTS = '.tmp/screens';

test('an admin reads the audit log: a write of theirs, filtered by action, on a desktop and a phone', async ({
  page,
  baseURL,
}) => {
  const admin = await playwrightRequest.newContext({ baseURL });
  await loginAdminApi(admin);
  const name = `Audit source ${uniqueTag('src')}`;
  const made = await admin.post('/api/admin/sources', { data: { name, costPerLeadCents: 900 } });
  expect(made.status()).toBe(201);
  await admin.dispose();

  await page.setViewportSize({ width: 1280, height: 900 });
  await loginAsAdmin(page);
  await page.getByRole('link', { name: 'Audit' }).first().click();
  await expect(page).toHaveURL(/\/admin\/audit$/);
  await expect(page.getByRole('heading', { name: 'Audit', level: 1 })).toBeVisible();
  await page.getByLabel('Action').fill('/api/admin/sources');
  await expect(page.getByText(`name: ${name}`, { exact: false }).first()).toBeVisible();
  await expect(page.getByTestId('audit-action').first()).toHaveText('POST /api/admin/sources');
  await expect(page.getByText('Welcome back!')).toBeHidden({ timeout: 15_000 });
  await page.screenshot({ path: `${SHOTS}/audit-admin-1280.png`, fullPage: true });
  await expectAccessible(page);

  await page.getByLabel('Action').fill('');
  // the whole log again: the admin's logins beside the write
  await expect(
    page.getByTestId('audit-action').filter({ hasText: 'auth.login' }).first(),
  ).toBeVisible();
  // an actor's #id shows only that actor's events
  const actorButtons = page.getByRole('button', { name: /^Show only the events of / });
  const id = ((await actorButtons.first().textContent()) ?? '').replace('#', '').trim();
  expect(id).toMatch(/^\d+$/);
  const filtered = page.waitForResponse((r) => r.url().includes(`actorId=${id}`));
  await actorButtons.first().click();
  await expect(page.getByLabel('Actor (user id)')).toHaveValue(id);
  await filtered;
  await expect(actorButtons.first()).toBeVisible();
  await expect(actorButtons.filter({ hasNotText: `#${id}` })).toHaveCount(0);
  await expect(page.getByText('Not signed in')).toHaveCount(0);
  await page.setViewportSize({ width: 375, height: 812 });
  await expect(page.getByTestId('audit-row').first()).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/audit-admin-375.png`, fullPage: true });
});

test("an agency's owner reads their agency's events on its Audit tab", async ({
  page,
  baseURL,
}) => {
  const owner = await playwrightRequest.newContext({ baseURL });
  const email = uniqueEmail('owner');
  const password = 'secret123';
  expect(
    (
      await owner.post('/api/auth/register', { data: { name: 'Olive Owner', email, password } })
    ).status(),
  ).toBe(201);
  await owner.post('/api/auth/login', { data: { email, password } });
  expect((await owner.post('/api/agency', { data: { name: 'Olive Agency' } })).status()).toBe(201);
  expect((await owner.patch('/api/agency', { data: { dailyCap: 40 } })).status()).toBe(200);
  expect((await owner.post('/api/agency/invites', { data: { role: 'MANAGER' } })).status()).toBe(
    201,
  );
  await owner.dispose();

  await page.setViewportSize({ width: 1280, height: 900 });
  await loginThroughUi(page, email, password, /\/dashboard$/);
  await page.goto('/dashboard/agency?tab=audit');
  await expect(page.getByRole('tab', { name: 'Audit' })).toHaveAttribute('data-state', 'active');
  await expect(
    page.getByTestId('audit-action').filter({ hasText: 'PATCH /api/agency' }),
  ).toBeVisible();
  await expect(page.getByText('Welcome back!')).toBeHidden({ timeout: 15_000 });
  await page.screenshot({ path: `${SHOTS}/audit-agency-1280.png`, fullPage: true });
  await expectAccessible(page);
  await page.setViewportSize({ width: 375, height: 812 });
  await expect(page.getByTestId('audit-row').first()).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/audit-agency-375.png`, fullPage: true });
});
