import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { createPackageApi, loginAdminApi, seedLeadsForAgent, uniqueTag } from './agent-fixtures';
import { uniquePhone } from './lead-contact';
import { createAgentViaApi, loginAsAdmin } from './support';

/** A CRM stand-in on 127.0.0.1 whose answer can change between deliveries. */
async function startReceiver() {
  const state = { status: 400, hits: 0 };
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      state.hits++;
      res.writeHead(state.status, { 'Content-Type': 'application/json' });
      res.end(state.status >= 400 ? '{"error":"missing field"}' : '{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/crm`,
    state,
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

interface DeliveryRow {
  id: number;
  leadId: number;
  status: string;
  responseCode: number | null;
}

test.describe('deliveries (admin)', () => {
  test('a delivery the CRM refused shows as failed, on the lead too, and a retry sends it', async ({
    page,
    request,
  }) => {
    const receiver = await startReceiver();
    try {
      await loginAdminApi(request);
      const tag = uniqueTag('dlv');
      const pkg = await createPackageApi(request, {
        name: `CRM Deliveries ${tag}`,
        leadsPerDay: 5,
        priceMonthlyCents: 9_900,
      });

      // an agent with CRM integration whose endpoint answers 400 (a final rejection)
      const agent = await createAgentViaApi(page, `Retry Agent ${tag}`);
      const login = await page.request.post('/api/auth/login', {
        data: { email: agent.email, password: agent.password },
      });
      expect(login.status()).toBe(200);
      const subscribed = await page.request.post('/api/agent/subscription', {
        data: { packageId: pkg.id },
      });
      expect(subscribed.ok(), await subscribed.text()).toBe(true);
      const saved = await page.request.put('/api/agent/delivery', {
        data: { webhook: { url: receiver.url, enabled: true } },
      });
      expect(saved.status(), await saved.text()).toBe(200);

      const leads = await seedLeadsForAgent(request, agent.id, tag, [
        {
          firstName: 'Rita',
          lastName: `Refused${tag}`,
          phone: uniquePhone(),
          email: `rita-${tag}@e2e.test`,
          city: 'Tampa',
          state: 'FL',
          age: 66,
        },
      ]);
      const leadId = leads.get(`rita-${tag}@e2e.test`) as number;
      const leadName = `Rita Refused${tag}`;

      // the queue sends it; the receiver refuses it once and for all
      let failed: DeliveryRow | undefined;
      await expect
        .poll(
          async () => {
            const res = await request.get('/api/admin/deliveries?status=FAILED&channel=WEBHOOK');
            const list = (await res.json()) as { items: DeliveryRow[] };
            failed = list.items.find((d) => d.leadId === leadId);
            return failed?.responseCode ?? null;
          },
          { timeout: 30_000 },
        )
        .toBe(400);

      // the agent sees it on the lead's Activity
      await page.goto('/dashboard/leads');
      await page
        .getByTestId('lead-row')
        .filter({ hasText: leadName })
        .getByRole('button', { name: /Update Status/ })
        .click();
      const activity = page.getByTestId('update-status-drawer').getByTestId('lead-activity');
      await expect(activity.getByRole('heading', { name: 'Activity' })).toBeVisible();
      const deliveryEntry = activity
        .getByTestId('activity-entry')
        .filter({ hasText: 'CRM Webhook' });
      await expect(deliveryEntry.first()).toContainText('Failed');
      await expect(deliveryEntry.first()).toContainText('code 400');
      await expect(
        activity.locator('[data-testid="activity-entry"][data-type="status"]').first(),
      ).toContainText('Assigned');
      await expectAccessible(page);
      await page.keyboard.press('Escape');
      await page.context().clearCookies();

      // the admin's screen, from the sidebar: channel cards, failed deliveries first
      await loginAsAdmin(page);
      await page.getByRole('link', { name: 'Deliveries' }).click();
      await expect(page).toHaveURL(/\/admin\/deliveries$/);
      await expect(page.getByRole('heading', { level: 1, name: 'Deliveries' })).toBeVisible();
      const emailCard = page.locator('[data-testid="channel-card"][data-channel="EMAIL"]');
      const webhookCard = page.locator('[data-testid="channel-card"][data-channel="WEBHOOK"]');
      await expect(emailCard.getByTestId('channel-state')).toHaveText('Not configured');
      await expect(webhookCard.getByTestId('channel-state')).toHaveText('Failing');
      await expect(webhookCard).toContainText('Success rate, last 24 hours');
      await expect(page.getByRole('combobox', { name: 'Filter by status' })).toHaveText('Failed');

      const row = page.getByTestId('delivery-row').filter({ hasText: leadName });
      await expect(row.getByTestId('delivery-status')).toHaveText('Failed');
      await expect(row).toContainText('CRM Webhook');
      await expect(row).toContainText(`Retry Agent ${tag}`);
      await expect(row.getByTestId('delivery-last-response')).toContainText('400');
      await expect(row).toContainText(/ ET/);
      await expectAccessible(page);
      await page.setViewportSize({ width: 375, height: 740 });
      await expect(page.getByTestId('delivery-row').filter({ hasText: leadName })).toBeVisible();
      await expectAccessible(page);
      await page.setViewportSize({ width: 1280, height: 720 });

      // the CRM is fixed; Retry shows its progress and the new state in place
      receiver.state.status = 200;
      const retry = row.getByRole('button', { name: /^Retry delivery of/ });
      // with the keyboard: the focus stays on the row once its button has become the new state
      await retry.focus();
      await page.keyboard.press('Enter');
      await expect(row.getByTestId('delivery-status')).toHaveText('Pending');
      await expect(toast(page, 'Delivery queued again')).toBeVisible();
      await expect(row.getByRole('button', { name: /^Retry delivery of/ })).toHaveCount(0);
      await expect(row).toBeFocused();

      await expect
        .poll(
          async () => {
            const res = await request.get('/api/admin/deliveries?status=SENT&channel=WEBHOOK');
            const list = (await res.json()) as { items: DeliveryRow[] };
            return list.items.some((d) => d.leadId === leadId);
          },
          { timeout: 30_000 },
        )
        .toBe(true);
      await page.getByRole('combobox', { name: 'Filter by status' }).click();
      await page.getByRole('option', { name: 'Sent' }).click();
      const sentRow = page.getByTestId('delivery-row').filter({ hasText: leadName });
      await expect(sentRow.getByTestId('delivery-status')).toHaveText('Sent');
      await expect(sentRow.getByTestId('delivery-last-response')).toContainText('200');

      // one state at a time: a filter with nothing in it says so
      await page.getByRole('combobox', { name: 'Filter by status' }).click();
      await page.getByRole('option', { name: 'Failed' }).click();
      await page.getByRole('combobox', { name: 'Filter by channel' }).click();
      await page.getByRole('option', { name: 'Email' }).click();
      await expect(page.getByTestId('list-empty')).toHaveText('No failed deliveries');
      await expect(page.getByTestId('delivery-row')).toHaveCount(0);
    } finally {
      await receiver.close();
    }
  });
});
