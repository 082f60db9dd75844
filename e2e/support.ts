import { expect, type Page } from '@playwright/test';
import { E2E_ADMIN } from '../playwright.config';

export { E2E_ADMIN };

let seq = 0;
export function uniqueEmail(prefix = 'agent'): string {
  return `${prefix}-${Date.now()}-${++seq}@e2e.test`;
}

/** Registers an agent through the API (same origin as the page) and returns its credentials. */
export async function createAgentViaApi(page: Page, name = 'E2E Agent') {
  const email = uniqueEmail();
  const password = 'secret123';
  const res = await page.request.post('/api/auth/register', { data: { name, email, password } });
  expect(res.status()).toBe(201);
  return { email, password, name, id: (await res.json()).user.id as number };
}

/** Logs in through the Login screen and waits for the landing route of the role. */
export async function loginThroughUi(
  page: Page,
  email: string,
  password: string,
  expectPath: RegExp,
) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log In' }).click();
  await expect(page).toHaveURL(expectPath);
}

export async function loginAsAdmin(page: Page) {
  await loginThroughUi(page, E2E_ADMIN.email, E2E_ADMIN.password, /\/admin$/);
}
