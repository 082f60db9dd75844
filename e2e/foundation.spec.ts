import { expect, type Page, type Request, test } from '@playwright/test';
import { prerenderedPages } from '../src/web/app/prerendered-pages';
import { createAgentViaApi, E2E_ADMIN, loginAsAdmin, loginThroughUi, uniqueEmail } from './support';

const toast = (page: Page, text: string) =>
  page.getByTestId('toast-viewport').getByText(text, { exact: true });

let seq = 0;
function uniqueSlug(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${++seq}`;
}

type PackageInput = {
  name: string;
  category: 'MEDICARE' | 'ACA' | 'FINAL_EXPENSE';
  priceMonthlyCents: number;
  leadsPerDay: number;
  commissionPct: number;
  enrollmentOnly: boolean;
  services: { crm: boolean; callRecording: boolean; followUpMessage: boolean };
  active: boolean;
};

/** Creates a package through the admin API with the page's cookie jar (admin must be logged in). */
async function createPackage(page: Page, input: PackageInput) {
  const res = await page.request.post('/api/admin/packages', {
    data: { slug: uniqueSlug('e2e-foundation'), ...input },
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as PackageInput & { id: number; slug: string };
}

/** Counts the requests the page sends to a path. */
function countRequests(page: Page, path: string): Request[] {
  const seen: Request[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === path) seen.push(request);
  });
  return seen;
}

test.describe('landing page', () => {
  test('shows only active packages, each with every card field', async ({ page }) => {
    const login = await page.request.post('/api/auth/login', { data: E2E_ADMIN });
    expect(login.status()).toBe(200);
    const tag = Date.now().toString(36);
    const finalExpense = await createPackage(page, {
      name: `Final Expense Enroll ${tag}`,
      category: 'FINAL_EXPENSE',
      priceMonthlyCents: 19_900,
      leadsPerDay: 7,
      commissionPct: 22,
      enrollmentOnly: true,
      services: { crm: true, callRecording: false, followUpMessage: true },
      active: true,
    });
    const medicare = await createPackage(page, {
      name: `Medicare Everyday ${tag}`,
      category: 'MEDICARE',
      priceMonthlyCents: 34_950,
      leadsPerDay: 12,
      commissionPct: 30,
      enrollmentOnly: false,
      services: { crm: false, callRecording: true, followUpMessage: false },
      active: true,
    });
    const inactive = await createPackage(page, {
      name: `Retired ACA ${tag}`,
      category: 'ACA',
      priceMonthlyCents: 9_900,
      leadsPerDay: 3,
      commissionPct: 10,
      enrollmentOnly: false,
      services: { crm: true, callRecording: true, followUpMessage: true },
      active: false,
    });

    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      'Grow Your Insurance Business',
    );

    const feCard = page.getByTestId('package-card').filter({ hasText: finalExpense.name });
    await expect(feCard).toHaveCount(1);
    await expect(feCard.getByRole('heading', { name: finalExpense.name })).toBeVisible();
    await expect(feCard).toContainText('$199/month');
    await expect(feCard.getByText('FINAL EXPENSE', { exact: true })).toBeVisible();
    await expect(feCard.getByText('FINAL_EXPENSE')).toHaveCount(0);
    await expect(feCard.getByText('Enrollment Period', { exact: true })).toBeVisible();
    await expect(feCard.getByText('7 leads per day', { exact: true })).toBeVisible();
    await expect(feCard.getByText('22% commission', { exact: true })).toBeVisible();
    const feServices = feCard
      .getByRole('list', { name: 'Included services' })
      .getByRole('listitem');
    // the shared e2e server has neither Twilio nor SMTP: a service it cannot provide says so
    await expect(feServices).toHaveText(['CRM', 'Follow-up Messages: not available']);
    await expect(feCard.getByText('Call Recording')).toHaveCount(0);
    const getStarted = feCard.getByRole('link', { name: 'Get Started' });
    await expect(getStarted).toHaveAttribute('href', '/register');

    // $349.50 shows as $350 (USD, no decimals); no Enrollment Period badge when it is off
    const mcCard = page.getByTestId('package-card').filter({ hasText: medicare.name });
    await expect(mcCard).toContainText('$350/month');
    await expect(mcCard.getByText('MEDICARE', { exact: true })).toBeVisible();
    await expect(mcCard.getByText('Enrollment Period')).toHaveCount(0);
    await expect(mcCard.getByText('12 leads per day', { exact: true })).toBeVisible();
    await expect(mcCard.getByText('30% commission', { exact: true })).toBeVisible();
    await expect(
      mcCard.getByRole('list', { name: 'Included services' }).getByRole('listitem'),
    ).toHaveText(['Call Recording: not available']);

    // the inactive package is nowhere on the page, and every card shown is an active package
    await expect(page.getByText(inactive.name)).toHaveCount(0);
    const active = (await (await page.request.get('/api/packages')).json()) as { name: string }[];
    expect(active.map((p) => p.name)).not.toContain(inactive.name);
    await expect(page.getByTestId('package-card')).toHaveCount(active.length);

    await getStarted.click();
    await expect(page).toHaveURL(/\/register$/);
    await expect(page.getByRole('button', { name: 'Create Account' })).toBeVisible();
  });

  test('shows three placeholder cards while the packages load', async ({ page }) => {
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/api/packages', async (route) => {
      await released;
      await route.continue();
    });

    await page.goto('/');
    const skeletons = page.getByTestId('package-card-skeleton');
    await expect(skeletons).toHaveCount(3);
    for (const skeleton of await skeletons.all()) await expect(skeleton).toBeVisible();
    await expect(page.getByTestId('package-card')).toHaveCount(0);

    release();
    await expect(skeletons).toHaveCount(0);
    const listed = (await (await page.request.get('/api/packages')).json()) as unknown[];
    await expect(page.getByTestId('package-card')).toHaveCount(listed.length);
  });
});

test.describe('accounts', () => {
  test('register with mismatched passwords shows the toast and sends nothing', async ({ page }) => {
    const sent = countRequests(page, '/api/auth/register');
    await page.goto('/register');
    await expect(page.getByText('At least 6 characters')).toBeVisible();
    // the page is prerendered: wait until its script (and the registration mode) has loaded,
    // so that the click below reaches the app rather than the bare form
    await page.waitForLoadState('networkidle');
    await page.getByLabel('Full Name').fill('Mia Match');
    await page.getByLabel('Email').fill(uniqueEmail('mismatch'));
    await page.getByLabel('Password', { exact: true }).fill('secret123');
    await page.getByLabel('Confirm Password').fill('secret124');
    await page.getByRole('button', { name: 'Create Account' }).click();

    await expect(toast(page, 'Password mismatch')).toBeVisible();
    await expect(toast(page, 'Passwords do not match')).toBeVisible();
    await page.waitForTimeout(500);
    expect(sent).toHaveLength(0);
    await expect(page).toHaveURL(/\/register$/);

    // the counter does see a real submission: matching passwords send exactly one request
    await page.getByLabel('Confirm Password').fill('secret123');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect(toast(page, 'Account created!')).toBeVisible();
    expect(sent).toHaveLength(1);
    expect(Object.keys(sent[0]?.postDataJSON() ?? {}).sort()).toEqual([
      'email',
      'name',
      'password',
    ]);
  });

  test('register then login lands an agent on /dashboard', async ({ page }) => {
    const email = uniqueEmail('newbie');
    await page.goto('/register');
    await page.getByLabel('Full Name').fill('Nora Newbie');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('secret123');
    await page.getByLabel('Confirm Password').fill('secret123');
    await page.getByRole('button', { name: 'Create Account' }).click();

    await expect(page).toHaveURL(/\/login$/);
    await expect(toast(page, 'Account created!')).toBeVisible();
    await expect(toast(page, 'You can now log in with your credentials')).toBeVisible();

    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('secret123');
    await page.getByRole('button', { name: 'Log In' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(toast(page, 'Welcome back!')).toBeVisible();
    await expect(toast(page, 'Login successful')).toBeVisible();
    await expect(page.getByTestId('portal-title')).toHaveText('Agent Portal');
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  });

  test('logout goes to /login and the portal is closed afterwards', async ({ page }) => {
    const agent = await createAgentViaApi(page, 'Lou Logout');
    await loginThroughUi(page, agent.email, agent.password, /\/dashboard$/);
    await page.getByRole('button', { name: 'Logout' }).click();

    await expect(page).toHaveURL(/\/login$/);
    await expect(toast(page, 'Logged out')).toBeVisible();
    await expect(toast(page, 'You have been logged out successfully')).toBeVisible();

    await page.goto('/dashboard');
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('button', { name: 'Log In' })).toBeVisible();
    expect((await page.request.get('/api/auth/me')).status()).toBe(401);
  });
});

test.describe('route guards', () => {
  test('an admin lands on /admin', async ({ page }) => {
    await loginAsAdmin(page);
    await expect(page.getByTestId('portal-title')).toHaveText('Admin Portal');
    const menu = page.getByRole('navigation', { name: 'Admin Portal' });
    // the spec's five, then the delivery product's two (issue 14), the DNC list and the
    // returns queue (issue 16), the agencies (issue 25), the audit log and consumers' deletion
    // requests (issue 28)
    await expect(menu.getByRole('link')).toHaveText([
      'Dashboard',
      'Packages',
      'Leads',
      'Agents',
      'Analytics',
      'Sources',
      'Do Not Call',
      /^Returns/, // with the pending count when returns wait
      'Deliveries',
      'Agencies',
      'Audit',
      'Privacy',
      'Settings',
    ]);
  });

  test('an agent opening /admin is sent to /dashboard', async ({ page }) => {
    const agent = await createAgentViaApi(page, 'Ada Agent');
    await loginThroughUi(page, agent.email, agent.password, /\/dashboard$/);
    await page.goto('/admin');
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByTestId('portal-title')).toHaveText('Agent Portal');
    await expect(page.getByRole('navigation', { name: 'Admin Portal' })).toHaveCount(0);
  });

  test('a visitor opening /dashboard is sent to /login', async ({ page }) => {
    await page.goto('/dashboard');
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('button', { name: 'Log In' })).toBeVisible();
    await expect(page.getByTestId('portal-title')).toHaveCount(0);
  });

  test('an unknown path shows the 404 page; an unknown /api path answers JSON 404', async ({
    page,
  }) => {
    await page.goto('/no/such/page');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('404 Page Not Found');
    await expect(page.getByText('Did you forget to add the page to the router?')).toBeVisible();

    const api = await page.request.get('/api/no-such-endpoint');
    expect(api.status()).toBe(404);
    expect(api.headers()['content-type']).toContain('application/json');
    const body = (await api.json()) as { message?: unknown };
    expect(typeof body.message).toBe('string');
  });
});

test.describe('portal sidebar', () => {
  async function sidebarCookie(page: Page) {
    const cookies = await page.context().cookies();
    return cookies.find((c) => c.name === 'sidebar_state');
  }

  test('collapses with the button and Ctrl+B and stays collapsed after a reload', async ({
    page,
  }) => {
    await loginAsAdmin(page);
    const sidebar = page.getByTestId('sidebar');
    const panel = sidebar.locator('aside');
    await expect(sidebar).toHaveAttribute('data-state', 'expanded');
    await expect(sidebar).toHaveAttribute('data-mobile', 'false');
    await expect.poll(async () => (await panel.boundingBox())?.width).toBe(256);
    expect(await sidebarCookie(page)).toBeUndefined();

    await page.getByRole('button', { name: 'Toggle Sidebar' }).click();
    await expect(sidebar).toHaveAttribute('data-state', 'collapsed');
    await expect.poll(async () => (await panel.boundingBox())?.width).toBe(48);
    const cookie = await sidebarCookie(page);
    expect(cookie?.value).toBe('false');
    // 7 days, give or take the seconds the test took
    const days = ((cookie?.expires ?? 0) - Date.now() / 1000) / 86_400;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThanOrEqual(7);

    await page.keyboard.press('Control+b');
    await expect(sidebar).toHaveAttribute('data-state', 'expanded');
    expect((await sidebarCookie(page))?.value).toBe('true');
    await page.keyboard.press('Control+b');
    await expect(sidebar).toHaveAttribute('data-state', 'collapsed');
    expect((await sidebarCookie(page))?.value).toBe('false');

    await page.reload();
    await expect(page.getByTestId('portal-title')).toHaveText('Admin Portal');
    await expect(sidebar).toHaveAttribute('data-state', 'collapsed');
    await expect.poll(async () => (await panel.boundingBox())?.width).toBe(48);
    // the menu stays reachable as icons
    await expect(sidebar.getByRole('link', { name: 'Packages' })).toBeVisible();
  });

  test('at 375 px wide the sidebar is a sheet', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 812 });
    await loginAsAdmin(page);
    await expect(page.getByTestId('portal-title')).toHaveText('Admin Portal');
    await expect(page.getByTestId('sidebar-wrapper')).toHaveAttribute('data-mobile', 'true');
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Analytics' })).toHaveCount(0);

    await page.getByRole('button', { name: 'Toggle Sidebar' }).click();
    const sheet = page.getByRole('dialog');
    await expect(sheet).toBeVisible();
    await expect(sheet).toHaveAttribute('data-mobile', 'true');
    await expect(sheet).toHaveAttribute('data-testid', 'sidebar');
    await expect(sheet.getByRole('link')).toContainText([
      'Dashboard',
      'Packages',
      'Leads',
      'Agents',
      'Analytics',
    ]);
    await expect(sheet.getByRole('button', { name: 'Logout' })).toBeVisible();
    // slid in from the left edge, 18rem wide
    await expect.poll(async () => (await sheet.boundingBox())?.x).toBe(0);
    expect((await sheet.boundingBox())?.width).toBe(288);

    // following a link closes the sheet
    await sheet.getByRole('link', { name: 'Packages' }).click();
    await expect(page).toHaveURL(/\/admin\/packages$/);
    await expect(page.getByRole('dialog')).toHaveCount(0);
  });
});

test.describe('prerendered pages', () => {
  /** What the page threw or logged as an error while it loaded and hydrated. */
  async function errorsWhileLoading(page: Page, path: string): Promise<string[]> {
    const errors: string[] = [];
    // marks the prerendered root node as the parser makes it, before any script of the page runs
    await page.addInitScript(() => {
      new MutationObserver((_records, observer) => {
        const first = document.querySelector('#root > *');
        if (!first) return;
        Object.assign(first, { prerendered: true });
        observer.disconnect();
      }).observe(document, { childList: true, subtree: true });
    });
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    await page.goto(path);
    await page.waitForLoadState('networkidle');
    return errors;
  }

  for (const { path } of prerenderedPages) {
    test(`${path} hydrates the markup it was sent, without a mismatch`, async ({ page }) => {
      expect(await errorsWhileLoading(page, path)).toEqual([]);
      // hydration kept the prerendered nodes: the node marked before the script ran is still there
      const kept = await page.evaluate(
        () =>
          (document.querySelector('#root > *') as { prerendered?: boolean } | null)?.prerendered,
      );
      expect(kept).toBe(true);
    });
  }

  test('a browser without passkeys gets the login form without the passkey button', async ({
    page,
  }) => {
    await page.addInitScript(() => {
      Reflect.deleteProperty(window, 'PublicKeyCredential');
    });
    expect(await errorsWhileLoading(page, '/login')).toEqual([]);
    await expect(page.getByRole('button', { name: 'Log In' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Sign in with a passkey' })).toHaveCount(0);
  });
});
