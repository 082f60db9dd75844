import { expect, test } from '@playwright/test';
import { uniqueTag } from './agent-fixtures';
import { loginAsAdmin } from './support';

test('an admin writes the Privacy Policy; the landing footer opens it for anyone', async ({
  page,
  browser,
}) => {
  const tag = uniqueTag('legal');
  const text = `We collect what you tell us (${tag}).\n\nWe never sell your data to anyone.`;
  await loginAsAdmin(page);
  await page.getByRole('link', { name: 'Settings' }).click();
  await expect(page).toHaveURL(/\/admin\/settings$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  const editor = page.getByTestId('legal-editor-privacy');
  await editor.getByLabel('Privacy Policy').fill(text);
  await editor.getByRole('button', { name: 'Save Privacy Policy' }).click();
  await expect(
    page.getByTestId('toast-viewport').getByText('Privacy Policy saved', { exact: true }),
  ).toBeVisible();
  await page.screenshot({ path: '.tmp/legal-settings-1280.png', fullPage: true });
  await page.setViewportSize({ width: 375, height: 800 });
  await page.screenshot({ path: '.tmp/legal-settings-375.png', fullPage: true });

  // a visitor, from the landing page's footer
  const visitor = await (await browser.newContext()).newPage();
  await visitor.goto('/');
  await visitor
    .getByRole('navigation', { name: 'Legal' })
    .getByRole('link', { name: 'Privacy Policy' })
    .click();
  await expect(visitor).toHaveURL(/\/privacy$/);
  await expect(visitor.getByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeVisible();
  const body = visitor.getByTestId('legal-body');
  // two paragraphs, as written, and the date it was written
  await expect(body.locator('p')).toHaveText([
    `We collect what you tell us (${tag}).`,
    'We never sell your data to anyone.',
    /^Last updated \w+ \d{1,2}, \d{4}$/,
  ]);
  await visitor.setViewportSize({ width: 1280, height: 800 });
  await visitor.screenshot({ path: '.tmp/legal-privacy-1280.png', fullPage: true });
  await visitor.setViewportSize({ width: 375, height: 800 });
  await visitor.screenshot({ path: '.tmp/legal-privacy-375.png', fullPage: true });
  await visitor.getByRole('link', { name: 'Back to the home page' }).click();
  await expect(visitor).toHaveURL(/\/$/);
  await visitor.context().close();
});
