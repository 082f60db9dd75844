import {
  type APIRequestContext,
  expect as baseExpect,
  type Locator,
  type Page,
  request,
  test,
} from '@playwright/test';
import { createPackageApi, uniqueTag } from './agent-fixtures';
import { uniquePhone } from './lead-contact';
import { E2E_ADMIN, uniqueEmail } from './support';

/**
 * The main flows driven with the keyboard only (Tab, Shift+Tab, Enter, Space, Escape, arrows):
 * no click, no fill. Every control a flow focuses must show a visible focus indicator, and a
 * sweep of each screen checks that Tab reaches every visible control.
 */

// the machine is shared with other suites: allow for slow first paints
const expect = baseExpect.configure({ timeout: 20_000 });
test.describe.configure({ timeout: 180_000 });

interface SeedLead {
  id: number;
  name: string;
}
interface Seed {
  tag: string;
  packageName: string;
  agent: { email: string; password: string; name: string; id: number };
  /** an agent with an ACTIVE subscription */
  subscriber: { email: string; password: string; name: string };
  /** leads assigned to the agent, in their ASSIGNED state */
  agentLeads: SeedLead[];
  /** a NEW lead for the Assign Lead dialog, found by searching its tag */
  newLead: SeedLead & { tag: string };
  /** another, for the sweep of the open dialog */
  spareNewLead: SeedLead & { tag: string };
}

let seeded: Promise<Seed> | null = null;
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
  const tag = uniqueTag('kbd');
  const pkg = await createPackageApi(api, {
    name: `Keyboard Pack ${tag}`,
    leadsPerDay: 3,
    priceMonthlyCents: 4_900,
  });

  // an agent without a subscription: the engine never gives it anything on its own
  const agentCtx = await request.newContext({ baseURL });
  const agent = { email: uniqueEmail('kbd'), password: 'secret123', name: `Kit Keys ${tag}` };
  const reg = await agentCtx.post('/api/auth/register', { data: agent });
  expect(reg.status()).toBe(201);
  const agentId = (await reg.json()).user.id as number;
  await agentCtx.dispose();

  // an agent with a subscription (for the agents table's status list), whose preferences
  // match no lead another spec imports
  const subCtx = await request.newContext({ baseURL });
  const subscriber = {
    email: uniqueEmail('kbdsub'),
    password: 'secret123',
    name: `Sam Sub ${tag}`,
  };
  expect((await subCtx.post('/api/auth/register', { data: subscriber })).status()).toBe(201);
  expect((await subCtx.post('/api/auth/login', { data: subscriber })).status()).toBe(200);
  expect(
    (
      await subCtx.put('/api/agent/preferences', {
        data: {
          states: ['VT'],
          cities: ['Burlington'],
          ageMin: null,
          ageMax: null,
          categories: [],
        },
      })
    ).status(),
  ).toBe(200);
  expect(
    (await subCtx.post('/api/agent/subscription', { data: { packageId: pkg.id } })).status(),
  ).toBe(200);
  await subCtx.dispose();

  // its leads: the NEW ones assigned by hand (another spec's agent may take some at import)
  const leads = await importCsv(
    api,
    tag,
    [0, 1, 2, 3].map(
      (i) =>
        `Kay${i},Keys${tag},${uniquePhone()},kay${i}.${tag}@e2e.test,Burlington,VT,${50 + i},MEDICARE,${tag}-${i}`,
    ),
  );
  const agentLeads: SeedLead[] = [];
  for (const lead of leads.filter((l) => l.status === 'NEW')) {
    const res = await api.post('/api/admin/leads/assign', {
      data: { leadId: lead.id, userId: agentId },
    });
    expect(res.status(), await res.text()).toBe(200);
    agentLeads.push({ id: lead.id, name: `${lead.firstName} ${lead.lastName}` });
  }
  expect(agentLeads.length).toBeGreaterThanOrEqual(2);

  // two leads left NEW: one assigned by the keyboard flow, one for the dialog's sweep
  const waiting: Seed['newLead'][] = [];
  for (let attempt = 0; attempt < 10 && waiting.length < 2; attempt++) {
    const t = uniqueTag('kbdnew');
    const category = attempt % 2 ? 'FINAL_EXPENSE' : 'ACA';
    const row = `Ned,New${t},${uniquePhone()},ned.${t}@e2e.test,Boise,ID,45,${category},${t}`;
    const found = (await importCsv(api, t, [row])).find((l) => l.status === 'NEW');
    if (found) waiting.push({ id: found.id, name: `${found.firstName} ${found.lastName}`, tag: t });
  }
  expect(waiting, 'two leads stay NEW').toHaveLength(2);
  await api.dispose();
  return {
    tag,
    packageName: pkg.name,
    agent: { ...agent, id: agentId },
    agentLeads,
    subscriber,
    newLead: waiting[0],
    spareNewLead: waiting[1],
  };
}

async function loginApi(page: Page, who: { email: string; password: string }) {
  const res = await page.request.post('/api/auth/login', {
    data: { email: who.email, password: who.password },
  });
  expect(res.status()).toBe(200);
}

/** A context of its own, logged in, to check through the API what the keyboard did. */
async function apiAs(baseURL: string, who: { email: string; password: string }) {
  const ctx = await request.newContext({ baseURL });
  const res = await ctx.post('/api/auth/login', {
    data: { email: who.email, password: who.password },
  });
  expect(res.status()).toBe(200);
  return ctx;
}

const toast = (page: Page, title: string) =>
  page.getByTestId('toast-viewport').getByText(title, { exact: true });

/** A short description of the focused element, for messages. */
function describeFocus(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return '<body>';
    const name =
      el.getAttribute('aria-label') ?? el.textContent?.trim().slice(0, 40) ?? el.id ?? '';
    return `<${el.tagName.toLowerCase()}${el.getAttribute('role') ? ` role=${el.getAttribute('role')}` : ''}> "${name}"`;
  });
}

/** Whether the locator's element holds the focus (itself, not a descendant). */
function hasFocus(target: Locator): Promise<boolean> {
  return target.evaluate((el) => el === document.activeElement, undefined, { timeout: 5_000 });
}

/**
 * The focused element's indicator: an outline, or a ring (a box-shadow layer with a spread
 * and a visible colour; the flat drop shadows of buttons have no spread). Read after
 * transitions end.
 */
async function focusIndicator(page: Page) {
  await page.waitForFunction(() =>
    document.getAnimations().every((a) => a.playState !== 'running'),
  );
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement;
    const cs = getComputedStyle(el);
    const outline =
      cs.outlineStyle !== 'none' &&
      Number.parseFloat(cs.outlineWidth) > 0 &&
      !/rgba\(0, 0, 0, 0\)|transparent/.test(cs.outlineColor);
    // split the shadow list on commas outside parentheses
    const layers: string[] = [];
    let depth = 0;
    let current = '';
    for (const ch of cs.boxShadow) {
      if (ch === '(') depth++;
      if (ch === ')') depth--;
      if (ch === ',' && depth === 0) {
        layers.push(current.trim());
        current = '';
      } else current += ch;
    }
    if (current.trim()) layers.push(current.trim());
    const ring = layers.some((layer) => {
      if (layer === 'none') return false;
      const colour = layer.match(/^[a-z-]+\([^)]*\)|^#[0-9a-f]+|^[a-z]+/i)?.[0] ?? '';
      const lengths = layer
        .slice(colour.length)
        .trim()
        .split(/\s+/)
        .filter((part) => part.endsWith('px'))
        .map(Number.parseFloat);
      const alpha = colour.match(/\/\s*([\d.]+)\)$/)?.[1] ?? colour.match(/,\s*([\d.]+)\)$/)?.[1];
      const visible = colour !== 'transparent' && (alpha === undefined || Number(alpha) > 0);
      return visible && (lengths[3] ?? 0) > 0;
    });
    return {
      visible: outline || ring,
      outline: `${cs.outlineStyle} ${cs.outlineWidth} ${cs.outlineColor}`,
      boxShadow: cs.boxShadow,
    };
  });
}

async function expectFocusIndicator(page: Page) {
  const indicator = await focusIndicator(page);
  expect(
    indicator.visible,
    `no focus indicator on ${await describeFocus(page)}: outline ${indicator.outline}; box-shadow ${indicator.boxShadow}`,
  ).toBe(true);
}

/**
 * Presses Tab (or Shift+Tab) until the target holds the focus, checking the indicator of the
 * target; fails when it is not reached within max presses.
 */
async function tabTo(page: Page, target: Locator, { back = false, max = 80 } = {}) {
  await expect(target).toBeVisible();
  for (let i = 1; i <= max; i++) {
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    if (await hasFocus(target)) {
      await expectFocusIndicator(page);
      return i;
    }
  }
  throw new Error(`not reached with ${back ? 'Shift+Tab' : 'Tab'} in ${max} presses: ${target}`);
}

/** Focus is inside the element (a dialog's focus trap). */
function focusInside(container: Locator): Promise<boolean> {
  return container.evaluate((el) => el.contains(document.activeElement));
}

/**
 * Arrows through an open listbox until the focused option contains the text. Radix moves the
 * focus a tick after the key, so each press waits for the focus to move before reading it.
 */
async function arrowToOption(page: Page, text: string, max = 60) {
  await expect(page.getByRole('listbox')).toBeVisible();
  await page.waitForFunction(() => document.activeElement?.getAttribute('role') === 'option');
  for (let i = 0; i < max; i++) {
    const current = await page.evaluate(() => document.activeElement?.textContent ?? '');
    if (current.includes(text)) return;
    await page.evaluate(() => {
      (window as unknown as { kbPrevious: Element | null }).kbPrevious = document.activeElement;
    });
    await page.keyboard.press('ArrowDown');
    const moved = await page
      .waitForFunction(
        () =>
          document.activeElement !==
          (window as unknown as { kbPrevious: Element | null }).kbPrevious,
        undefined,
        { timeout: 3_000 },
      )
      .then(() => true)
      .catch(() => false);
    if (!moved) break; // the end of the list
  }
  throw new Error(`option "${text}" not reached with ArrowDown`);
}

test.describe('keyboard only', () => {
  test('log in: Tab to the fields, type, Shift+Tab back, Enter submits', async ({
    page,
    baseURL,
  }) => {
    const s = await seed(baseURL!);
    await page.goto('/login');
    const email = page.getByLabel('Email');
    const password = page.getByLabel('Password');
    await tabTo(page, email);
    await page.keyboard.type(s.agent.email);
    await page.keyboard.press('Tab');
    expect(await hasFocus(password)).toBe(true);
    await expectFocusIndicator(page);
    await page.keyboard.type('wrong-password');
    // back to the email field and forward again: the typed values stay
    await page.keyboard.press('Shift+Tab');
    expect(await hasFocus(email)).toBe(true);
    await expect(email).toHaveValue(s.agent.email);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Control+A');
    await page.keyboard.type(s.agent.password);
    // the Log In button is next, and reachable
    await tabTo(page, page.getByRole('button', { name: 'Log In' }), { max: 3 });
    await page.keyboard.press('Shift+Tab');
    expect(await hasFocus(password)).toBe(true);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  });

  test('sidebar: Ctrl+B and the trigger with Enter and Space; skip link', async ({
    page,
    baseURL,
  }) => {
    const s = await seed(baseURL!);
    await loginApi(page, s.agent);
    await page.goto('/dashboard');
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
    const wrapper = page.getByTestId('sidebar-wrapper');
    await expect(wrapper).toHaveAttribute('data-state', 'expanded');

    await page.keyboard.press('Control+b');
    await expect(wrapper).toHaveAttribute('data-state', 'collapsed');
    await page.keyboard.press('Control+b');
    await expect(wrapper).toHaveAttribute('data-state', 'expanded');

    // the first Tab offers the skip link; Enter moves the focus to the page
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to content' });
    expect(await hasFocus(skip)).toBe(true);
    await expectFocusIndicator(page);
    await expect(skip).toBeInViewport();
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('main-content');

    // the trigger: reached with Shift+Tab from the page, toggled with Enter then Space
    const trigger = page.getByRole('button', { name: 'Toggle Sidebar' });
    await tabTo(page, trigger, { back: true });
    await page.keyboard.press('Enter');
    await expect(wrapper).toHaveAttribute('data-state', 'collapsed');
    expect(await hasFocus(trigger)).toBe(true);
    await page.keyboard.press('Space');
    await expect(wrapper).toHaveAttribute('data-state', 'expanded');

    // the collapsed sidebar's links stay reachable, and Enter follows one
    await page.keyboard.press('Control+b');
    await expect(wrapper).toHaveAttribute('data-state', 'collapsed');
    await tabTo(page, page.getByRole('link', { name: 'My Leads', exact: true }), { back: true });
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/dashboard\/leads$/);
    await page.keyboard.press('Control+b');
    await expect(wrapper).toHaveAttribute('data-state', 'expanded');
  });

  test('sidebar on a phone: the trigger opens the sheet, Escape closes it, Enter follows a link', async ({
    page,
    baseURL,
  }) => {
    const s = await seed(baseURL!);
    await page.setViewportSize({ width: 375, height: 740 });
    await loginApi(page, s.agent);
    await page.goto('/dashboard');
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
    const trigger = page.getByRole('button', { name: 'Toggle Sidebar' });
    await tabTo(page, trigger);
    await page.keyboard.press('Enter');
    const sheet = page.getByRole('dialog');
    await expect(sheet.getByRole('link', { name: 'Preferences', exact: true })).toBeVisible();
    expect(await focusInside(sheet)).toBe(true);
    await page.keyboard.press('Escape');
    await expect(sheet).toBeHidden();
    // Radix gives the focus back in a timer after the overlay unmounts
    await expect.poll(() => hasFocus(trigger)).toBe(true);

    await page.keyboard.press('Control+b');
    await expect(sheet.getByRole('link', { name: 'Preferences', exact: true })).toBeVisible();
    await tabTo(page, sheet.getByRole('link', { name: 'Preferences', exact: true }));
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/dashboard\/preferences$/);
    await expect(sheet).toBeHidden();
  });

  test('status drawer: open it, choose a status with the arrows, submit', async ({
    page,
    baseURL,
  }) => {
    const s = await seed(baseURL!);
    const lead = s.agentLeads[0];
    await loginApi(page, s.agent);
    await page.goto('/dashboard/leads');
    const row = page.getByTestId('lead-row').filter({ hasText: lead.name });
    await expect(row).toContainText('Assigned');

    // Escape closes the drawer without a change
    const open = row.getByRole('button', { name: /Update Status/ });
    await tabTo(page, open);
    await page.keyboard.press('Enter');
    const drawer = page.getByTestId('update-status-drawer');
    await expect(drawer.getByText('Update Lead Status')).toBeVisible();
    expect(await focusInside(drawer)).toBe(true);
    await page.keyboard.press('Escape');
    await expect(drawer).toBeHidden();
    await expect.poll(() => hasFocus(open)).toBe(true);

    // Space opens it again; the status list opens with Enter and is walked with the arrows
    await page.keyboard.press('Space');
    await expect(drawer.getByText('Update Lead Status')).toBeVisible();
    // the focus lands on the first control of the drawer: the status list
    const select = drawer.getByRole('combobox', { name: 'New Status' });
    await expect.poll(() => hasFocus(select)).toBe(true);
    await expectFocusIndicator(page);
    // Shift+Tab and Tab go round inside the drawer and come back to it
    await tabTo(page, select, { back: true, max: 5 });
    await page.keyboard.press('Enter');
    await arrowToOption(page, 'In Progress');
    await page.keyboard.press('Enter');
    await expect(page.getByRole('listbox')).toBeHidden();
    await expect(select).toHaveText('In Progress');
    await expect.poll(() => hasFocus(select)).toBe(true);
    await tabTo(page, drawer.getByRole('button', { name: 'Update Status' }), { max: 3 });
    await page.keyboard.press('Enter');
    await expect(toast(page, 'Status updated')).toBeVisible();
    await expect(drawer).toBeHidden();
    await expect(row).toContainText('In Progress');

    const api = await apiAs(baseURL!, s.agent);
    const mine = (await (await api.get('/api/agent/leads')).json()) as {
      id: number;
      status: string;
    }[];
    expect(mine.find((l) => l.id === lead.id)?.status).toBe('IN_PROGRESS');
    await api.dispose();
  });

  test('preferences: toggle states with Space and Enter, a category with Space, save', async ({
    page,
    baseURL,
  }) => {
    const s = await seed(baseURL!);
    await loginApi(page, s.agent);
    await page.goto('/dashboard/preferences');
    const vt = page.getByRole('button', { name: 'VT', exact: true });
    const nh = page.getByRole('button', { name: 'NH', exact: true });
    await expect(vt).toHaveAttribute('aria-pressed', 'false');
    await tabTo(page, nh);
    await page.keyboard.press('Space');
    await expect(nh).toHaveAttribute('aria-pressed', 'true');
    await tabTo(page, vt);
    await page.keyboard.press('Enter');
    await expect(vt).toHaveAttribute('aria-pressed', 'true');
    // and back with Shift+Tab: NH pressed again turns it off, then on
    await tabTo(page, nh, { back: true });
    await page.keyboard.press('Space');
    await expect(nh).toHaveAttribute('aria-pressed', 'false');
    await page.keyboard.press('Space');
    await expect(nh).toHaveAttribute('aria-pressed', 'true');

    await tabTo(page, page.getByLabel('Cities'));
    await page.keyboard.type('Burlington');
    await tabTo(page, page.getByLabel('Minimum Age'));
    await page.keyboard.type('40');
    // the number field steps with the arrows
    await page.keyboard.press('ArrowUp');
    await expect(page.getByLabel('Minimum Age')).toHaveValue('41');
    const medicare = page.getByRole('checkbox', { name: 'MEDICARE' });
    await tabTo(page, medicare);
    await page.keyboard.press('Space');
    await expect(medicare).toBeChecked();
    await tabTo(page, page.getByRole('button', { name: 'Save Preferences' }));
    await page.keyboard.press('Enter');
    await expect(toast(page, 'Preferences saved')).toBeVisible();

    const api = await apiAs(baseURL!, s.agent);
    const saved = await (await api.get('/api/agent/preferences')).json();
    expect(saved).toMatchObject({
      cities: ['Burlington'],
      ageMin: 41,
      ageMax: null,
      categories: ['MEDICARE'],
    });
    expect([...saved.states].sort()).toEqual(['NH', 'VT']);
    await api.dispose();
  });

  test('Create Package dialog: opened with Enter and Space, focus kept inside, Escape returns focus', async ({
    page,
    baseURL,
  }) => {
    const s = await seed(baseURL!);
    await loginApi(page, E2E_ADMIN);
    await page.goto('/admin/packages');
    await expect(page.getByTestId('package-row').filter({ hasText: s.packageName })).toBeVisible();
    const trigger = page.getByRole('button', { name: 'Create Package', exact: true });
    await tabTo(page, trigger);
    for (const key of ['Enter', 'Space']) {
      await page.keyboard.press(key);
      const dialog = page.getByRole('dialog');
      await expect(dialog.getByRole('heading', { name: 'Create Package' })).toBeVisible();
      expect(await focusInside(dialog)).toBe(true);
      // Tab and Shift+Tab go round inside the dialog
      for (let i = 0; i < 25; i++) {
        await page.keyboard.press(i % 5 === 4 ? 'Shift+Tab' : 'Tab');
        expect(await focusInside(dialog), `focus left the dialog after ${i + 1} presses`).toBe(
          true,
        );
      }
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
      await expect
        .poll(() => hasFocus(trigger), {
          message: 'the focus goes back to the trigger after Escape',
        })
        .toBe(true);
    }
  });

  test('Assign Lead dialog: search, open, pick an agent with the arrows, confirm', async ({
    page,
    baseURL,
  }) => {
    const s = await seed(baseURL!);
    await loginApi(page, E2E_ADMIN);
    await page.goto('/admin/leads');
    await expect(page.getByTestId('lead-row').first()).toBeVisible();
    await tabTo(page, page.getByRole('searchbox', { name: 'Search leads' }));
    await page.keyboard.type(s.newLead.tag);
    await expect(page.getByTestId('lead-row')).toHaveCount(1);
    await tabTo(page, page.getByRole('button', { name: `Assign ${s.newLead.name}` }));
    await page.keyboard.press('Enter');

    const dialog = page.getByRole('dialog');
    await expect(dialog.getByRole('heading', { name: 'Assign Lead' })).toBeVisible();
    expect(await focusInside(dialog)).toBe(true);
    const select = dialog.getByRole('combobox', { name: 'Select Agent' });
    await tabTo(page, select, { max: 10 });
    await page.keyboard.press('ArrowDown');
    await arrowToOption(page, s.agent.email, 200);
    await page.keyboard.press('Enter');
    await expect(page.getByRole('listbox')).toBeHidden();
    await expect(select).toContainText(s.agent.name);
    const submit = dialog.getByRole('button', { name: 'Assign Lead' });
    await tabTo(page, submit, { max: 5 });
    await page.keyboard.press('Enter');
    await expect(toast(page, 'Lead assigned')).toBeVisible();
    await expect(dialog).toBeHidden();
    // the Assign button is gone (the row says Assigned): the focus stays on that row
    const row = page.getByTestId('lead-row').filter({ hasText: s.newLead.name });
    await expect(row).toContainText('Assigned');
    await expect(row).toBeFocused();

    const api = await apiAs(baseURL!, E2E_ADMIN);
    const [lead] = (await (
      await api.get(`/api/admin/leads?q=${encodeURIComponent(s.newLead.tag)}`)
    ).json()) as { id: number; status: string; agentId: number | null }[];
    expect(lead).toMatchObject({ id: s.newLead.id, status: 'ASSIGNED', agentId: s.agent.id });
    await api.dispose();
  });
  test('admin leads: Import CSV opens the file chooser with Enter; the status filter with the arrows', async ({
    page,
    baseURL,
  }) => {
    await seed(baseURL!);
    await loginApi(page, E2E_ADMIN);
    await page.goto('/admin/leads');
    await expect(page.getByTestId('lead-row').first()).toBeVisible();
    const t = uniqueTag('kbdimp');
    // listening first: Playwright takes over the file chooser only once something waits for it
    const chooser = page.waitForEvent('filechooser', { timeout: 60_000 });
    await tabTo(page, page.getByRole('button', { name: 'Import CSV' }));
    await page.keyboard.press('Enter');
    await (await chooser).setFiles({
      name: `${t}.csv`,
      mimeType: 'text/csv',
      buffer: Buffer.from(
        `firstName,lastName,city,state,age,category,externalId,email\nIda,${t},Rutland,VT,61,MEDICARE,${t},ida.${t}@e2e.test\n`,
      ),
    });
    await expect(toast(page, 'Import successful')).toBeVisible();
    const api = await apiAs(baseURL!, E2E_ADMIN);
    expect(await (await api.get(`/api/admin/leads?q=${t}`)).json()).toHaveLength(1);

    // the status filter: opened with Space, Converted chosen with the arrows and Enter
    const filter = page.getByRole('combobox', { name: 'Filter by status' });
    await tabTo(page, filter);
    await page.keyboard.press('Space');
    await arrowToOption(page, 'Converted');
    await page.keyboard.press('Enter');
    await expect(filter).toHaveText('Converted');
    const converted = Number(
      (await api.get('/api/admin/leads?status=CONVERTED&limit=1')).headers()['x-total-count'],
    );
    await expect(page.getByTestId('lead-count')).toHaveText(
      `${converted} ${converted === 1 ? 'lead' : 'leads'}`,
    );
    await api.dispose();
  });

  test("admin agents: an agent's subscription status changed with the keyboard", async ({
    page,
    baseURL,
  }) => {
    const s = await seed(baseURL!);
    await loginApi(page, E2E_ADMIN);
    await page.goto('/admin/agents');
    const row = page.getByTestId('agent-row').filter({ hasText: s.subscriber.email });
    await expect(row.getByTestId('subscription-status')).toHaveText('Active');
    const status = row.getByRole('combobox', {
      name: `Change subscription status of ${s.subscriber.name}`,
    });
    // every agent row before it has its own controls (reset link, disable, the status)
    await tabTo(page, status, { max: 400 });
    await page.keyboard.press('Enter');
    await arrowToOption(page, 'Past due');
    await page.keyboard.press('Enter');
    await expect(toast(page, 'Subscription updated')).toBeVisible();
    await expect(row.getByTestId('subscription-status')).toHaveText('Past due');
    const api = await apiAs(baseURL!, E2E_ADMIN);
    const agents = (await (await api.get('/api/admin/agents')).json()) as {
      email: string;
      subscription: { status: string } | null;
    }[];
    expect(agents.find((a) => a.email === s.subscriber.email)?.subscription?.status).toBe(
      'PAST_DUE',
    );
    await api.dispose();
  });

  test('log out from the sidebar with the keyboard', async ({ page, baseURL }) => {
    const s = await seed(baseURL!);
    await loginApi(page, s.agent);
    await page.goto('/dashboard');
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
    await tabTo(page, page.getByRole('button', { name: 'Logout' }));
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/login$/);
    expect((await page.request.get('/api/auth/me')).status()).toBe(401);
  });
});

/**
 * Every visible control of a screen is reached by Tab, and each shows a focus indicator.
 * Controls are the elements a keyboard user must be able to operate: links, buttons, form
 * fields, and anything with a tabindex of 0 or more.
 */
async function sweep(page: Page, label: string) {
  await page.addStyleTag({
    content: '*, *::before, *::after { transition: none !important; animation: none !important; }',
  });
  const total = await page.evaluate(() => {
    const selector =
      'a[href], button, input:not([type="hidden"]), select, textarea, [tabindex], [role="combobox"], [role="checkbox"], [role="switch"]';
    let n = 0;
    for (const el of document.querySelectorAll<HTMLElement>(selector)) {
      const style = getComputedStyle(el);
      const rect = el.getBoundingClientRect();
      const hidden =
        rect.width === 0 ||
        rect.height === 0 ||
        style.visibility === 'hidden' ||
        el.closest('[aria-hidden="true"], [inert]') !== null;
      const disabled = (el as HTMLButtonElement).disabled || el.closest('fieldset:disabled');
      const tabindex = el.getAttribute('tabindex');
      if (hidden || disabled || (tabindex !== null && Number(tabindex) < 0)) continue;
      // a radio group is one Tab stop (its checked radio); the arrows move inside it
      const radio = el instanceof HTMLInputElement && el.type === 'radio' ? el : null;
      if (
        radio &&
        !radio.checked &&
        radio.name &&
        (radio.form ?? document).querySelector(
          `input[type="radio"][name="${CSS.escape(radio.name)}"]:checked`,
        )
      )
        continue;
      el.dataset.kbControl = String(n++);
    }
    return n;
  });
  expect(total, `${label}: controls found`).toBeGreaterThan(0);
  await page.evaluate(() => {
    (document.activeElement as HTMLElement | null)?.blur();
    window.scrollTo(0, 0);
  });

  const reached = new Set<string>();
  const missingIndicator: string[] = [];
  let presses = 0;
  const limit = total + 40;
  for (; presses < limit && reached.size < total; presses++) {
    await page.keyboard.press('Tab');
    const id = await page.evaluate(
      () => (document.activeElement as HTMLElement | null)?.dataset.kbControl,
    );
    if (id === undefined || reached.has(id)) continue;
    reached.add(id);
    const indicator = await focusIndicator(page);
    if (!indicator.visible) missingIndicator.push(await describeFocus(page));
  }
  const unreached = await page.evaluate(
    (seen) =>
      [...document.querySelectorAll<HTMLElement>('[data-kb-control]')]
        .filter((el) => !seen.includes(el.dataset.kbControl!))
        .map(
          (el) =>
            `<${el.tagName.toLowerCase()}> "${el.getAttribute('aria-label') ?? el.textContent?.trim().slice(0, 40)}"`,
        ),
    [...reached],
  );
  console.log(
    `keyboard sweep ${label}: ${total} controls, ${reached.size} reached in ${presses} Tab presses`,
  );
  expect(unreached, `${label}: controls Tab never reached`).toEqual([]);
  expect(missingIndicator, `${label}: focused without a visible indicator`).toEqual([]);
}

type Role = 'anonymous' | 'agent' | 'admin';
const sweeps: {
  name: string;
  path: string;
  role: Role;
  ready: (page: Page, s: Seed) => Promise<void>;
}[] = [
  {
    name: 'landing',
    path: '/',
    role: 'anonymous',
    ready: (page) => expect(page.locator('#packages [aria-busy="false"]')).toBeAttached(),
  },
  {
    name: 'login',
    path: '/login',
    role: 'anonymous',
    ready: (page) => expect(page.getByLabel('Email')).toBeVisible(),
  },
  {
    name: 'register',
    path: '/register',
    role: 'anonymous',
    ready: (page) => expect(page.getByLabel('Full Name')).toBeVisible(),
  },
  {
    name: '404',
    path: '/no-such-page',
    role: 'anonymous',
    ready: (page) =>
      expect(page.getByRole('heading', { name: '404 Page Not Found' })).toBeVisible(),
  },
  {
    name: 'agent dashboard',
    path: '/dashboard',
    role: 'agent',
    ready: (page) => expect(page.getByTestId('card-total-leads')).toBeVisible(),
  },
  {
    name: 'agent leads',
    path: '/dashboard/leads',
    role: 'agent',
    ready: (page) => expect(page.getByTestId('lead-row').first()).toBeVisible(),
  },
  {
    name: 'agent preferences',
    path: '/dashboard/preferences',
    role: 'agent',
    ready: (page) => expect(page.locator('button[aria-pressed]')).toHaveCount(52),
  },
  {
    name: 'agent package',
    path: '/dashboard/package',
    role: 'agent',
    ready: (page, s) =>
      expect(page.getByTestId('package-card').filter({ hasText: s.packageName })).toBeVisible(),
  },
  {
    name: 'agent wallet',
    path: '/dashboard/wallet',
    role: 'agent',
    ready: (page) => expect(page.getByTestId('wallet-balance')).toContainText('$'),
  },
  {
    name: 'admin dashboard',
    path: '/admin',
    role: 'admin',
    ready: (page) => expect(page.getByTestId('status-database-state')).toHaveText('Operational'),
  },
  {
    name: 'admin packages',
    path: '/admin/packages',
    role: 'admin',
    ready: (page, s) =>
      expect(page.getByTestId('package-row').filter({ hasText: s.packageName })).toBeVisible(),
  },
  {
    name: 'admin leads',
    path: '/admin/leads',
    role: 'admin',
    ready: (page) => expect(page.getByTestId('lead-row').first()).toBeVisible(),
  },
  {
    name: 'admin agents',
    path: '/admin/agents',
    role: 'admin',
    ready: (page, s) =>
      expect(page.getByTestId('agent-row').filter({ hasText: s.agent.email })).toBeVisible(),
  },
  {
    name: 'admin analytics',
    path: '/admin/analytics',
    role: 'admin',
    ready: (page) => expect(page.getByTestId('summary-statistics')).toBeVisible(),
  },
];

async function openScreen(page: Page, s: Seed, role: Role, path: string) {
  if (role === 'agent') await loginApi(page, s.agent);
  if (role === 'admin') await loginApi(page, E2E_ADMIN);
  await page.goto(path);
}

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 375, height: 740 },
]) {
  test.describe(`keyboard sweep at ${viewport.width}px: Tab reaches every control, each with a focus indicator`, () => {
    test.use({ viewport });
    for (const screen of sweeps) {
      test(screen.name, async ({ page, baseURL }) => {
        const s = await seed(baseURL!);
        await openScreen(page, s, screen.role, screen.path);
        await screen.ready(page, s);
        await sweep(page, `${screen.name} @${viewport.width}px`);
      });
    }
  });
}

test.describe('keyboard sweep of the open overlays', () => {
  test('Update Lead Status drawer', async ({ page, baseURL }) => {
    const s = await seed(baseURL!);
    await openScreen(page, s, 'agent', '/dashboard/leads');
    await page
      .getByTestId('lead-row')
      .filter({ hasText: s.agentLeads[1].name })
      .getByRole('button', { name: /Update Status/ })
      .click();
    await expect(
      page.getByTestId('update-status-drawer').getByText('Update Lead Status'),
    ).toBeVisible();
    await sweep(page, 'Update Lead Status drawer');
  });

  test('Create Package dialog', async ({ page, baseURL }) => {
    const s = await seed(baseURL!);
    await openScreen(page, s, 'admin', '/admin/packages');
    await page.getByRole('button', { name: 'Create Package', exact: true }).click();
    await expect(page.getByRole('dialog').getByLabel('Name')).toBeVisible();
    await sweep(page, 'Create Package dialog');
  });

  test('Assign Lead dialog', async ({ page, baseURL }) => {
    const s = await seed(baseURL!);
    await openScreen(page, s, 'admin', '/admin/leads');
    await page.getByLabel('Search leads').fill(s.spareNewLead.tag);
    await page.getByRole('button', { name: `Assign ${s.spareNewLead.name}` }).click();
    await expect(
      page.getByRole('dialog').getByRole('heading', { name: 'Assign Lead' }),
    ).toBeVisible();
    await sweep(page, 'Assign Lead dialog');
  });
});
