import {
  type APIRequestContext,
  expect,
  type Locator,
  type Page,
  request,
  test,
} from '@playwright/test';
import { formatBusinessTime } from '../src/shared/format';
import { agentTickLabel, periodOfDays } from '../src/web/features/analytics/analytics-format';
import { uniquePhone } from './lead-contact';
import { E2E_ADMIN, loginAsAdmin, uniqueEmail } from './support';

test.describe.configure({ mode: 'serial' });

let seq = 0;
const tag = (prefix: string) => `${prefix}${Date.now().toString(36)}${++seq}`;
const toast = (page: Page, text: string) =>
  page.getByTestId('toast-viewport').getByText(text, { exact: true });

/** An API context of its own (cookie jar apart from the page), logged in as the e2e admin. */
async function adminApi(baseURL: string): Promise<APIRequestContext> {
  const ctx = await request.newContext({ baseURL });
  expect((await ctx.post('/api/auth/login', { data: E2E_ADMIN })).status()).toBe(200);
  return ctx;
}

/** A registered, logged-in agent with its own API context. */
async function agentApi(baseURL: string, name: string) {
  const ctx = await request.newContext({ baseURL });
  const email = uniqueEmail('admin-e2e');
  const reg = await ctx.post('/api/auth/register', {
    data: { name, email, password: 'secret123' },
  });
  expect(reg.status()).toBe(201);
  expect(
    (await ctx.post('/api/auth/login', { data: { email, password: 'secret123' } })).status(),
  ).toBe(200);
  return { ctx, email, name, id: (await reg.json()).user.id as number };
}

/** The element is on screen and drawn wholly inside the box (a chart label nothing clips). */
async function expectWithin(element: Locator, box: Locator) {
  await expect(element).toBeVisible();
  await expect(async () => {
    const inner = await element.boundingBox();
    const outer = await box.boundingBox();
    expect(inner && outer).toBeTruthy();
    if (!inner || !outer) return;
    expect(inner.x).toBeGreaterThanOrEqual(outer.x - 0.5);
    expect(inner.y).toBeGreaterThanOrEqual(outer.y - 0.5);
    expect(inner.x + inner.width).toBeLessThanOrEqual(outer.x + outer.width + 0.5);
    expect(inner.y + inner.height).toBeLessThanOrEqual(outer.y + outer.height + 0.5);
  }).toPass({ timeout: 10_000 });
}

test('packages: create, edit and deactivate; the landing page follows', async ({
  page,
  baseURL,
}) => {
  const api = await adminApi(baseURL!);
  const existing = (await (await api.get('/api/admin/packages')).json()) as unknown[];
  await loginAsAdmin(page);
  await page.getByRole('link', { name: 'Packages', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Packages' })).toBeVisible();

  if (existing.length === 0) {
    await expect(page.getByText('No packages found')).toBeVisible();
    await page.getByRole('button', { name: 'Create Your First Package' }).click();
  } else {
    await page.getByRole('button', { name: 'Create Package' }).click();
  }
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('heading', { name: 'Create Package' })).toBeVisible();
  // the spec's defaults
  await expect(dialog.getByLabel('Category')).toHaveText(/MEDICARE/);
  await expect(dialog.getByRole('checkbox', { name: 'Enrollment Only' })).not.toBeChecked();
  await expect(dialog.getByRole('checkbox', { name: 'CRM Integration' })).toBeChecked();
  await expect(dialog.getByRole('checkbox', { name: 'Call Recording' })).toBeChecked();
  await expect(dialog.getByRole('checkbox', { name: 'Follow-up Messages' })).not.toBeChecked();
  await expect(dialog.getByRole('checkbox', { name: 'Active' })).toBeChecked();

  // required fields are checked before anything is sent, each message under its field
  await dialog.getByRole('button', { name: 'Create Package' }).click();
  await expect(dialog.getByText('Name is required')).toBeVisible();
  await expect(dialog.getByLabel('Name')).toHaveAttribute('aria-invalid', 'true');
  await expect(dialog.getByLabel('Name')).toHaveAccessibleDescription('Name is required');
  // and so are the contract's limits, as the server checks them
  const leadsPerDay = dialog.getByLabel('Leads per Day');
  await leadsPerDay.fill('10001');
  await expect(leadsPerDay).toHaveAccessibleDescription('Leads per day can be at most 10,000');

  const t = tag('pkg');
  const name = `Medicare Gold ${t}`;
  await dialog.getByLabel('Name').fill(name);
  await expect(dialog.getByLabel('Slug')).toHaveValue(`medicare-gold-${t}`);
  await dialog.getByLabel('Price ($/month)').fill('49.99');
  await dialog.getByLabel('Leads per Day').fill('7');
  await dialog.getByLabel('Commission (%)').fill('12');
  await dialog.getByRole('button', { name: 'Create Package' }).click();
  await expect(toast(page, 'Package created')).toBeVisible();
  await expect(dialog).toBeHidden();

  const row = page.getByTestId('package-row').filter({ hasText: name });
  await expect(row).toContainText('MEDICARE');
  await expect(row).toContainText('$50/mo');
  await expect(row).toContainText('7');
  await expect(row).toContainText('12%');
  await expect(row.getByTestId('package-status')).toHaveText('Active');
  const stored = (
    (await (await api.get('/api/admin/packages')).json()) as {
      name: string;
      priceMonthlyCents: number;
      slug: string;
    }[]
  ).find((p) => p.name === name);
  expect(stored).toMatchObject({ priceMonthlyCents: 4999, slug: `medicare-gold-${t}` });

  // edit: the slug stays fixed
  await row.getByRole('button', { name: `Edit ${name}` }).click();
  await expect(dialog.getByRole('heading', { name: 'Edit Package' })).toBeVisible();
  await expect(dialog.getByLabel('Slug')).toBeDisabled();
  await expect(dialog.getByLabel('Price ($/month)')).toHaveValue('49.99');
  const renamed = `Medicare Platinum ${t}`;
  await dialog.getByLabel('Name').fill(renamed);
  await dialog.getByLabel('Price ($/month)').fill('99.5');
  await dialog.getByRole('button', { name: 'Save Changes' }).click();
  await expect(toast(page, 'Package updated')).toBeVisible();
  const renamedRow = page.getByTestId('package-row').filter({ hasText: renamed });
  await expect(renamedRow).toContainText('$100/mo');
  await expect(renamedRow).toContainText(`medicare-gold-${t}`);

  // the landing page lists it while active...
  const landing = await page.context().newPage();
  await landing.goto('/');
  await expect(landing.getByText(renamed)).toBeVisible();

  // ...and not once deactivated
  await renamedRow.getByRole('button', { name: `Deactivate ${renamed}` }).click();
  await expect(toast(page, 'Package status has been updated successfully')).toBeVisible();
  await expect(renamedRow.getByTestId('package-status')).toHaveText('Inactive');
  await expect(renamedRow.getByRole('button', { name: `Activate ${renamed}` })).toBeVisible();
  await landing.reload();
  await expect(landing.locator('#packages [aria-busy="false"]')).toBeAttached();
  await expect(landing.getByText(renamed)).toHaveCount(0);
  await landing.close();
  await api.dispose();
});

test('leads: import a CSV with good and bad rows, then assign a lead; a file of refused rows says nothing was imported', async ({
  page,
  baseURL,
}) => {
  const agent = await agentApi(baseURL!, `Assignee ${tag('a')}`);
  await loginAsAdmin(page);
  await page.getByRole('link', { name: 'Leads', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Leads Management' })).toBeVisible();
  const help = page.getByTestId('csv-format-card');
  await expect(help.getByRole('heading', { name: 'CSV Format' })).toBeVisible();
  for (const column of [
    'state',
    'city',
    'age',
    'category',
    'firstName',
    'externalId',
    'FINAL_EXPENSE',
  ]) {
    await expect(help.getByText(column, { exact: true })).toBeVisible();
  }
  await expect(page.getByTestId('csv-file-input')).toHaveAttribute('accept', '.csv');

  const t = tag('imp');
  const csv = [
    'firstName,lastName,phone,email,city,state,age,category,externalId',
    `Ann,${t},${uniquePhone()},ann.${t}@example.com,Austin,TX,67,MEDICARE,${t}-1`,
    `Bob,${t},${uniquePhone()},bob.${t}@example.com,Miami,Florida,44,aca,${t}-2`,
    `Cy,${t},${uniquePhone()},cy.${t}@example.com,Reno,ZZ,70,MEDICARE,${t}-3`,
    `Dee,${t},${uniquePhone()},dee.${t}@example.com,Dallas,TX,15,MEDICARE,${t}-4`,
    `Eve,${t},${uniquePhone()},eve.${t}@example.com,Boise,ID,80,FINAL_EXPENSE,${t}-5`,
  ].join('\n');
  const logs: string[] = [];
  page.on('console', (msg) => logs.push(msg.text()));
  await page.getByTestId('csv-file-input').setInputFiles({
    name: `${t}.csv`,
    mimeType: 'text/csv',
    buffer: Buffer.from(csv),
  });
  await expect(toast(page, 'Import successful')).toBeVisible();
  await expect(toast(page, 'Imported 3 leads. 2 errors.')).toBeVisible();
  const report = page.getByTestId('import-report');
  await expect(report.getByTestId('import-counts')).toContainText('3 imported');
  await report.getByText('Show the 2 rows that were not imported').click();
  const errors = report.getByTestId('import-errors');
  await expect(errors.getByRole('listitem')).toHaveText([
    "Line 4Invalid state: 'ZZ'",
    "Line 5Age must be an integer from 18 to 120: '15'",
  ]);
  expect(logs.some((l) => l.startsWith('Import errors:'))).toBe(true);

  // only this file's leads, found by the server-side search
  await page.getByLabel('Search leads').fill(t);
  await expect(page.getByTestId('lead-count')).toHaveText('3 leads');
  const rows = page.getByTestId('lead-row');
  await expect(rows).toHaveCount(3);

  const ann = rows.filter({ hasText: `Ann ${t}` });
  await expect(ann).toContainText('Austin, TX');
  await ann.getByRole('button', { name: `Assign Ann ${t}` }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('heading', { name: 'Assign Lead' })).toBeVisible();
  const submit = dialog.getByRole('button', { name: 'Assign Lead' });
  await expect(submit).toBeDisabled();
  await dialog.getByLabel('Select Agent').click();
  const option = page.getByRole('option').filter({ hasText: agent.email });
  await expect(option).toContainText(agent.name);
  await expect(option).toContainText('no subscription');
  await expect(dialog.getByTestId('assign-warnings')).toBeEmpty();
  await option.click();
  // the admin is warned, and may still go on
  const warnings = dialog.getByTestId('assign-warnings');
  await expect(warnings).toContainText(`${agent.name} has no subscription.`);
  await expect(warnings).toContainText('You can still assign it.');
  await expect(page.getByRole('listbox')).toBeHidden();
  await page.screenshot({ path: '.tmp/assign-dialog-1280.png' });
  await expect(submit).toBeEnabled();
  await submit.click();
  await expect(toast(page, 'Lead assigned')).toBeVisible();
  await expect(ann.getByTestId('lead-status')).toHaveText('Assigned');
  // the Agent column names who holds it, and since when, in the business time zone
  const [stored] = (await (await page.request.get(`/api/admin/leads?q=ann.${t}`)).json()) as {
    assignedAt: string;
  }[];
  const holder = ann.getByTestId('lead-agent');
  await expect(holder).toContainText(agent.name);
  await expect(holder).toContainText(`Assigned ${formatBusinessTime(stored.assignedAt)}`);
  await expect(holder).toContainText(/Assigned \d{1,2}\/\d{1,2}\/\d{4}, \d{1,2}:\d{2} [AP]M ET$/);
  await expect(ann.getByRole('button', { name: /Assign/ })).toHaveCount(0);
  await expect(ann.getByText('Assigned', { exact: true }).last()).toBeVisible();

  // the status filter asks the server too
  await page.getByLabel('Filter by status').click();
  await page.getByRole('option', { name: 'New', exact: true }).click();
  await expect(page.getByTestId('lead-count')).toHaveText('2 leads');
  await expect(rows.filter({ hasText: `Ann ${t}` })).toHaveCount(0);

  // a file whose every row is refused is not called a success
  await page.getByTestId('csv-file-input').setInputFiles({
    name: `${t}-refused.csv`,
    mimeType: 'text/csv',
    buffer: Buffer.from(
      `firstName,lastName,phone,city,state,age,category\nFay,${t},${uniquePhone()},Reno,ZZ,70,MEDICARE\n`,
    ),
  });
  await expect(toast(page, 'Nothing imported')).toBeVisible();
  await expect(toast(page, 'Imported 0 leads. 1 errors. See the report below.')).toBeVisible();
  await expect(report.getByTestId('import-counts')).toContainText('0 imported');
  await agent.ctx.dispose();
});

test("agents: package, status, today's quota bar and a status change", async ({
  page,
  baseURL,
}) => {
  const api = await adminApi(baseURL!);
  const t = tag('agt');
  const pkgRes = await api.post('/api/admin/packages', {
    data: {
      name: `Quota Pack ${t}`,
      slug: `quota-pack-${t}`,
      priceMonthlyCents: 12_900,
      leadsPerDay: 4,
      commissionPct: 10,
      category: 'ACA',
      enrollmentOnly: false,
      services: { crm: true, callRecording: true, followUpMessage: false },
      active: true,
    },
  });
  expect(pkgRes.status()).toBe(201);
  const pkg = await pkgRes.json();
  const agent = await agentApi(baseURL!, `Quota Agent ${t}`);
  expect(
    (await agent.ctx.post('/api/agent/subscription', { data: { packageId: pkg.id } })).status(),
  ).toBe(200);
  const loner = await agentApi(baseURL!, `Loner ${t}`);

  // one lead assigned by hand today (the engine may add more for this ACA agent)
  const imported = await api.post('/api/admin/leads/import', {
    multipart: {
      file: {
        name: `${t}.csv`,
        mimeType: 'text/csv',
        buffer: Buffer.from(
          `state,city,age,category,firstName,lastName,email\nTX,Austin,50,ACA,Quota,${t},quota.${t}@e2e.test\n`,
        ),
      },
    },
  });
  expect(imported.status()).toBe(200);
  const [lead] = await (await api.get(`/api/admin/leads?q=${t}`)).json();
  if (lead.status === 'NEW') {
    expect(
      (
        await api.post('/api/admin/leads/assign', { data: { leadId: lead.id, userId: agent.id } })
      ).status(),
    ).toBe(200);
  }
  const expected = (
    (await (await api.get('/api/admin/agents')).json()) as {
      id: number;
      todayQuota: { assigned: number; limit: number };
    }[]
  ).find((a) => a.id === agent.id)!;
  expect(expected.todayQuota.assigned).toBeGreaterThanOrEqual(1);

  await loginAsAdmin(page);
  await page.getByRole('link', { name: 'Agents', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Agents' })).toBeVisible();
  for (const column of [
    'Agent',
    'Package',
    'Status',
    "Today's Quota",
    'Total Leads',
    'Converted',
    'Conversion Rate',
    'Speed to Lead',
  ]) {
    await expect(page.getByRole('columnheader', { name: column, exact: true })).toBeVisible();
  }
  const row = page.getByTestId('agent-row').filter({ hasText: agent.email });
  await expect(row).toContainText(agent.name);
  await expect(row).toContainText(`Quota Pack ${t}`);
  await expect(row).toContainText('$129/month');
  await expect(row.getByTestId('subscription-status')).toHaveText('Active');
  const quota = row.getByTestId('agent-quota');
  await expect(quota).toContainText(`${expected.todayQuota.assigned} / 4`);
  const bar = quota.getByRole('progressbar');
  await expect(bar).toHaveAttribute(
    'aria-valuenow',
    String((expected.todayQuota.assigned / 4) * 100),
  );

  const lonerRow = page.getByTestId('agent-row').filter({ hasText: loner.email });
  await expect(lonerRow).toContainText('No package');
  await expect(lonerRow).toContainText('No Subscription');
  await expect(lonerRow.getByTestId('agent-quota')).toHaveText('N/A');
  // one rate format: no leads reads like no conversions, 0.0%
  await expect(lonerRow.getByRole('cell', { name: '0.0%', exact: true })).toBeVisible();

  // statuses are words, in the badge and in the list that changes them
  await row.getByRole('combobox', { name: `Change subscription status of ${agent.name}` }).click();
  await expect(page.getByRole('option')).toHaveText(['Active', 'Past due', 'Canceled', 'Inactive']);
  await page.getByRole('option', { name: 'Past due' }).click();
  await expect(toast(page, 'Subscription updated')).toBeVisible();
  await expect(page.getByTestId('toast-viewport')).toContainText(`${agent.name}: Past due`);
  await expect(row.getByTestId('subscription-status')).toHaveText('Past due');
  // a past-due agent has no quota: N/A, as for the agent without a subscription
  await expect(quota).toContainText('N/A');
  await expect(quota.getByRole('progressbar')).toHaveCount(0);
  await expect(row.getByTestId('subscription-status')).toHaveAttribute('data-variant', 'secondary');
  const after = (
    (await (await api.get('/api/admin/agents')).json()) as {
      id: number;
      subscription: { status: string };
    }[]
  ).find((a) => a.id === agent.id)!;
  expect(after.subscription.status).toBe('PAST_DUE');
  await api.dispose();
  await agent.ctx.dispose();
  await loner.ctx.dispose();
});

test('dashboard and analytics show the platform figures; a period with nothing says so in its charts', async ({
  page,
  baseURL,
}) => {
  // ten sign-ups, forty calls and two widths of chart checks
  test.setTimeout(120_000);
  const api = await adminApi(baseURL!);
  const t = tag('a');
  // ten named agents with a converted lead each, so the bar chart's top ten is full of names
  // (of a length the axis writes whole)
  const closers = await Promise.all(
    Array.from({ length: 10 }, (_, i) => agentApi(baseURL!, `Closer ${i}${t}`)),
  );
  const rows = closers
    .map((_, i) => `OH,Akron,70,FINAL_EXPENSE,${t}n${i},${t}n${i}@e2e.test`)
    .join('\n');
  await api.post('/api/admin/leads/import', {
    multipart: {
      file: {
        name: `${t}.csv`,
        mimeType: 'text/csv',
        buffer: Buffer.from(`state,city,age,category,firstName,email\n${rows}\n`),
      },
    },
  });
  const leads = (await (await api.get(`/api/admin/leads?q=${t}`)).json()) as { id: number }[];
  expect(leads).toHaveLength(closers.length);
  for (const [i, agent] of closers.entries()) {
    const leadId = leads[i].id;
    expect(
      (await api.post('/api/admin/leads/assign', { data: { leadId, userId: agent.id } })).status(),
    ).toBe(200);
    expect(
      (
        await agent.ctx.post(`/api/agent/leads/${leadId}/status`, {
          data: { status: 'CONVERTED' },
        })
      ).status(),
    ).toBe(200);
  }

  const stats = await (await api.get('/api/admin/stats')).json();
  const health = await (await api.get('/api/health')).json();
  const totalLeads = Number((await api.get('/api/admin/leads?limit=1')).headers()['x-total-count']);
  expect(stats.totalLeads).toBe(totalLeads);

  await loginAsAdmin(page);
  await expect(page.getByRole('heading', { level: 1, name: 'Admin Dashboard' })).toBeVisible();
  await expect(page.getByTestId('card-packages-value')).toHaveText(String(stats.totalPackages));
  await expect(page.getByTestId('card-packages')).toContainText(`${stats.activePackages} active`);
  await expect(page.getByTestId('card-total-leads-value')).toHaveText(String(totalLeads));
  await expect(page.getByTestId('card-total-leads')).toContainText(
    `${stats.unassignedLeads} unassigned`,
  );
  await expect(page.getByTestId('card-agents-value')).toHaveText(String(stats.totalAgents));
  await expect(page.getByTestId('card-agents')).toContainText(
    `${stats.activeAgents} with active subscriptions`,
  );
  await expect(page.getByTestId('card-conversion-rate-value')).toHaveText(
    `${stats.conversionRate.toFixed(1)}%`,
  );
  await expect(page.getByTestId('card-conversion-rate')).toContainText('Overall platform');
  await expect(page.getByRole('link', { name: 'Import Leads' })).toHaveAttribute(
    'href',
    '/admin/leads',
  );
  await expect(page.getByRole('link', { name: 'Manage Packages' })).toHaveAttribute(
    'href',
    '/admin/packages',
  );
  await expect(page.getByTestId('status-database-state')).toHaveText('Operational');
  // the e2e server has no SMTP_URL: the email channel says so, from the health check
  expect(health.channels.email).toBe('NOT_CONFIGURED');
  await expect(page.getByTestId('status-email-state')).toHaveText('Not configured');
  await expect(page.getByTestId('status-email')).toContainText('Set SMTP_URL');
  await expect(page.getByTestId('status-webhook-state')).toHaveText(
    health.channels.webhook === 'NOT_CONFIGURED'
      ? 'Not configured'
      : health.channels.webhook === 'FAILING'
        ? 'Failing'
        : 'Operational',
  );
  // imports ran the engine, so there is a last run; it is operational only without an error
  expect(health.lastAssignmentRun).not.toBeNull();
  await expect(page.getByTestId('status-assignment-state')).toHaveText(
    health.lastAssignmentRun.error ? 'Failed' : 'Operational',
  );
  // its time is read in the business time zone and says so
  await expect(page.getByTestId('status-assignment')).toContainText(
    `Last run ${formatBusinessTime(health.lastAssignmentRun.startedAt)}`,
  );
  await expect(page.getByTestId('status-assignment')).toContainText(
    /Last run \d{1,2}\/\d{1,2}\/\d{4}, \d{1,2}:\d{2} [AP]M ET/,
  );
  await expect(page.getByText('Leads are assigned automatically each day')).toBeVisible();

  // all time (no period): the dashboard's own count
  expect((await (await api.get('/api/admin/analytics')).json()).totalLeads).toBe(totalLeads);
  // the page reads the period its picker shows, the last 30 days by default
  const figuresOf = async (days: number) => {
    const { from, to } = periodOfDays(days);
    return (await api.get(`/api/admin/analytics?from=${from}&to=${to}`)).json();
  };
  const data = await figuresOf(30);
  expect(data.convertedLeads).toBeGreaterThanOrEqual(1);
  await page.getByRole('link', { name: 'Analytics', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Analytics' })).toBeVisible();
  await expect(page.getByText('Performance metrics and insights')).toBeVisible();
  await expect(page.getByTestId('card-total-leads-value')).toHaveText(String(data.totalLeads));
  await expect(page.getByTestId('card-assigned-leads-value')).toHaveText(
    String(data.assignedLeads),
  );
  await expect(page.getByTestId('card-converted-value')).toHaveText(String(data.convertedLeads));
  // converted over assigned
  await expect(page.getByTestId('card-conversion-rate-value')).toHaveText(
    `${((data.convertedLeads / data.assignedLeads) * 100).toFixed(1)}%`,
  );

  const line = page.getByTestId('chart-assignments');
  await expect(line.getByRole('heading', { name: 'Assignments Over Time' })).toBeVisible();
  await expect(line).toContainText('Daily lead assignment trends');
  await expect(line.locator('.recharts-legend-item-text')).toHaveText('Assignments');
  await expect(line.locator('.recharts-line-curve')).toHaveCount(1);
  await expect(line.locator('.recharts-responsive-container')).toHaveCSS('height', '300px');

  const bar = page.getByTestId('chart-conversions');
  await expect(bar.getByRole('heading', { name: 'Conversions by Agent' })).toBeVisible();
  await expect(bar).toContainText('Top performing agents');
  await expect(bar.locator('.recharts-legend-item-text')).toHaveText('Converted Leads');
  const pie = page.getByTestId('chart-categories');
  await expect(pie.getByRole('heading', { name: 'Lead Category Distribution' })).toBeVisible();
  await expect(pie).toContainText('Breakdown by insurance type');
  await expect(pie.locator('.recharts-pie-sector')).toHaveCount(data.categoryDistribution.length);
  await expect(pie.locator('.recharts-pie-sector path').first()).toHaveAttribute(
    'fill',
    'var(--chart-1)',
  );

  // every top agent is named under its bar and every slice labelled, whole and inside its
  // chart, on a desktop and on a phone (a name longer than the axis allows as it is cut)
  const names = (data.conversionsByAgent as { name: string }[]).map((a) => a.name);
  expect(names).toHaveLength(10);
  const sliceLabels = (data.categoryDistribution as { category: string; count: number }[]).map(
    (slice) => `${slice.category.replaceAll('_', ' ')} ${slice.count}`,
  );
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 720 });
    for (const name of names) {
      await expectWithin(
        bar.locator('svg').getByText(agentTickLabel(name), { exact: true }),
        bar.locator('.recharts-wrapper'),
      );
    }
    for (const label of sliceLabels) {
      await expectWithin(pie.getByText(label, { exact: true }), pie.locator('.recharts-wrapper'));
    }
  }
  await expect(bar.locator('.recharts-bar-rectangle')).toHaveCount(names.length);

  const summary = page.getByTestId('summary-statistics');
  await expect(summary).toContainText('Key performance indicators');
  await expect(summary).toContainText(`Total Leads${data.totalLeads}`);
  await expect(summary).toContainText(`Assigned${data.assignedLeads}`);
  await expect(summary).toContainText(`Converted${data.convertedLeads}`);

  // one picker, beside the title, for the whole page: the tiles follow it too
  await page.getByRole('combobox', { name: 'Period' }).click();
  await page.getByRole('option', { name: 'Last 7 days' }).click();
  const week = await figuresOf(7);
  await expect(page.getByTestId('card-total-leads-value')).toHaveText(String(week.totalLeads));
  await expect(page.getByTestId('card-assigned-leads-value')).toHaveText(
    String(week.assignedLeads),
  );
  await expect(page.getByRole('combobox', { name: 'Period' })).toHaveCount(1);

  // a period with nothing assigned (the platform's first days: the browser's clock years back)
  // says so instead of drawing bare axes
  await page.clock.setFixedTime(new Date('2020-06-15T12:00:00Z'));
  await page.reload();
  await expect(page.getByTestId('card-total-leads-value')).toHaveText('0');
  await expect(page.getByTestId('chart-assignments-empty')).toHaveText(
    'No leads were assigned in this period.',
  );
  await expect(page.getByTestId('chart-conversions-empty')).toHaveText(
    'No agent has converted a lead in this period yet.',
  );
  await expect(line.locator('.recharts-line-curve')).toHaveCount(0);
  await expect(bar.locator('.recharts-bar-rectangle')).toHaveCount(0);
  await api.dispose();
  for (const closer of closers) await closer.ctx.dispose();
});
