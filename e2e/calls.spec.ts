/**
 * Follow-ups and calls in the browser (docs/domain.md, Follow-up messages and calls): the agent saves a phone, verifies it by
 * the code texted to it, and saves a follow-up template on the Services screen (live preview), starts a call from My Leads, Twilio's stand-in plays the
 * call through (signed callbacks over HTTP to this server, a WAV recording), and the drawer's call
 * log shows it with an audio element that loads the recording through the portal. The shared e2e
 * server has no Twilio, so this spec starts its own (E2E_PORT + 29, its own PGlite folder).
 * Screenshots at 1280 and 375 px (axe-checked) go to .tmp/screenshots/.
 */
import { existsSync, mkdirSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, request, test } from '@playwright/test';
import { callingWindow, STATE_TIME_ZONES } from '../src/shared/calling-window';
import { TwilioStandIn } from '../test/support/twilio-stand-in';
import { seedLeadsForAgent, uniqueTag } from './agent-fixtures';
import { OwnServer } from './own-server';
import { E2E_ADMIN, loginThroughUi, uniqueEmail } from './support';

const PORT = Number(process.env.E2E_PORT ?? 3100) + 29;
const SHOTS = '.tmp/screenshots';

/** A state whose leads may be called at `at`, with an hour to spare; null at an hour none is. */
function callableState(at: Date): string | null {
  const hourLater = new Date(at.getTime() + 60 * 60_000);
  for (const state of ['NY', 'TX', 'CO', 'CA', 'AK', 'HI'])
    if (
      callingWindow(STATE_TIME_ZONES[state]!, state, at).callableNow &&
      callingWindow(STATE_TIME_ZONES[state]!, state, hourLater).callableNow
    )
      return state;
  return null;
}

/**
 * The calling window is the lead's own 8 AM to 9 PM, so between about 07:00 and 12:00 UTC no US
 * state is inside it and no call may be placed. At such an hour this spec's clocks run ahead by
 * the fewest whole hours that reach one: the server's by libfaketime (Debian's package, preloaded
 * into this spec's own server process alone: the PGlite it embeds reads the same clock), the
 * browser's by Playwright's clock. The Twilio stand-in's signatures carry no time.
 */
const AHEAD = (() => {
  for (let hours = 0; hours <= 12; hours++) {
    const state = callableState(new Date(Date.now() + hours * 3_600_000));
    if (state) return { hours, state };
  }
  throw new Error('no hour of the day puts a US state inside its calling window');
})();
const FAKETIME = '/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1';
const canMoveClock = AHEAD.hours === 0 || existsSync(FAKETIME);
const aheadMs = AHEAD.hours * 3_600_000;

const standIn = new TwilioStandIn();
const server = new OwnServer('calls', PORT);
const BASE = server.base;

test.use({ baseURL: BASE });
test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  const apiBase = await standIn.start();
  mkdirSync(SHOTS, { recursive: true });
  if (!canMoveClock) return;
  await server.start({
    ...(AHEAD.hours > 0
      ? {
          LD_PRELOAD: FAKETIME,
          FAKETIME: `+${AHEAD.hours}h`,
          // timers and timeouts keep the machine's pace
          FAKETIME_DONT_FAKE_MONOTONIC: '1',
        }
      : {}),
    TWILIO_ACCOUNT_SID: standIn.accountSid,
    TWILIO_AUTH_TOKEN: standIn.authToken,
    TWILIO_FROM_NUMBER: standIn.fromNumber,
    TWILIO_API_BASE: apiBase,
  });
});

test.afterAll(async () => {
  await server.stop();
  await standIn.stop();
});

/** Screenshots at 1280 and 375 px, each width checked by axe (no serious or critical issue). */
async function shoot(page: Page, name: string, fullPage = true) {
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: width === 1280 ? 900 : 812 });
    await page.waitForFunction(() =>
      document.getAnimations().every((a) => a.playState !== 'running'),
    );
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage });
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

test('an agent saves a follow-up template, calls a lead from My Leads and plays the recording', async ({
  page,
  browser,
}) => {
  test.skip(
    !canMoveClock,
    `no US state is inside its calling window at this hour, and ${FAKETIME} (Debian's libfaketime) is not installed to move the server's clock`,
  );
  const state = AHEAD.state;
  // the screens' calling window reads the browser's clock, the server's gates its own: the same
  if (aheadMs > 0) await page.clock.setSystemTime(new Date(Date.now() + aheadMs));
  const admin = await request.newContext({ baseURL: BASE });
  expect((await admin.post('/api/auth/login', { data: E2E_ADMIN })).status()).toBe(200);
  const pkg = await admin.post('/api/admin/packages', {
    data: {
      name: 'Calls Gold',
      slug: `calls-gold-${Date.now()}`,
      priceMonthlyCents: 29_900,
      leadsPerDay: 10,
      commissionPct: 15,
      category: 'MEDICARE',
      enrollmentOnly: false,
      services: { crm: true, callRecording: true, followUpMessage: true },
      active: true,
    },
  });
  expect(pkg.status(), await pkg.text()).toBe(201);

  const email = uniqueEmail('caller');
  const register = await page.request.post('/api/auth/register', {
    data: { name: 'Casey Caller', email, password: 'secret123' },
  });
  expect(register.status()).toBe(201);
  const agentId = (await register.json()).user.id as number;
  await loginThroughUi(page, email, 'secret123', /\/dashboard$/);
  const subscribed = await page.request.post('/api/agent/subscription', {
    data: { packageId: (await pkg.json()).id },
  });
  expect(subscribed.status(), await subscribed.text()).toBeLessThan(300);

  // Services: the phone (refused, then saved as E.164), then the template with its preview
  await page.getByRole('link', { name: 'Services' }).first().click();
  await expect(page).toHaveURL(`${BASE}/dashboard/services`);
  await expect(page.getByTestId('calls-state')).toContainText(
    'Add your phone number in Services to call leads',
  );
  const phone = page.getByLabel('Phone number');
  await phone.fill('12345');
  await page.getByRole('button', { name: 'Save Phone' }).click();
  await expect(page.getByText('Enter a valid phone number')).toBeVisible();
  await phone.fill('(305) 555-0123');
  await page.getByRole('button', { name: 'Save Phone' }).click();
  await expect(page.getByTestId('toast-viewport').getByText('Phone number saved')).toBeVisible();
  // calls ring a verified phone only: a code by SMS (the stand-in receives it), typed back
  await expect(page.getByTestId('calls-state')).toContainText(
    'Verify your phone number in Services to call leads',
  );
  const sentBefore = standIn.messages.size;
  await page.getByRole('button', { name: 'Send code' }).click();
  await expect(
    page.getByTestId('toast-viewport').getByText('Code sent to (305) 555-0123'),
  ).toBeVisible();
  await expect.poll(() => standIn.messages.size).toBe(sentBefore + 1);
  const text = [...standIn.messages.values()].at(-1);
  expect(text?.To).toBe('+13055550123');
  const code = text?.Body?.match(/code is (\d{6})/)?.[1] as string;
  await page.getByLabel('Verification code').fill(code === '000000' ? '111111' : '000000');
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByText('That code is not right')).toBeVisible();
  await shoot(page, 'agent-services-verify-phone');
  await page.getByLabel('Verification code').fill(code);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByTestId('phone-verified')).toHaveText(
    'Verified: calls ring (305) 555-0123',
  );
  await expect(page.getByTestId('calls-state')).toContainText('Ready: call leads from My Leads');

  const sms = page.getByLabel('SMS', { exact: true });
  await sms.fill('Hi {firstName}, {agentName} here about your quote. Call {agentPhone}.');
  await expect(page.getByTestId('preview-sms')).toHaveText(
    'Hi Maria, Casey Caller here about your quote. Call (305) 555-0123.',
  );
  // an SMS must say how to stop them
  await expect(page.getByText('Add opt-out wording to the SMS')).toBeVisible();
  await sms.fill('Hi {name}');
  await expect(page.getByText('Unknown placeholder {name}')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Save Follow-up Messages' })).toBeDisabled();
  await sms.fill(
    'Hi {firstName} {lastName}, {agentName} here about your quote. Call {agentPhone}. Reply STOP to opt out.',
  );
  await expect(page.getByTestId('preview-sms')).toHaveText(
    'Hi Maria Lopez, Casey Caller here about your quote. Call (305) 555-0123. Reply STOP to opt out.',
  );
  await page.getByRole('switch', { name: 'Send follow-up messages' }).click();
  await page.getByRole('button', { name: 'Save Follow-up Messages' }).click();
  await expect(
    page.getByTestId('toast-viewport').getByText('Follow-up messages saved'),
  ).toBeVisible();
  await shoot(page, 'agent-services');
  await page.reload();
  await expect(page.getByLabel('SMS', { exact: true })).toHaveValue(
    'Hi {firstName} {lastName}, {agentName} here about your quote. Call {agentPhone}. Reply STOP to opt out.',
  );
  await expect(page.getByRole('switch', { name: 'Send follow-up messages' })).toBeChecked();

  // a lead of this agent, callable now
  const tag = uniqueTag('call');
  const phoneDigits = `212${String(200 + (Date.now() % 700)).padStart(3, '0')}${String(Date.now() % 10_000).padStart(4, '0')}`;
  await seedLeadsForAgent(admin, agentId, tag, [
    {
      firstName: 'Maria',
      lastName: `Lopez${tag}`,
      phone: phoneDigits,
      email: `${tag}@example.com`,
      city: 'Springfield',
      state,
      age: 66,
    },
  ]);

  await page.getByRole('link', { name: 'My Leads' }).first().click();
  const row = page
    .getByTestId('lead-row')
    .filter({ hasText: `Lopez${tag}` })
    .first();
  const callButton = row.getByRole('button', { name: `Call Maria Lopez${tag}` });
  await expect(callButton).toBeEnabled();
  const before = standIn.calls.size;
  await callButton.click();
  await expect(page.getByTestId('toast-viewport').getByText('Calling your phone')).toBeVisible();
  await expect.poll(() => standIn.calls.size).toBe(before + 1);
  const [sid, asked] = [...standIn.calls.entries()].at(-1)!;
  expect(asked).toMatchObject({ To: '+13055550123', From: standIn.fromNumber });

  // the provider plays it through: the agent answers, the recording is announced, the lead answers
  const played = await standIn.playCall(sid, { seconds: 42 });
  expect(played.say).toBe('This call is recorded.');
  expect(played.number).toBe(`+1${phoneDigits}`);
  for (const cb of standIn.callbacks) expect(cb.status, cb.url).toBeLessThan(300);

  await row.getByRole('button', { name: /Update Status/ }).click();
  const drawer = page.getByTestId('update-status-drawer');
  const entry = drawer.getByTestId('call-log-entry').first();
  await expect(entry.getByTestId('call-status')).toHaveText('Connected');
  await expect(entry.getByTestId('call-duration')).toHaveText('0:42');
  const audio = entry.getByTestId('call-recording');
  await expect(audio).toHaveAttribute('src', /^\/api\/recordings\/\d+$/);
  await expect
    .poll(() => audio.evaluate((el: HTMLAudioElement) => (el.readyState >= 1 ? el.duration : 0)))
    .toBeGreaterThan(0);
  await expect(
    drawer.getByTestId('activity-entry').filter({ hasText: 'Contacted' }).first(),
  ).toBeVisible();
  await expect(
    drawer.getByTestId('activity-entry').filter({ hasText: 'Call' }).first(),
  ).toContainText('0:42');
  await shoot(page, 'lead-drawer-call-log', false);
  await page.keyboard.press('Escape');
  await expect(row.getByTestId('lead-status')).toHaveText(/Contacted/);
  await shoot(page, 'my-leads-call-button');

  // admins: System Status and the follow-up figures
  const adminContext = await browser.newContext({ baseURL: BASE });
  if (aheadMs > 0) await adminContext.clock.setSystemTime(new Date(Date.now() + aheadMs));
  const adminPage = await adminContext.newPage();
  await loginThroughUi(adminPage, E2E_ADMIN.email, E2E_ADMIN.password, /\/admin$/);
  await expect(adminPage.getByTestId('status-sms-state')).toHaveText('Operational');
  await expect(adminPage.getByTestId('status-voice-state')).toHaveText('Operational');
  await shoot(adminPage, 'admin-system-status');
  await adminPage.goto('/admin/deliveries');
  await expect(adminPage.getByTestId('follow-up-stats')).toContainText('Last 24 hours');
  await shoot(adminPage, 'admin-follow-up-stats');
  await adminContext.close();
});
