import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { createPackageApi, loginAdminApi, uniqueTag } from './agent-fixtures';
import { createAgentViaApi, loginThroughUi } from './support';

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A CRM stand-in on 127.0.0.1: it keeps what it receives and answers with the given status. */
async function startReceiver(status: number, answer: string) {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(answer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/leadflow`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** axe-core: no serious or critical WCAG 2.0/2.1 A and AA violation on the screen as it is. */
async function expectAccessible(page: Page) {
  const { violations } = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(
    serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
  ).toEqual([]);
}

const toast = (page: Page, title: string) =>
  page.getByTestId('toast-viewport').getByText(title, { exact: true });

test.describe('delivery settings', () => {
  test('an agent with CRM integration saves an endpoint, sees the secret and sends a test', async ({
    page,
    request,
  }) => {
    const receiver = await startReceiver(200, '{"received":true,"crm":"ok-from-receiver"}');
    try {
      await loginAdminApi(request);
      const pkg = await createPackageApi(request, {
        name: `CRM Pack ${uniqueTag('crm')}`,
        leadsPerDay: 5,
        priceMonthlyCents: 9_900,
      });
      const agent = await createAgentViaApi(page, 'Webhook Agent');
      await loginThroughUi(page, agent.email, agent.password, /\/dashboard$/);
      const subscribed = await page.request.post('/api/agent/subscription', {
        data: { packageId: pkg.id },
      });
      expect(subscribed.ok(), await subscribed.text()).toBe(true);

      // reached from the sidebar
      await page.getByRole('link', { name: 'Delivery' }).click();
      await expect(page).toHaveURL(/\/dashboard\/delivery$/);
      await expect(
        page.getByRole('heading', { level: 1, name: 'Delivery Settings' }),
      ).toBeVisible();

      // no SMTP on the e2e portal: the email switch says so and cannot be turned on
      const emailSection = page.getByTestId('delivery-email');
      await expect(emailSection).toContainText('Email delivery is not configured on this portal');
      await expect(
        emailSection.getByRole('switch', { name: 'Email me each new lead' }),
      ).toBeDisabled();

      const webhook = page.getByTestId('delivery-webhook');
      const url = webhook.getByLabel('Endpoint URL');
      const save = page.getByRole('button', { name: 'Save Settings' });

      // refused by the form before anything is sent
      await url.fill('ftp://crm.example.com/hook');
      await save.click();
      await expect(webhook.getByText('Enter a full URL starting with https://')).toBeVisible();
      await expect(url).toHaveAttribute('aria-invalid', 'true');

      // refused by the server: the message shows under the URL
      await url.fill('http://user:pw@127.0.0.1:9/hook');
      await save.click();
      await expect(webhook.getByText(/must not carry a user name or password/)).toBeVisible();
      await expect(toast(page, 'Save failed')).toBeVisible();
      await expect(url).toBeFocused();

      // the test button waits for a saved endpoint
      const sendTest = webhook.getByRole('button', { name: 'Send test' });
      await expect(sendTest).toBeDisabled();

      await url.fill(receiver.url);
      await webhook.getByLabel('Authorization header (optional)').fill('Bearer e2e-token');
      // a switch, turned on with the keyboard
      await webhook.getByRole('switch', { name: 'Enable' }).focus();
      await page.keyboard.press('Space');
      await expect(webhook.getByRole('switch', { name: 'Enable' })).toBeChecked();
      await save.click();
      await expect(toast(page, 'Delivery settings saved')).toBeVisible();
      await expect(url).toHaveValue(receiver.url);
      await expect(webhook.getByRole('switch', { name: 'Enable' })).toBeChecked();
      // write-only: the header is never shown back, only that one is set
      await expect(webhook.getByTestId('auth-header-state')).toContainText('A header is set.');
      await expect(webhook.getByLabel('Authorization header (optional)')).toHaveValue('');

      // the signing secret: masked, then shown
      const secret = webhook.getByTestId('signing-secret');
      await expect(secret).toContainText('whsec_');
      await expect(secret).toContainText('Hidden');
      await webhook.getByRole('button', { name: 'Show' }).click();
      await expect(secret).toHaveText(/^whsec_[A-Za-z0-9+/=]{16,}$/);
      const shownSecret = (await secret.textContent()) ?? '';

      // a signed test event reaches the receiver, and its answer shows
      await expect(sendTest).toBeEnabled();
      await sendTest.click();
      const result = webhook.getByTestId('webhook-test-result');
      await expect(result.getByTestId('webhook-test-outcome')).toHaveText('OK');
      await expect(result).toContainText('200');
      await expect(result).toContainText(/\d+ ms/);
      await expect(result).toContainText('ok-from-receiver');
      expect(receiver.received).toHaveLength(1);
      const [event] = receiver.received;
      expect(event?.headers['webhook-signature']).toMatch(/^v1,/);
      expect(event?.headers['webhook-id']).toBeTruthy();
      expect(event?.headers.authorization).toBe('Bearer e2e-token');
      expect(JSON.parse(event?.body ?? '{}').type).toBe('webhook.test');

      // accessible at a desktop's and a phone's width, the test's answer on screen
      await expectAccessible(page);
      await page.setViewportSize({ width: 375, height: 740 });
      await expectAccessible(page);
      await page.setViewportSize({ width: 1280, height: 720 });

      // the settings as stored say the same after a reload
      await page.reload();
      await expect(page.getByTestId('delivery-webhook').getByLabel('Endpoint URL')).toHaveValue(
        receiver.url,
      );
      await page.getByTestId('delivery-webhook').getByRole('button', { name: 'Show' }).click();
      await expect(page.getByTestId('signing-secret')).toHaveText(shownSecret);

      // removing the header
      await page.getByRole('button', { name: 'Remove the Authorization header' }).click();
      await expect(page.getByTestId('auth-header-state')).toContainText('Will be removed');
      await page.getByRole('button', { name: 'Save Settings' }).click();
      await expect(toast(page, 'Delivery settings saved')).toBeVisible();
      await expect(page.getByTestId('auth-header-state')).toHaveCount(0);
    } finally {
      await receiver.close();
    }
  });

  test('without CRM integration the webhook points to the packages', async ({ page }) => {
    const agent = await createAgentViaApi(page, 'Email Only Agent');
    await loginThroughUi(page, agent.email, agent.password, /\/dashboard$/);
    await page.goto('/dashboard/delivery');
    const webhook = page.getByTestId('delivery-webhook');
    await expect(webhook.getByTestId('webhook-unavailable')).toContainText(
      'CRM integration comes with a package that includes it.',
    );
    await expect(webhook.getByLabel('Endpoint URL')).toHaveCount(0);
    await webhook.getByRole('link', { name: 'See the packages' }).click();
    await expect(page).toHaveURL(/\/dashboard\/package$/);
  });
});
