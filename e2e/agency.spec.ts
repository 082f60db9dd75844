/**
 * Agencies in the browser (docs/domain.md, Agencies): an agent creates an agency, sets its daily
 * cap and reclaim delay, invites a second agent with a copied link; that agent, signed out,
 * logs in through the link and joins; the owner pays their package and sees their leads in the
 * book (a move to a member who does not fit is refused with the reason); the
 * member's dashboard names the agency and the manager; an admin suspends and restores the
 * agency. Screenshots at 1280 and 375 px (axe-checked) go to .tmp/screenshots/agency-*.png.
 */
import { mkdirSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, request as playwrightRequest, test } from '@playwright/test';
import { createPackageApi, loginAdminApi, seedLeadsForAgent, uniqueTag } from './agent-fixtures';
import { createAgentViaApi, loginAsAdmin, loginThroughUi, uniqueEmail } from './support';

const SHOTS = '.tmp/screenshots';
test.beforeAll(() => mkdirSync(SHOTS, { recursive: true }));

/** Screenshots at 1280 and 375 px, each width checked by axe (no serious or critical issue). */
async function shoot(page: Page, name: string) {
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: width === 1280 ? 900 : 812 });
    // nothing scrolls sideways; on a phone every list is a column of cards, never a table
    if (width === 375) await expect(page.locator('table:visible'), name).toHaveCount(0);
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth),
      `${name} at ${width} px`,
    ).toBeLessThanOrEqual(width);
    await page.waitForFunction(() =>
      document.getAnimations().every((a) => a.playState !== 'running'),
    );
    await page.screenshot({ path: `${SHOTS}/agency-${name}-${width}.png`, fullPage: true });
    const results = await new AxeBuilder({ page })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
      .analyze();
    const bad = results.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    expect(bad, `${name} at ${width} px`).toEqual([]);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

const toast = (page: Page, text: string) =>
  page.getByTestId('toast-viewport').getByText(text, { exact: true });

test('an agency from creation to suspension: settings, invite link, join, paid package, book, dashboard', async ({
  page,
  request,
  browser,
}) => {
  test.setTimeout(300_000);
  await loginAdminApi(request);
  const tag = uniqueTag('ag');
  const agencyName = `Sunrise ${tag}`;
  const pkg = await createPackageApi(request, {
    name: `Agency Medicare ${tag}`,
    leadsPerDay: 10,
    priceMonthlyCents: 9900,
    category: 'MEDICARE',
  });
  // a pay-per-lead package is the member's own (paid from their wallet): the owner's list leaves it out
  const perLead = await createPackageApi(request, {
    name: `Agency Per Lead ${tag}`,
    leadsPerDay: 5,
    priceMonthlyCents: 0,
    category: 'MEDICARE',
    pricing: 'PER_LEAD',
    perLeadCents: 1250,
  });
  const owner = await createAgentViaApi(page, 'Olga Owner');
  const member = await createAgentViaApi(page, 'Milo Member');
  // the e2e server is shared: the member takes leads of one state no other spec imports, so
  // that the package the agency pays never draws another spec's leads
  const memberApi = await playwrightRequest.newContext({
    baseURL: test.info().project.use.baseURL,
  });
  expect(
    (
      await memberApi.post('/api/auth/login', {
        data: { email: member.email, password: member.password },
      })
    ).status(),
  ).toBe(200);
  const prefs = await memberApi.put('/api/agent/preferences', {
    data: { states: ['ND'], cities: [], ageMin: null, ageMax: null, categories: [] },
  });
  expect(prefs.status(), await prefs.text()).toBe(200);
  await memberApi.dispose();

  // an agent in no agency: what one is, and the form
  await loginThroughUi(page, owner.email, owner.password, /\/dashboard$/);
  await page.getByRole('link', { name: 'Agency', exact: true }).first().click();
  await expect(page).toHaveURL(/\/dashboard\/agency$/);
  await expect(page.getByRole('heading', { name: 'What is an agency?' })).toBeVisible();
  await shoot(page, 'create');
  await page.getByLabel('Agency name').fill(agencyName);
  await page.getByRole('button', { name: 'Create an agency' }).click();
  const overview = page.getByTestId('agency-overview');
  await expect(overview.getByRole('heading', { name: agencyName })).toBeVisible();
  await expect(overview.getByTestId('agency-role')).toHaveText('Owner');

  // Settings: the server's field message, then a daily cap and reclaim minutes saved
  await page.getByRole('tab', { name: 'Settings' }).click();
  await expect(page).toHaveURL(/\?tab=settings$/);
  await page.getByLabel('Daily cap').fill('40');
  await page.getByLabel('Reclaim after (minutes)').fill('3');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByTestId('agency-settings')).toContainText(
    'Reclaim after 5 to 1440 minutes (or never)',
  );
  await expect(page.getByLabel('Reclaim after (minutes)')).toHaveAttribute('aria-invalid', 'true');
  await page.getByLabel('Reclaim after (minutes)').fill('30');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(toast(page, 'Settings saved')).toBeVisible();
  const saved = await (await page.request.get('/api/agency')).json();
  expect(saved.agency).toMatchObject({ dailyCap: 40, reclaimAfterMinutes: 30 });
  await shoot(page, 'settings');

  // Members: an invite link, shown once, copied
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.getByRole('tab', { name: 'Members' }).click();
  await page.getByRole('button', { name: 'Invite', exact: true }).click();
  const inviteDialog = page.getByTestId('invite-dialog');
  await inviteDialog.getByLabel('Max uses').fill('5');
  await inviteDialog.getByRole('button', { name: 'Create invite link' }).click();
  const linkDialog = page.getByTestId('invite-link-dialog');
  const url = await linkDialog.getByLabel('Invite link').inputValue();
  expect(url).toMatch(/\/join\/[^/]+$/);
  await linkDialog.getByRole('button', { name: 'Copy' }).click();
  await expect(toast(page, 'Link copied')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
  await shoot(page, 'invite-link');
  await page.keyboard.press('Escape');
  const invite = page.getByTestId('invite-row');
  await expect(invite).toHaveCount(1);
  await expect(invite.getByTestId('invite-state')).toHaveText('Usable');
  await expect(invite).toContainText('0 of 5 joined');

  // the second agent, signed out, opens the link, logs in through it and joins
  const baseURL = test.info().project.use.baseURL;
  const other = await browser.newContext({ baseURL });
  const visitor = await other.newPage();
  const joinPath = new URL(url).pathname;
  await visitor.goto(joinPath);
  await expect(visitor.getByTestId('join-invite')).toContainText(
    `Olga Owner invites you to join ${agencyName} as an Agent.`,
  );
  await shoot(visitor, 'join');
  await visitor.getByRole('link', { name: 'Log in' }).click();
  await expect(visitor).toHaveURL(/\/login\?next=/);
  await visitor.getByLabel('Email').fill(member.email);
  await visitor.getByLabel('Password').fill(member.password);
  await visitor.getByRole('button', { name: 'Log In' }).click();
  await expect(visitor).toHaveURL(new RegExp(`${joinPath}$`));
  await visitor.getByRole('button', { name: `Join ${agencyName}` }).click();
  await expect(visitor).toHaveURL(/\/dashboard\/agency$/);
  const memberView = visitor.getByTestId('agency-overview');
  await expect(memberView.getByTestId('agency-role')).toHaveText('Agent');
  await expect(memberView.getByTestId('agency-manager')).toHaveText('Olga Owner');
  // an agent member sees their agency and Leave, not the others' data
  await expect(visitor.getByRole('tab')).toHaveCount(0);
  await expect(visitor.getByRole('button', { name: 'Leave agency' })).toBeVisible();
  await shoot(visitor, 'member');

  // a newcomer with no account creates one through the link: a member from the start
  const third = await browser.newContext({ baseURL });
  const newcomer = await third.newPage();
  const newcomerEmail = uniqueEmail('newcomer');
  await newcomer.goto(joinPath);
  await newcomer.getByRole('link', { name: 'Create account' }).click();
  await expect(newcomer).toHaveURL(/\/register\?agencyInvite=/);
  await newcomer.getByLabel('Full Name').fill('Nina Newcomer');
  await newcomer.getByLabel('Email').fill(newcomerEmail);
  await newcomer.getByLabel('Password', { exact: true }).fill('plum-tree-41');
  await newcomer.getByLabel('Confirm Password').fill('plum-tree-41');
  await newcomer.getByRole('button', { name: 'Create Account' }).click();
  await expect(newcomer).toHaveURL(/\/login\?next=/);
  await newcomer.getByLabel('Email').fill(newcomerEmail);
  await newcomer.getByLabel('Password').fill('plum-tree-41');
  await newcomer.getByRole('button', { name: 'Log In' }).click();
  await expect(newcomer).toHaveURL(/\/dashboard\/agency$/);
  await expect(
    newcomer.getByTestId('agency-overview').getByRole('heading', { name: agencyName }),
  ).toBeVisible();
  await expect(newcomer.getByTestId('agency-role')).toHaveText('Agent');
  await third.close();

  // an unknown code
  await visitor.goto('/join/not-a-real-code');
  await expect(visitor.getByTestId('invite-invalid')).toHaveText(
    'This invite link is not valid any more. Ask the agency for a new one.',
  );
  await shoot(visitor, 'join-invalid');

  // the owner sees them in Members and pays their package (no Stripe: active at once)
  await page.reload();
  const row = page.getByTestId('member-row').filter({ hasText: 'Milo Member' });
  await expect(row).toContainText('No package');
  await expect(invite).toContainText('2 of 5 joined');
  const manage = page.getByTestId('manage-member-dialog');
  // the list of packages, open, at 375 then 1280 px (the list becomes cards at 375, so the dialog
  // is opened at each width); taken with the list open, the screenshots are not axe-checked
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: width === 1280 ? 900 : 812 });
    await row.getByRole('button', { name: 'Manage Milo Member' }).click();
    await manage.getByRole('combobox', { name: 'Package' }).click();
    await expect(page.getByRole('option', { name: new RegExp(pkg.name) })).toHaveText(
      `${pkg.name} · MEDICARE · $99/month`,
    );
    await expect(page.getByRole('option', { name: new RegExp(perLead.name) })).toHaveCount(0);
    await page.screenshot({ path: `${SHOTS}/agency-member-package-${width}.png` });
    if (width === 375) {
      // the list stays on the screen: no option runs off its right edge
      const box = await page.getByRole('listbox').boundingBox();
      expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(375);
      await page.keyboard.press('Escape');
      await expect(manage.getByTestId('member-package-hint')).toHaveText(
        "The agency pays monthly packages. A pay-per-lead package is paid from the member's own wallet.",
      );
      await manage.getByRole('button', { name: 'Close' }).click();
      await expect(manage).toBeHidden();
    }
  }
  await page.getByRole('option', { name: new RegExp(pkg.name) }).click();
  await manage.getByRole('button', { name: 'Pay this package' }).click();
  await expect(toast(page, 'Package paid by the agency')).toBeVisible();
  await expect(manage).toBeHidden();
  await expect(row.getByTestId('paid-by-agency')).toBeVisible();
  await expect(row.getByTestId('subscription-status')).toHaveText('Active');
  await shoot(page, 'members');

  // a lead an admin gives the member by hand
  const leads = await seedLeadsForAgent(request, member.id, tag, [
    {
      firstName: 'Bea',
      lastName: `Book${tag}`,
      phone: '2125550190',
      email: `bea.${tag}@example.com`,
      city: 'Austin',
      state: 'TX',
      age: 68,
    },
  ]);
  expect(leads.size).toBe(1);
  await page.reload();
  await page.getByRole('tab', { name: 'Book of business' }).click();
  // given to a member, by any trigger: in the agency's book, with who holds it
  await expect(page.getByTestId('book-count')).toHaveText('1 lead');
  const bookRow = page.getByTestId('book-row').filter({ hasText: `Bea Book${tag}` });
  await expect(bookRow.getByTestId('book-member')).toHaveText('Milo Member');
  await shoot(page, 'book');
  // the owner has no package of their own: the server refuses the move and says why
  await bookRow.getByRole('button', { name: `Reassign Bea Book${tag}` }).click();
  const reassign = page.getByTestId('reassign-dialog');
  await reassign.getByLabel('Member').click();
  await page.getByRole('option', { name: 'Olga Owner' }).click();
  await reassign.getByRole('button', { name: 'Reassign' }).click();
  await expect(toast(page, 'Reassignment refused')).toBeVisible();
  await reassign.getByRole('button', { name: 'Close' }).click();
  await expect(reassign).toBeHidden();
  await expect(bookRow.getByTestId('book-member')).toHaveText('Milo Member');

  // Performance counts every lead the member received in 30 days
  await page.getByRole('tab', { name: 'Performance' }).click();
  const perf = page.getByTestId('performance-row').filter({ hasText: 'Milo Member' });
  await expect(perf).toContainText('No contact yet');
  await expect(perf.getByRole('cell').nth(2)).toHaveText('1');
  await expect(perf.getByRole('cell').nth(4)).toHaveText('0.0%');
  await shoot(page, 'performance');

  // the owner cannot leave while others remain
  await page.getByRole('button', { name: 'Leave agency' }).click();
  await page
    .getByTestId('leave-agency-dialog')
    .getByRole('button', { name: 'Leave agency' })
    .click();
  await expect(
    toast(page, 'Hand the agency over first: make another member its owner, then leave'),
  ).toBeVisible();

  // the member's dashboard names the agency and the manager
  await visitor.goto('/dashboard');
  const line = visitor.getByTestId('agency-membership');
  await expect(line).toContainText(`Member of ${agencyName} · Manager: Olga Owner`);
  await expect(line).toContainText('Package paid by your agency');
  // the member cannot change a package the agency pays: no "Change package" link
  const pkgCard = visitor.getByTestId('card-current-package');
  await expect(pkgCard).toContainText('Paid by your agency');
  await expect(pkgCard.getByRole('link', { name: 'Change package' })).toHaveCount(0);
  await shoot(visitor, 'dashboard');
  await other.close();

  // an admin suspends (after the question) and restores the agency
  const admin = await browser.newContext({ baseURL });
  const adminPage = await admin.newPage();
  await loginAsAdmin(adminPage);
  await adminPage.getByRole('link', { name: 'Agencies' }).click();
  await expect(adminPage).toHaveURL(/\/admin\/agencies$/);
  const agencyRow = adminPage.getByTestId('agency-row').filter({ hasText: agencyName });
  await expect(agencyRow).toContainText('Olga Owner');
  await expect(agencyRow.getByRole('cell').nth(3)).toHaveText('3'); // members: owner, Milo, Nina
  await expect(agencyRow.getByRole('cell').nth(4)).toHaveText('1'); // paid members
  await agencyRow.getByRole('button', { name: `Suspend ${agencyName}` }).click();
  const suspend = adminPage.getByTestId('suspend-agency-dialog');
  await expect(suspend).toContainText('Its members get no leads');
  await suspend.getByRole('button', { name: 'Suspend' }).click();
  await expect(agencyRow.getByTestId('agency-status')).toHaveText('Suspended');
  await shoot(adminPage, 'admin');
  await agencyRow.getByRole('button', { name: `Restore ${agencyName}` }).click();
  await expect(agencyRow.getByTestId('agency-status')).toHaveText('Active');
  await admin.close();
  // the agency stops paying: the member takes no lead of another spec after this one
  expect(
    (await page.request.delete(`/api/agency/members/${member.id}/subscription`)).status(),
  ).toBe(200);
});
