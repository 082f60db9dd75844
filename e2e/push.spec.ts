/**
 * The installable app (docs/domain.md, Alerts to the agent's phone): the manifest is served and
 * names its icons, each a PNG of the size it says; the service worker registers and controls the
 * app; the Services screen offers push on this device without asking for permission on load.
 * Chromium's own push service is out of reach here, so nothing subscribes through it: the API
 * tests push to a push service of their own (test/push.test.ts).
 */
import { expect, test } from '@playwright/test';
import { createAgentViaApi, loginThroughUi } from './support';

// the service worker is what these tests check; elsewhere it is blocked (playwright.config.ts)
test.use({ serviceWorkers: 'allow' });

test('the manifest is served with its icons, and the service worker registers', async ({
  page,
  request,
  baseURL,
}) => {
  const res = await request.get('/manifest.webmanifest');
  expect(res.status()).toBe(200);
  const manifest = await res.json();
  expect(manifest).toMatchObject({
    name: 'LeadFlow',
    short_name: 'LeadFlow',
    start_url: '/dashboard/leads',
    display: 'standalone',
  });
  const icons = manifest.icons as { src: string; sizes: string; purpose: string }[];
  expect(icons.map((i) => i.sizes)).toEqual(expect.arrayContaining(['192x192', '512x512']));
  expect(icons.some((i) => i.purpose === 'maskable')).toBe(true);
  for (const icon of icons) {
    const png = await request.get(icon.src);
    expect(png.status(), icon.src).toBe(200);
    expect(png.headers()['content-type']).toBe('image/png');
    const body = await png.body();
    // IHDR: width and height at bytes 16 and 20
    expect(`${body.readUInt32BE(16)}x${body.readUInt32BE(20)}`).toBe(icon.sizes);
  }
  const sw = await request.get('/sw.js');
  expect(sw.status()).toBe(200);
  expect(sw.headers()['content-type']).toContain('javascript');

  await page.goto('/');
  await expect(page.locator('link[rel="manifest"]')).toHaveAttribute(
    'href',
    '/manifest.webmanifest',
  );
  const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
  expect(scope).toBe(`${baseURL}/`);
});

test('the Services screen offers push on this device and asks nothing on load', async ({
  page,
}) => {
  const agent = await createAgentViaApi(page, 'Push Agent');
  await loginThroughUi(page, agent.email, agent.password, /\/dashboard/);
  await page.goto('/dashboard/services');
  const card = page.getByTestId('push-card');
  await expect(
    card.getByRole('heading', { name: 'Push notifications on this device' }),
  ).toBeVisible();
  await expect(card.getByTestId('push-state')).toHaveText('Off on this device.');
  await expect(card.getByRole('button', { name: 'Turn on push notifications' })).toBeEnabled();
  expect(await page.evaluate(() => Notification.permission)).toBe('default');
});
