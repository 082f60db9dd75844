/**
 * The installable app (docs/domain.md, Alerts to the agent's phone): the manifest is served and
 * names its icons, each a PNG of the size it says; the service worker registers and controls the
 * app; the Services screen offers push on this device without asking for permission on load.
 * Chromium's own push service is out of reach here, so nothing subscribes through it: the API
 * tests push to a push service of their own (test/push.test.ts); here the worker is handed the
 * push and the click, and the lead opens and counts as opened.
 */
import { expect, request, test } from '@playwright/test';
import { loginAdminApi, seedLeadsForAgent, uniqueTag } from './agent-fixtures';
import { uniquePhone } from './lead-contact';
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
  // Chromium's own installability check (what Lighthouse's PWA audit asked of it, before
  // Lighthouse 12 dropped that category): the manifest, its icons, the worker and a secure origin
  const cdp = await page.context().newCDPSession(page);
  const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
  // Playwright's browser contexts are off the record, which Chromium never installs from:
  // every other check must pass
  expect(installabilityErrors.filter((e) => e.errorId !== 'in-incognito')).toEqual([]);
  const { url, errors, data } = await cdp.send('Page.getAppManifest');
  expect(url).toBe(`${baseURL}/manifest.webmanifest`);
  expect(errors).toEqual([]);
  expect(JSON.parse(data ?? '{}').start_url).toBe('/dashboard/leads');
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

test('the alerts of new leads: SMS says why it is off, quiet hours are kept, a test needs a device', async ({
  page,
}) => {
  const agent = await createAgentViaApi(page, 'Quiet Agent');
  await loginThroughUi(page, agent.email, agent.password, /\/dashboard/);
  await page.goto('/dashboard/services');
  const card = page.getByTestId('alerts-card');
  await expect(card.getByRole('heading', { name: 'Alerts of new leads' })).toBeVisible();
  // this server sends no texts
  await expect(card.getByRole('switch', { name: 'Text messages (SMS)' })).toBeDisabled();
  await expect(card.getByTestId('alerts-sms-unavailable')).toHaveText(
    'Text messages are not configured on this server',
  );
  await expect(card.getByRole('button', { name: 'Send a test text' })).toBeDisabled();
  await expect(card.getByRole('switch', { name: 'Push notifications' })).toBeChecked();

  await card.getByRole('switch', { name: 'Quiet hours' }).click();
  await card.getByLabel('From').fill('22:30');
  await card.getByLabel('To').fill('06:45');
  await card.getByRole('button', { name: 'Save alerts' }).click();
  await expect(page.getByTestId('toast-viewport').getByText('Alerts saved')).toBeVisible();
  await page.reload();
  await expect(card.getByRole('switch', { name: 'Quiet hours' })).toBeChecked();
  await expect(card.getByLabel('From')).toHaveValue('22:30');
  await expect(card.getByLabel('To')).toHaveValue('06:45');
  await expect(card).toContainText('America/New_York');

  await card.getByRole('button', { name: 'Send a test push' }).click();
  await expect(
    page.getByTestId('toast-viewport').getByText('Turn on push notifications on a device first'),
  ).toBeVisible();
});

/**
 * A push of a new lead, then a click on its notification: the browser's push service and the
 * system's click are out of reach here, so the test hands the service worker the events they
 * would deliver (a PushEvent with the lead's message, a NotificationEvent for the notification
 * it showed), waiting on what the worker waits on.
 */
test('a notification click opens the lead in My Leads and marks it opened', async ({
  page,
  context,
  baseURL,
}) => {
  const admin = await request.newContext({ baseURL });
  await loginAdminApi(admin);
  const agent = await createAgentViaApi(page, 'Alerted Agent');
  const tag = uniqueTag('push');
  const email = `mary.${tag}@e2e.test`;
  const ids = await seedLeadsForAgent(admin, agent.id, tag, [
    {
      firstName: 'Marigold',
      lastName: `Ortiz ${tag}`,
      phone: uniquePhone(),
      email,
      city: 'Austin',
      state: 'TX',
      age: 67,
    },
  ]);
  const leadId = ids.get(email)!;
  await context.grantPermissions(['notifications'], { origin: baseURL });
  await loginThroughUi(page, agent.email, agent.password, /\/dashboard/);
  await page.evaluate(() => navigator.serviceWorker.ready);
  if (!(await page.evaluate(() => navigator.serviceWorker.controller !== null)))
    await page.reload();
  await expect
    .poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null))
    .toBe(true);
  const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));

  const shown = await worker.evaluate(
    async (message) => {
      // the worker's global scope, typed loosely: the page's DOM types do not describe it
      const scope = globalThis as unknown as {
        registration: ServiceWorkerRegistration;
        dispatchEvent(event: Event): boolean;
        PushEvent: new (type: string, init: { data: string }) => Event;
        NotificationEvent: new (type: string, init: { notification: Notification }) => Event;
      };
      const deliver = async (event: Event) => {
        const waits: Promise<unknown>[] = [];
        Object.defineProperty(event, 'waitUntil', {
          value: (p: Promise<unknown>) => waits.push(p),
        });
        scope.dispatchEvent(event);
        await Promise.all(waits);
      };
      await deliver(new scope.PushEvent('push', { data: JSON.stringify(message) }));
      const [notification] = await scope.registration.getNotifications({ tag: message.url });
      if (!notification) return null;
      const seen = { title: notification.title, body: notification.body };
      await deliver(new scope.NotificationEvent('notificationclick', { notification }));
      return seen;
    },
    {
      title: 'New lead: Marigold O.',
      body: 'Medicare, 67, Austin TX.',
      url: `/dashboard/leads?lead=${leadId}`,
    },
  );
  expect(shown).toEqual({ title: 'New lead: Marigold O.', body: 'Medicare, 67, Austin TX.' });

  await expect(page).toHaveURL(new RegExp(`/dashboard/leads\\?lead=${leadId}$`));
  await expect(page.getByTestId('update-status-drawer')).toContainText(`Marigold Ortiz ${tag}`);
  // opened: the admin's speed to open counts it
  await expect
    .poll(async () => {
      const res = await admin.get('/api/admin/analytics/speed-to-lead');
      const row = (await res.json()).agents.find(
        (a: { agentId: number }) => a.agentId === agent.id,
      );
      return row?.open.opened ?? 0;
    })
    .toBe(1);
  await admin.dispose();
});
