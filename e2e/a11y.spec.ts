import AxeBuilder from '@axe-core/playwright';
import {
  type APIRequestContext,
  expect as baseExpect,
  type Page,
  request,
  test,
} from '@playwright/test';
import type { Result } from 'axe-core';
import { createPackageApi, uniqueTag } from './agent-fixtures';
import { uniquePhone } from './lead-contact';
import { E2E_ADMIN, uniqueEmail } from './support';

/**
 * axe-core on every screen of the portal, with data on it, at a desktop and a phone width:
 * no serious or critical violation of WCAG 2.0/2.1 A and AA. Overlays (the status drawer,
 * the package and assignment dialogs, the phone sidebar) are scanned open.
 */

// the machine is shared with other suites: allow for slow first paints
const expect = baseExpect.configure({ timeout: 20_000 });
test.describe.configure({ timeout: 120_000 });

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const WIDTHS = [
  { width: 1280, height: 800 },
  { width: 375, height: 740 },
];

interface Seed {
  tag: string;
  packageName: string;
  /** a pay-per-lead package with a price list */
  perLeadPackageName: string;
  agent: { email: string; password: string; name: string; id: number };
  /** A NEW lead (admin leads screen), found by this search. */
  newLeadSearch: string;
  newLeadName: string;
}

let seeded: Promise<Seed> | null = null;
/** Everything the screens show, created once through the API (names unique to this run). */
function seed(baseURL: string): Promise<Seed> {
  seeded ??= createSeed(baseURL);
  return seeded;
}

async function importCsv(api: APIRequestContext, tag: string, rows: string[]) {
  const header = 'firstName,lastName,phone,email,city,state,age,category,externalId';
  const res = await api.post('/api/admin/leads/import', {
    multipart: {
      file: {
        name: `${tag}.csv`,
        mimeType: 'text/csv',
        buffer: Buffer.from(`${[header, ...rows].join('\n')}\n`),
      },
    },
  });
  expect(res.status(), await res.text()).toBe(200);
  expect((await res.json()).imported).toBe(rows.length);
  const listed = await api.get(`/api/admin/leads?q=${encodeURIComponent(tag)}&limit=100`);
  expect(listed.status()).toBe(200);
  return (await listed.json()) as {
    id: number;
    firstName: string;
    lastName: string;
    status: string;
    agentId: number | null;
  }[];
}

async function createSeed(baseURL: string): Promise<Seed> {
  const api = await request.newContext({ baseURL });
  expect((await api.post('/api/auth/login', { data: E2E_ADMIN })).status()).toBe(200);
  const tag = uniqueTag('axe');
  const pkg = await createPackageApi(api, {
    name: `Axe Medicare ${tag}`,
    leadsPerDay: 6,
    priceMonthlyCents: 8_900,
    category: 'MEDICARE',
  });

  const perLead = await createPackageApi(api, {
    name: `Axe Per Lead ${tag}`,
    leadsPerDay: 4,
    priceMonthlyCents: 0,
    category: 'MEDICARE',
    pricing: 'PER_LEAD',
    perLeadCents: 2_500,
  });
  const prices = await api.put(`/api/admin/packages/${perLead.id}/prices`, {
    data: { rules: [{ state: 'TX', ageMin: 65, ageMax: null, sourceId: null, priceCents: 1_250 }] },
  });
  expect(prices.status(), await prices.text()).toBe(200);

  const agentCtx = await request.newContext({ baseURL });
  const agent = { email: uniqueEmail('axe'), password: 'secret123', name: `Ava Axe ${tag}` };
  const reg = await agentCtx.post('/api/auth/register', { data: agent });
  expect(reg.status()).toBe(201);
  const agentId = (await reg.json()).user.id as number;
  expect((await agentCtx.post('/api/auth/login', { data: agent })).status()).toBe(200);
  expect(
    (await agentCtx.post('/api/agent/subscription', { data: { packageId: pkg.id } })).status(),
  ).toBe(200);
  expect(
    (
      await agentCtx.put('/api/agent/preferences', {
        data: {
          // states no other spec imports MEDICARE leads in: the engine gives this agent
          // nothing another spec's seed expects for its own agent
          states: ['AK', 'HI', 'ME'],
          cities: ['Juneau', 'Honolulu'],
          ageMin: 30,
          ageMax: 90,
          categories: ['MEDICARE'],
        },
      })
    ).status(),
  ).toBe(200);

  // leads for the agent: NEW ones are assigned by hand; the engine may already have given
  // some to this agent (or, with other specs' agents around, to someone else: left alone)
  const cities = [
    ['Juneau', 'AK'],
    ['Honolulu', 'HI'],
    ['Portland', 'ME'],
    ['Anchorage', 'AK'],
  ];
  const leads = await importCsv(
    api,
    tag,
    cities.map(
      ([city, state], i) =>
        `Lee${i},Axe${tag},${uniquePhone()},lee${i}.${tag}@e2e.test,${city},${state},${65 + i},MEDICARE,${tag}-${i}`,
    ),
  );
  const mine: number[] = [];
  for (const lead of leads) {
    if (lead.status === 'NEW') {
      const res = await api.post('/api/admin/leads/assign', {
        data: { leadId: lead.id, userId: agentId },
      });
      expect(res.status(), await res.text()).toBe(200);
      mine.push(lead.id);
    } else if (lead.agentId === agentId) mine.push(lead.id);
  }
  expect(mine.length).toBeGreaterThanOrEqual(3);
  // a spread of statuses, so every badge is on screen
  for (const [i, status] of ['CONTACTED', 'CONVERTED'].entries()) {
    const res = await agentCtx.post(`/api/agent/leads/${mine[i]}/status`, { data: { status } });
    expect(res.status(), await res.text()).toBe(200);
  }

  // a lead that stays NEW for the Assign Lead dialog: one at a time, in a category this agent
  // does not take, until the engine leaves one waiting (another spec's agent may take it)
  let newLead: { tag: string; name: string } | null = null;
  for (let attempt = 0; attempt < 8 && !newLead; attempt++) {
    const t = uniqueTag('axenew');
    const category = attempt % 2 ? 'FINAL_EXPENSE' : 'ACA';
    const row = `Nia,New${t},${uniquePhone()},nia.${t}@e2e.test,Boise,ID,44,${category},${t}`;
    const found = (await importCsv(api, t, [row])).find((l) => l.status === 'NEW');
    if (found) newLead = { tag: t, name: `${found.firstName} ${found.lastName}` };
  }
  expect(newLead, 'a lead stays NEW').not.toBeNull();

  // an admin's credit, so the wallet screen has a balance and an entry with its note
  const credited = await api.post(`/api/admin/agents/${agentId}/wallet`, {
    data: { amountCents: 5_000, note: `Welcome credit ${tag}` },
  });
  expect(credited.status(), await credited.text()).toBe(200);

  await agentCtx.dispose();
  await api.dispose();
  return {
    tag,
    packageName: pkg.name,
    perLeadPackageName: perLead.name,
    agent: { ...agent, id: agentId },
    newLeadSearch: newLead!.tag,
    newLeadName: newLead!.name,
  };
}

async function loginApi(page: Page, who: { email: string; password: string }) {
  // page.request shares the browser context's cookie jar
  const res = await page.request.post('/api/auth/login', {
    data: { email: who.email, password: who.password },
  });
  expect(res.status()).toBe(200);
}

/** Waits until no CSS animation or transition runs (an overlay fading in would skew contrast). */
async function settle(page: Page) {
  // the toast region mounts when the browser is first idle; scan the page with it, every time
  await page.getByTestId('toast-viewport').waitFor({ state: 'attached' });
  await page.waitForFunction(() =>
    document.getAnimations().every((a) => a.playState !== 'running'),
  );
}

function formatViolations(violations: Result[]): string {
  return violations
    .map(
      (v) =>
        `[${v.impact}] ${v.id}: ${v.help}\n${v.nodes
          .slice(0, 8)
          .map((n) => `    ${n.target.join(' ')}  ${n.failureSummary?.replace(/\n/g, ' | ')}`)
          .join('\n')}`,
    )
    .join('\n');
}

let scans = 0;
/** Runs axe on the page as it is now; fails with a readable list of serious/critical issues. */
async function expectNoSeriousViolations(page: Page, label: string) {
  await settle(page);
  const results = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  scans++;
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const minor = results.violations.filter((v) => !bad.includes(v));
  console.log(
    `axe ${label}: ${results.passes.length} rules passed, ${bad.length} serious/critical, ${minor.length} minor/moderate`,
  );
  if (minor.length) console.log(`${label}: minor/moderate\n${formatViolations(minor)}`);
  expect(
    bad.map((v) => v.id),
    `${label}\n${formatViolations(bad)}`,
  ).toEqual([]);
  // axe ran something: the rules passed on real nodes
  expect(results.passes.length).toBeGreaterThan(10);
}

type Role = 'anonymous' | 'agent' | 'admin';
interface Screen {
  name: string;
  path: string | ((s: Seed) => string);
  role: Role;
  /** Waits until the data is on screen. */
  ready: (page: Page, s: Seed) => Promise<void>;
  /** Optional overlay opened and scanned after the screen itself. */
  overlay?: { name: string; open: (page: Page, s: Seed) => Promise<void> };
}

const h1 = (page: Page, name: string) =>
  expect(page.getByRole('heading', { level: 1, name })).toBeVisible();

const screens: Screen[] = [
  {
    name: 'landing',
    path: '/',
    role: 'anonymous',
    ready: async (page, s) => {
      await expect(page.locator('#packages [aria-busy="false"]')).toBeAttached();
      await expect(page.getByText(s.packageName)).toBeVisible();
      await expect(
        page.getByTestId('package-card').filter({ hasText: s.perLeadPackageName }),
      ).toContainText('from $12.50 per lead');
    },
  },
  {
    name: 'login',
    path: '/login',
    role: 'anonymous',
    ready: async (page) => {
      await expect(page.getByLabel('Email')).toBeVisible();
    },
    overlay: {
      name: 'refused login (toast)',
      open: async (page) => {
        await page.getByLabel('Email').fill('nobody@e2e.test');
        await page.getByLabel('Password').fill('wrong-password');
        await page.getByRole('button', { name: 'Log In' }).click();
        await expect(
          page.getByTestId('toast-viewport').getByText('Login failed', { exact: true }),
        ).toBeVisible();
      },
    },
  },
  {
    name: 'register',
    path: '/register',
    role: 'anonymous',
    ready: async (page) => {
      await expect(page.getByLabel('Full Name')).toBeVisible();
    },
  },
  {
    name: '404',
    path: '/no-such-page',
    role: 'anonymous',
    ready: (page) => h1(page, '404 Page Not Found'),
  },
  {
    name: 'agent dashboard',
    path: '/dashboard',
    role: 'agent',
    ready: async (page, s) => {
      await h1(page, 'Dashboard');
      await expect(page.getByTestId('card-current-package')).toContainText(s.packageName);
    },
  },
  {
    name: 'agent leads',
    path: '/dashboard/leads',
    role: 'agent',
    ready: async (page) => {
      await h1(page, 'My Leads');
      await expect(page.getByTestId('lead-row').first()).toBeVisible();
      await expect(page.getByTestId('lead-row').filter({ hasText: 'Converted' })).toHaveCount(1);
    },
    overlay: {
      name: 'Update Lead Status drawer',
      open: async (page) => {
        await page
          .getByTestId('lead-row')
          .filter({ hasText: 'Assigned' })
          .first()
          .getByRole('button', { name: /Update Status/ })
          .click();
        await expect(
          page.getByTestId('update-status-drawer').getByText('Update Lead Status'),
        ).toBeVisible();
      },
    },
  },
  {
    name: 'agent preferences',
    path: '/dashboard/preferences',
    role: 'agent',
    ready: async (page) => {
      await h1(page, 'Lead Preferences');
      await expect(page.locator('button[aria-pressed="true"]')).toHaveCount(3);
      await expect(page.getByLabel('Cities')).toHaveValue('Juneau, Honolulu');
    },
  },
  {
    name: 'agent services',
    path: '/dashboard/services',
    role: 'agent',
    ready: async (page) => {
      await h1(page, 'Services');
      await expect(
        page.getByTestId('alerts-card').getByRole('button', { name: 'Save alerts' }),
      ).toBeVisible();
      // the quiet hours' fields are part of the card's use
      await page.getByTestId('alerts-card').getByRole('switch', { name: 'Quiet hours' }).click();
      await expect(page.getByLabel('From')).toBeVisible();
    },
  },
  {
    name: 'agent package',
    path: '/dashboard/package',
    role: 'agent',
    ready: async (page, s) => {
      await h1(page, 'Package');
      await expect(
        page.getByTestId('package-card').filter({ hasText: s.packageName }),
      ).toBeVisible();
      await expect(page.getByTestId('current-subscription')).toBeVisible();
    },
  },
  {
    name: 'agent wallet',
    path: '/dashboard/wallet',
    role: 'agent',
    ready: async (page, s) => {
      await h1(page, 'Wallet');
      await expect(page.getByTestId('wallet-balance')).toContainText('$50.00');
      await expect(
        page.getByTestId('wallet-entry').filter({ hasText: `Welcome credit ${s.tag}` }),
      ).toBeVisible();
    },
  },
  {
    name: 'admin dashboard',
    path: '/admin',
    role: 'admin',
    ready: async (page) => {
      await h1(page, 'Admin Dashboard');
      await expect(page.getByTestId('card-packages-value')).toHaveText(/\d+/);
      await expect(page.getByTestId('status-database-state')).toHaveText('Operational');
    },
  },
  {
    name: 'admin packages',
    path: '/admin/packages',
    role: 'admin',
    ready: async (page, s) => {
      await h1(page, 'Packages');
      await expect(
        page.getByTestId('package-row').filter({ hasText: s.packageName }),
      ).toBeVisible();
    },
    overlay: {
      name: 'Create Package dialog',
      open: async (page) => {
        await page.getByRole('button', { name: 'Create Package' }).click();
        await expect(
          page.getByRole('dialog').getByRole('heading', { name: 'Create Package' }),
        ).toBeVisible();
      },
    },
  },
  {
    name: 'admin packages, a price list',
    path: '/admin/packages',
    role: 'admin',
    ready: async (page, s) => {
      await h1(page, 'Packages');
      await expect(
        page.getByTestId('package-row').filter({ hasText: s.perLeadPackageName }),
      ).toContainText('$25 / lead');
    },
    overlay: {
      name: 'Price list dialog',
      open: async (page, s) => {
        await page.getByRole('button', { name: `Price list of ${s.perLeadPackageName}` }).click();
        await expect(page.getByTestId('price-rule')).toHaveCount(1);
      },
    },
  },
  {
    name: 'admin leads',
    path: '/admin/leads',
    role: 'admin',
    ready: async (page) => {
      await h1(page, 'Leads Management');
      await expect(page.getByTestId('lead-row').first()).toBeVisible();
    },
    overlay: {
      name: 'Assign Lead dialog',
      open: async (page, s) => {
        await page.getByLabel('Search leads').fill(s.newLeadSearch);
        await page.getByRole('button', { name: `Assign ${s.newLeadName}` }).click();
        const dialog = page.getByRole('dialog');
        await expect(dialog.getByRole('heading', { name: 'Assign Lead' })).toBeVisible();
        // the agent list is open too: its options are part of the dialog's use
        await dialog.getByLabel('Select Agent').click();
        await expect(page.getByRole('option').first()).toBeVisible();
      },
    },
  },
  {
    name: 'admin agents',
    path: '/admin/agents',
    role: 'admin',
    ready: async (page, s) => {
      await h1(page, 'Agents');
      await expect(page.getByTestId('agent-row').filter({ hasText: s.agent.email })).toBeVisible();
    },
    overlay: {
      name: 'Licensed states dialog',
      open: async (page, s) => {
        await page
          .getByTestId('agent-row')
          .filter({ hasText: s.agent.email })
          .getByRole('button', { name: /Edit licensed states of/ })
          .click();
        await expect(page.getByRole('dialog').getByText(/Licensed states of/)).toBeVisible();
      },
    },
  },
  {
    name: 'admin agents, a wallet credit',
    path: '/admin/agents',
    role: 'admin',
    ready: async (page, s) => {
      await h1(page, 'Agents');
      await expect(
        page
          .getByTestId('agent-row')
          .filter({ hasText: s.agent.email })
          .getByTestId('agent-balance'),
      ).toContainText('$50.00');
    },
    overlay: {
      name: 'Credit wallet dialog',
      open: async (page, s) => {
        await page.getByRole('button', { name: `Credit wallet of ${s.agent.name}` }).click();
        await expect(page.getByRole('dialog').getByLabel('Note')).toBeVisible();
      },
    },
  },
  {
    name: 'admin returns',
    path: '/admin/returns',
    role: 'admin',
    ready: async (page) => {
      await h1(page, 'Returns');
      await expect(page.getByRole('tab', { name: /Pending/ })).toBeVisible();
    },
  },
  {
    name: 'admin analytics',
    path: '/admin/analytics',
    role: 'admin',
    ready: async (page) => {
      await h1(page, 'Analytics');
      await expect(
        page.getByTestId('chart-conversions').locator('.recharts-bar-rectangle').first(),
      ).toBeVisible();
      await expect(page.getByTestId('summary-statistics')).toBeVisible();
    },
  },
];

for (const viewport of WIDTHS) {
  test.describe(`at ${viewport.width}px`, () => {
    test.use({ viewport });

    for (const screen of screens) {
      test(`${screen.name}${screen.overlay ? ` and its ${screen.overlay.name}` : ''}`, async ({
        page,
        baseURL,
      }) => {
        const s = await seed(baseURL!);
        if (screen.role === 'agent') await loginApi(page, s.agent);
        if (screen.role === 'admin') await loginApi(page, E2E_ADMIN);
        const path = typeof screen.path === 'string' ? screen.path : screen.path(s);
        await page.goto(path);
        await screen.ready(page, s);
        await expectNoSeriousViolations(page, `${screen.name} @${viewport.width}px`);
        if (screen.overlay) {
          await screen.overlay.open(page, s);
          await expectNoSeriousViolations(
            page,
            `${screen.name} / ${screen.overlay.name} @${viewport.width}px`,
          );
        }
      });
    }

    test('the portal sidebar, opened on this width', async ({ page, baseURL }) => {
      const s = await seed(baseURL!);
      await loginApi(page, s.agent);
      await page.goto('/dashboard');
      await h1(page, 'Dashboard');
      await page.getByRole('button', { name: 'Toggle Sidebar' }).click();
      if (viewport.width < 768) {
        // the phone sidebar is a sheet over the page
        await expect(
          page.getByRole('dialog').getByRole('link', { name: 'My Leads' }),
        ).toBeVisible();
      } else {
        // the desktop sidebar collapses to icons
        await expect(page.getByTestId('sidebar-wrapper')).toHaveAttribute(
          'data-state',
          'collapsed',
        );
      }
      await expectNoSeriousViolations(page, `sidebar toggled @${viewport.width}px`);
      if (viewport.width >= 768) await page.getByRole('button', { name: 'Toggle Sidebar' }).click();
    });
  });
}

test.afterAll(() => {
  console.log(`axe scans run: ${scans}`);
});
