import { expect, type Page, test } from '@playwright/test';
import { loginAdminApi, seedLeadsForAgent, uniqueTag } from './agent-fixtures';
import { uniquePhone } from './lead-contact';
import { createAgentViaApi, E2E_ADMIN } from './support';

/**
 * A list shows one state at a time: a list that fails to load shows its error and a Retry
 * button, and nothing else (no "Loading leads...", no "No leads found", no stale count); Retry
 * loads it.
 */

async function failThenRecover(page: Page, path: string, screen: string, rowTestId: string) {
  let failing = true;
  await page.route(
    (url) => url.pathname === path,
    (route) =>
      failing && route.request().method() === 'GET'
        ? route.fulfill({ status: 500, json: { message: 'Internal server error' } })
        : route.continue(),
  );
  await page.goto(screen);
  const error = page.getByTestId('load-error');
  await expect(error).toBeVisible();
  await expect(error.getByRole('alert')).toContainText('could not be loaded');
  await expect(page.getByText('Loading leads...')).toHaveCount(0);
  await expect(page.getByText(/^No \w+ found$/)).toHaveCount(0);
  await expect(page.getByTestId(`${rowTestId}-skeleton`)).toHaveCount(0);
  await expect(page.getByTestId(rowTestId)).toHaveCount(0);
  await expect(page.getByRole('table')).toHaveCount(0);
  const count = page.getByTestId('lead-count');
  if (await count.count()) await expect(count).toHaveText('');

  failing = false;
  await error.getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByTestId(rowTestId).first()).toBeVisible();
  await expect(error).toHaveCount(0);
}

test.describe('lists that fail to load: the error and Retry, alone', () => {
  test('admin leads', async ({ page }) => {
    await page.request.post('/api/auth/login', { data: E2E_ADMIN });
    // a lead to show once the list loads
    await page.request.post('/api/admin/leads/import', {
      multipart: {
        file: {
          name: 'states.csv',
          mimeType: 'text/csv',
          buffer: Buffer.from(
            `state,city,age,category,email\nTX,Austin,40,ACA,states-${Date.now()}@e2e.test\n`,
          ),
        },
      },
    });
    await failThenRecover(page, '/api/admin/leads', '/admin/leads', 'lead-row');
    await expect(page.getByTestId('lead-count')).toHaveText(/\d+ leads?/);
  });

  test('my leads', async ({ page, request }) => {
    const agent = await createAgentViaApi(page, 'Stella States');
    await loginAdminApi(request);
    const tag = uniqueTag('states');
    await seedLeadsForAgent(request, agent.id, tag, [
      {
        firstName: 'Stella',
        lastName: tag,
        phone: uniquePhone(),
        email: `stella.${tag}@e2e.test`,
        city: 'Stowe',
        state: 'VT',
        age: 50,
      },
    ]);
    await page.request.post('/api/auth/login', {
      data: { email: agent.email, password: agent.password },
    });
    await failThenRecover(page, '/api/agent/leads', '/dashboard/leads', 'lead-row');
  });

  test('admin packages', async ({ page }) => {
    await page.request.post('/api/auth/login', { data: E2E_ADMIN });
    await page.request.post('/api/admin/packages', {
      data: {
        name: `States Pack ${Date.now()}`,
        slug: `states-pack-${Date.now()}`,
        priceMonthlyCents: 1000,
        leadsPerDay: 1,
        commissionPct: 1,
        category: 'ACA',
        enrollmentOnly: false,
        services: { crm: false, callRecording: false, followUpMessage: false },
        active: true,
      },
    });
    await failThenRecover(page, '/api/admin/packages', '/admin/packages', 'package-row');
  });

  test('my wallet', async ({ page }) => {
    const agent = await createAgentViaApi(page, 'Wanda Wallet');
    await page.request.post('/api/auth/login', { data: E2E_ADMIN });
    // an entry to show once the wallet loads
    const credited = await page.request.post(`/api/admin/agents/${agent.id}/wallet`, {
      data: { amountCents: 1_000, note: 'For the list states' },
    });
    expect(credited.status()).toBe(200);
    await page.request.post('/api/auth/login', {
      data: { email: agent.email, password: agent.password },
    });
    await failThenRecover(page, '/api/agent/wallet', '/dashboard/wallet', 'wallet-entry');
  });

  test('admin agents', async ({ page }) => {
    await createAgentViaApi(page, 'Agent For The Agents List');
    await page.request.post('/api/auth/login', { data: E2E_ADMIN });
    await failThenRecover(page, '/api/admin/agents', '/admin/agents', 'agent-row');
  });
});
