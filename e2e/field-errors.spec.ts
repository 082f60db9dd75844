import { expect, type Page, test } from '@playwright/test';
import { createPackageApi, uniqueTag } from './agent-fixtures';
import { createAgentViaApi, E2E_ADMIN, loginThroughUi } from './support';

/**
 * A 400 with field issues ({message, errors: [{field, message}]}) marks each field with its
 * message (aria-invalid, described by the message, the first focused) and the toast reads the
 * answer's sentence. The answers are the server's shape, served by the test so each form is
 * checked whatever the server refuses today.
 */

const toastViewport = (page: Page) => page.getByTestId('toast-viewport');

function refuse(page: Page, path: string, body: unknown) {
  return page.route(
    (url) => url.pathname === path,
    (route) =>
      ['POST', 'PUT'].includes(route.request().method())
        ? route.fulfill({ status: 400, json: body })
        : route.continue(),
  );
}

test('preferences: each refused field says why under it', async ({ page }) => {
  const agent = await createAgentViaApi(page, 'Fiona Fields');
  await loginThroughUi(page, agent.email, agent.password, /\/dashboard$/);
  await page.goto('/dashboard/preferences');
  const sentence = 'Minimum age cannot be above maximum age, and one city name is too long.';
  await refuse(page, '/api/agent/preferences', {
    message: sentence,
    errors: [
      { field: 'ageMin', message: 'Minimum age cannot be above maximum age' },
      { field: 'cities.1', message: 'A city name is at most 100 characters' },
      { field: 'categories', message: 'Choose at most three categories' },
    ],
  });
  const min = page.getByLabel('Minimum Age');
  await min.fill('80');
  await page.getByLabel('Maximum Age').fill('30');
  await page.getByRole('button', { name: 'Save Preferences' }).click();

  await expect(toastViewport(page).getByText('Save failed', { exact: true })).toBeVisible();
  await expect(toastViewport(page)).toContainText(sentence);
  await expect(min).toHaveAttribute('aria-invalid', 'true');
  await expect(min).toHaveAccessibleDescription('Minimum age cannot be above maximum age');
  const cities = page.getByLabel('Cities');
  await expect(cities).toHaveAttribute('aria-invalid', 'true');
  await expect(cities).toHaveAccessibleDescription('A city name is at most 100 characters');
  // the first refused field in the form's order takes the focus
  await expect(cities).toBeFocused();
  await expect(page.getByText('Choose at most three categories')).toBeVisible();
  // a field that did not fail stays as it was
  await expect(page.getByLabel('Maximum Age')).not.toHaveAttribute('aria-invalid', 'true');

  // changing the field clears its message, and only its own
  await min.fill('20');
  await expect(min).not.toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText('Minimum age cannot be above maximum age')).toHaveCount(0);
  await expect(cities).toHaveAttribute('aria-invalid', 'true');
});

test('registration: a refused email is marked, the toast reads the sentence', async ({ page }) => {
  await page.goto('/register');
  await refuse(page, '/api/auth/register', {
    message: 'Enter a valid email address.',
    errors: [{ field: 'email', message: 'Enter a valid email address' }],
  });
  await page.getByLabel('Full Name').fill('Rita Register');
  const email = page.getByLabel('Email');
  await email.fill('rita@example');
  await page.getByLabel('Password', { exact: true }).fill('secret123');
  await page.getByLabel('Confirm Password').fill('secret123');
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(toastViewport(page).getByText('Registration failed', { exact: true })).toBeVisible();
  await expect(toastViewport(page)).toContainText('Enter a valid email address.');
  await expect(email).toHaveAttribute('aria-invalid', 'true');
  await expect(email).toHaveAccessibleDescription('Enter a valid email address');
  await expect(email).toBeFocused();
  await expect(page).toHaveURL(/\/register$/);
});

test('login: a refused field is marked', async ({ page }) => {
  await page.goto('/login');
  // the page is prerendered: wait until its script and its first questions to the server are
  // done, as e2e/foundation.spec.ts's registration test does, so the form is React's when used
  await page.waitForLoadState('networkidle');
  await refuse(page, '/api/auth/login', {
    message: 'Email is too long.',
    errors: [{ field: 'email', message: 'Email can be at most 254 characters' }],
  });
  const email = page.getByLabel('Email');
  await email.fill('someone@example.com');
  await page.getByLabel('Password').fill('whatever-it-is');
  await page.getByRole('button', { name: 'Log In' }).click();
  await expect(toastViewport(page)).toContainText('Email is too long.');
  await expect(email).toHaveAccessibleDescription('Email can be at most 254 characters');
  await expect(page.getByLabel('Password')).not.toHaveAttribute('aria-invalid', 'true');
});

test("package form: the body's priceMonthlyCents is the form's price", async ({ page }) => {
  await page.request.post('/api/auth/login', { data: E2E_ADMIN });
  await page.goto('/admin/packages');
  await page
    .getByRole('button', { name: /Create (Your First )?Package/ })
    .first()
    .click();
  const dialog = page.getByRole('dialog');
  await refuse(page, '/api/admin/packages', {
    message: 'The price is too high and the slug is taken.',
    errors: [
      { field: 'priceMonthlyCents', message: 'Price can be at most $1,000,000' },
      { field: 'slug', message: 'This slug is already used by another package' },
    ],
  });
  await dialog.getByLabel('Name').fill('Refused Pack');
  await dialog.getByLabel('Price ($/month)').fill('99');
  await dialog.getByLabel('Leads per Day').fill('3');
  await dialog.getByLabel('Commission (%)').fill('10');
  await dialog.getByRole('button', { name: 'Create Package' }).click();
  await expect(toastViewport(page).getByText('Save failed', { exact: true })).toBeVisible();
  await expect(toastViewport(page)).toContainText('The price is too high and the slug is taken.');
  const slug = dialog.getByLabel('Slug');
  await expect(slug).toHaveAccessibleDescription('This slug is already used by another package');
  const price = dialog.getByLabel('Price ($/month)');
  await expect(price).toHaveAttribute('aria-invalid', 'true');
  await expect(price).toHaveAccessibleDescription('Price can be at most $1,000,000');
  // the first refused field of the form's order takes the focus, and the dialog stays open
  await expect(slug).toBeFocused();
  await expect(dialog).toBeVisible();
});

test("package form: a pay-per-lead package's perLeadCents is the form's price per lead", async ({
  page,
}) => {
  await page.request.post('/api/auth/login', { data: E2E_ADMIN });
  await page.goto('/admin/packages');
  await page
    .getByRole('button', { name: /Create (Your First )?Package/ })
    .first()
    .click();
  const dialog = page.getByRole('dialog');
  await refuse(page, '/api/admin/packages', {
    message: 'The price per lead is too low.',
    errors: [{ field: 'perLeadCents', message: 'A lead costs at least $1.00 here' }],
  });
  await dialog.getByLabel('Name').fill('Refused Per Lead');
  await dialog.getByLabel('Pricing').click();
  await page.getByRole('option', { name: 'Pay per lead' }).click();
  // a pay-per-lead package has no monthly price to type
  await expect(dialog.getByLabel('Price ($/month)')).toHaveCount(0);
  const perLead = dialog.getByLabel('Price per lead ($)');
  await perLead.fill('0.50');
  await dialog.getByLabel('Leads per Day').fill('3');
  await dialog.getByLabel('Commission (%)').fill('10');
  await dialog.getByRole('button', { name: 'Create Package' }).click();
  await expect(toastViewport(page)).toContainText('The price per lead is too low.');
  await expect(perLead).toHaveAttribute('aria-invalid', 'true');
  await expect(perLead).toHaveAccessibleDescription('A lead costs at least $1.00 here');
  await expect(perLead).toBeFocused();
});

test('price list: a refused rule is marked in its row, the first refused field focused', async ({
  page,
}) => {
  await page.request.post('/api/auth/login', { data: E2E_ADMIN });
  const pkg = await createPackageApi(page.request, {
    name: `Price List ${uniqueTag('pl')}`,
    leadsPerDay: 3,
    priceMonthlyCents: 0,
    pricing: 'PER_LEAD',
    perLeadCents: 2_000,
  });
  await page.goto('/admin/packages');
  await page.getByRole('button', { name: `Price list of ${pkg.name}` }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByText('No rules: every lead costs $20.')).toBeVisible();
  await refuse(page, `/api/admin/packages/${pkg.id}/prices`, {
    message: 'The second rule is refused.',
    errors: [{ field: 'rules.1.ageMax', message: 'Maximum age is 99 for this package' }],
  });
  await dialog.getByRole('button', { name: 'Add rule' }).click();
  await dialog.getByRole('button', { name: 'Add rule' }).click();
  const rules = dialog.getByTestId('price-rule');
  await rules.nth(0).getByLabel('Price ($)').fill('30');
  await rules.nth(1).getByLabel('Age to').fill('110');
  await rules.nth(1).getByLabel('Price ($)').fill('15');
  await dialog.getByRole('button', { name: 'Save Price List' }).click();
  await expect(toastViewport(page)).toContainText('The second rule is refused.');
  const ageTo = rules.nth(1).getByLabel('Age to');
  await expect(ageTo).toHaveAttribute('aria-invalid', 'true');
  await expect(ageTo).toHaveAccessibleDescription('Maximum age is 99 for this package');
  await expect(ageTo).toBeFocused();
  await expect(rules.nth(0).locator('[aria-invalid="true"]')).toHaveCount(0);
});

test("today's answer, without errors, still shows its message and marks nothing", async ({
  page,
}) => {
  const agent = await createAgentViaApi(page, 'Olga Oldshape');
  await loginThroughUi(page, agent.email, agent.password, /\/dashboard$/);
  await page.goto('/dashboard/preferences');
  await refuse(page, '/api/agent/preferences', {
    message: 'Invalid body: ageMin: Minimum age cannot be above maximum age',
  });
  await page.getByRole('button', { name: 'Save Preferences' }).click();
  await expect(toastViewport(page)).toContainText('Invalid body: ageMin');
  await expect(page.locator('[aria-invalid="true"]')).toHaveCount(0);
});
