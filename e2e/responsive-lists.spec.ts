import { expect, type Page, request, test } from '@playwright/test';
import { formatPhone } from '../src/shared/phone';
import { createPackageApi, loginAdminApi, seedLeadsForAgent, uniqueTag } from './agent-fixtures';
import { e164, uniquePhone } from './lead-contact';
import { E2E_ADMIN, uniqueEmail } from './support';

/** Bartholomew's phone, typed with parentheses: unique to this run (docs/domain.md, Lead quality: duplicates). */
const BART_PHONE = `(${uniquePhone().replace('-', ') ')}`;

/**
 * Every list fits its screen: at 1280 px (sidebar open) each table fits its container, so the
 * Actions column is whole and nothing scrolls sideways; at 375 px each list is a column of
 * cards, My Leads with tel: and mailto: links.
 */

interface Seed {
  tag: string;
  /** a NEW lead's name, or '' when every try went to some agent */
  newLead: string;
  agent: { email: string; password: string; name: string };
  leadEmail: string;
  packageName: string;
}

let seeded: Promise<Seed> | null = null;
function seed(baseURL: string): Promise<Seed> {
  seeded ??= (async () => {
    const api = await request.newContext({ baseURL });
    await loginAdminApi(api);
    const tag = uniqueTag('fit');
    // long names and addresses: what makes a table too wide
    const pkg = await createPackageApi(api, {
      name: `Medicare Advantage Premium Enrollment ${tag}`,
      leadsPerDay: 12,
      priceMonthlyCents: 1_234_500,
    });
    // a pay-per-lead package: its price cell holds the price per lead, the least and Price list
    const perLead = await createPackageApi(api, {
      name: `Final Expense Pay Per Lead Preferred ${tag}`,
      leadsPerDay: 12,
      priceMonthlyCents: 0,
      pricing: 'PER_LEAD',
      perLeadCents: 12_345,
    });
    const agentCtx = await request.newContext({ baseURL });
    const agent = {
      email: uniqueEmail('fit-agent-with-a-rather-long-address'),
      password: 'secret123',
      name: `Maximiliana Featherstonehaugh ${tag}`,
    };
    const reg = await agentCtx.post('/api/auth/register', { data: agent });
    expect(reg.status()).toBe(201);
    const agentId = (await reg.json()).user.id as number;
    await agentCtx.dispose();
    // a wallet entry with a long note, for the wallet's entries
    const credited = await api.post(`/api/admin/agents/${agentId}/wallet`, {
      data: {
        amountCents: 123_456,
        note: `Goodwill credit for the leads returned during the Winston-Salem intake outage ${tag}`,
      },
    });
    expect(credited.status(), await credited.text()).toBe(200);
    const leadEmail = `bartholomew.richardson-whitfield.${tag}@example-insurance-leads.com`;
    await seedLeadsForAgent(api, agentId, tag, [
      {
        firstName: 'Bartholomew',
        lastName: `Richardson-Whitfield ${tag}`,
        phone: BART_PHONE,
        email: leadEmail,
        city: 'Winston-Salem',
        state: 'NC',
        age: 67,
      },
      {
        firstName: 'Ann',
        lastName: `Lee ${tag}`,
        phone: uniquePhone(),
        email: `ann.${tag}@e2e.test`,
        city: 'Austin',
        state: 'TX',
        age: 70,
      },
      // words no line can break: the table must still fit (they break as a last resort)
      {
        firstName: 'Hubert',
        lastName: `Wolfeschlegelsteinhausenbergerdorff${tag}`,
        phone: `+1 ${uniquePhone()} ext. 12345`,
        email: `wolfeschlegelsteinhausenbergerdorff${tag}@averyveryverylongdomainname.example`,
        city: 'Llanfairpwllgwyngyllgogerychwyrndrobwllllantysiliogogogoch',
        state: 'NC',
        age: 88,
      },
    ]);
    // subscribed: the agents table shows its status list, a control of the row
    const agentApi = await request.newContext({ baseURL });
    expect((await agentApi.post('/api/auth/login', { data: agent })).status()).toBe(200);
    // preferences no lead matches first: the engine must not hand it other specs' leads
    const prefs = await agentApi.put('/api/agent/preferences', {
      data: {
        states: ['WY'],
        cities: [`Nowhere ${tag}`],
        ageMin: null,
        ageMax: null,
        categories: [],
      },
    });
    expect(prefs.status()).toBe(200);
    // a lead paid from the wallet while on the pay-per-lead package: the wallet's entries then
    // hold a lead's link (its own tag, so the lists' searches still find three leads)
    const onPerLead = await agentApi.post('/api/agent/subscription', {
      data: { packageId: perLead.id },
    });
    expect(onPerLead.status(), await onPerLead.text()).toBe(200);
    const paidTag = uniqueTag('fitpaid');
    await seedLeadsForAgent(api, agentId, paidTag, [
      {
        firstName: 'Philippa',
        lastName: `Paid-For-From-The-Wallet ${paidTag}`,
        phone: uniquePhone(),
        email: `philippa.${paidTag}@e2e.test`,
        city: 'Winston-Salem',
        state: 'NC',
        age: 72,
      },
    ]);
    const subscribed = await agentApi.post('/api/agent/subscription', {
      data: { packageId: pkg.id },
    });
    expect(subscribed.status()).toBe(200);
    await agentApi.dispose();
    // a lead left NEW, for the Assign dialog (an agent of another spec may take one at import)
    let newLead = '';
    for (let attempt = 0; attempt < 6 && !newLead; attempt++) {
      // a tag of its own: the lists' searches for this seed's tag find its three leads only
      const t = uniqueTag('nora');
      // not the seed's package category, so the dialog has a warning to show
      const category = attempt % 2 ? 'MEDICARE' : 'ACA';
      await api.post('/api/admin/leads/import', {
        multipart: {
          file: {
            name: `${t}.csv`,
            mimeType: 'text/csv',
            buffer: Buffer.from(
              `firstName,lastName,city,state,age,category,email\nNora,New${t},Nome,AK,45,${category},nora.${t}@e2e.test\n`,
            ),
          },
        },
      });
      const [lead] = await (await api.get(`/api/admin/leads?q=New${t}`)).json();
      if (lead?.status === 'NEW') newLead = `Nora New${t}`;
    }
    await api.dispose();
    return { tag, agent, leadEmail, packageName: pkg.name, newLead };
  })();
  return seeded;
}

async function login(page: Page, who: { email: string; password: string }) {
  const res = await page.request.post('/api/auth/login', { data: who });
  expect(res.status()).toBe(200);
}

const screens = [
  { name: 'admin packages', path: '/admin/packages', row: 'package-row', role: 'admin' },
  { name: 'admin leads', path: '/admin/leads', row: 'lead-row', role: 'admin', search: true },
  { name: 'admin agents', path: '/admin/agents', row: 'agent-row', role: 'admin' },
  { name: 'my leads', path: '/dashboard/leads', row: 'lead-row', role: 'agent', search: true },
  { name: 'my wallet', path: '/dashboard/wallet', row: 'wallet-entry', role: 'agent' },
] as const;

/** The screen, with this run's long-named leads on it where it lists leads. */
async function open(page: Page, screen: (typeof screens)[number], s: Seed) {
  await login(page, screen.role === 'admin' ? E2E_ADMIN : s.agent);
  await page.goto(screen.path);
  await expect(page.getByTestId(screen.row).first()).toBeVisible();
  if ('search' in screen) {
    await page.getByLabel('Search leads').fill(s.tag);
    await expect(page.getByTestId('lead-count')).toHaveText('3 leads');
    await expect(page.getByTestId(screen.row)).toHaveCount(3);
  }
}

test.describe('at 1280 px every table fits, its actions whole', () => {
  test.use({ viewport: { width: 1280, height: 800 } });
  for (const screen of screens) {
    test(screen.name, async ({ page, baseURL }) => {
      const s = await seed(baseURL!);
      await open(page, screen, s);
      await expect(page.getByTestId('sidebar-wrapper')).toHaveAttribute('data-state', 'expanded');
      const container = page.locator('[data-slot="table-container"]');
      await expect(container).toHaveCount(1);
      const size = await container.evaluate((el) => ({
        scroll: el.scrollWidth,
        client: el.clientWidth,
      }));
      expect(
        size.scroll,
        `${screen.name}: the table is wider than its container`,
      ).toBeLessThanOrEqual(size.client);
      // every control of every row lies wholly inside the container (no "Deac...")
      const box = (await container.boundingBox())!;
      const controls = page.getByTestId(screen.row).locator('button, a, [role="combobox"]');
      const count = await controls.count();
      expect(count).toBeGreaterThan(0);
      for (let i = 0; i < Math.min(count, 40); i++) {
        const control = (await controls.nth(i).boundingBox())!;
        expect(control.x).toBeGreaterThanOrEqual(box.x - 0.5);
        expect(control.x + control.width).toBeLessThanOrEqual(box.x + box.width + 0.5);
      }
      // nor does the page itself scroll sideways
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        1280,
      );
    });
  }
});

test.describe('at 375 px every list is cards', () => {
  test.use({ viewport: { width: 375, height: 740 } });
  for (const screen of screens) {
    test(screen.name, async ({ page, baseURL }) => {
      const s = await seed(baseURL!);
      await open(page, screen, s);
      const rows = page.getByTestId(screen.row);
      await expect(page.locator('table')).toHaveCount(0);
      expect(await rows.first().evaluate((el) => el.tagName)).toBe('LI');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        375,
      );
    });
  }

  test('the Assign dialog and its agent list fit the phone', async ({ page, baseURL }) => {
    const s = await seed(baseURL!);
    test.skip(!s.newLead, 'no lead stayed NEW');
    await login(page, E2E_ADMIN);
    await page.goto('/admin/leads');
    await page.getByLabel('Search leads').fill(s.newLead.split(' ')[1]);
    await page.getByRole('button', { name: `Assign ${s.newLead}` }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Select Agent').click();
    // the subscribed agent of the seed: a long name, a long address, category and quota
    const option = page.getByRole('option').filter({ hasText: s.agent.email });
    await expect(option).toBeVisible();
    const fits = async (locator: typeof dialog) => {
      const box = (await locator.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(375);
    };
    await fits(page.getByRole('listbox'));
    await option.click();
    await expect(dialog.getByTestId('assign-warnings')).toContainText('is for FINAL EXPENSE leads');
    await expect(page.getByRole('listbox')).toBeHidden();
    await page.screenshot({ path: '.tmp/assign-dialog-375.png' });
    await fits(dialog);
    expect(await dialog.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  });

  test('My Leads: a card per lead, calling and writing a tap away', async ({ page, baseURL }) => {
    const s = await seed(baseURL!);
    await login(page, s.agent);
    await page.goto('/dashboard/leads');
    const card = page.getByTestId('lead-row').filter({ hasText: 'Bartholomew' });
    await expect(card).toBeVisible();
    await expect(card.getByTestId('lead-status')).toHaveText('Assigned');
    await expect(card).toContainText('Winston-Salem, NC');
    // shown as people read it, dialled in E.164
    const call = card.getByRole('link', { name: `Call ${formatPhone(e164(BART_PHONE))}` });
    await expect(call).toHaveAttribute('href', `tel:${e164(BART_PHONE)}`);
    const write = card.getByRole('link', { name: `Email ${s.leadEmail}` });
    await expect(write).toHaveAttribute('href', `mailto:${s.leadEmail}`);
    // the long address wraps inside the card rather than widening it
    const cardBox = (await card.boundingBox())!;
    const mailBox = (await write.boundingBox())!;
    expect(mailBox.x + mailBox.width).toBeLessThanOrEqual(cardBox.x + cardBox.width);
    // the card's own action opens the drawer
    await card.getByRole('button', { name: /Update Status/ }).click();
    await expect(page.getByTestId('update-status-drawer')).toContainText('Bartholomew');
  });
});
