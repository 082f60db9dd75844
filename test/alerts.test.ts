/**
 * Alerts to the agent's phone (docs/domain.md, Alerts to the agent's phone): the agent's settings
 * (push, SMS, quiet hours), the SMS alert of each lead given to them through the real `twilio`
 * SDK to a stand-in of Twilio's API, push and SMS held back in quiet hours (read in the agent's
 * zone, across midnight too), the tests the agent sends themselves, the alerts on the lead's
 * timeline, and the limits on the codes that verify the phone.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppConfig } from '../src/server/config/env';
import { queryRows } from '../src/server/db/client';
import { assignMaryOrtiz, createPackage, subscribe } from './support/admin-fixtures';
import { deliverInto, PUBLIC_URL, uniquePhone, verifyPhone } from './support/calls-fixtures';
import { type PushDevice, TestPushService } from './support/push-service';
import { type Client, registerAgent, setupTestApp } from './support/test-app';
import { TwilioStandIn } from './support/twilio-stand-in';

const standIn = new TwilioStandIn();
const push = new TestPushService();
const overrides: Partial<AppConfig> = {
  PUBLIC_URL,
  TWILIO_ACCOUNT_SID: standIn.accountSid,
  TWILIO_AUTH_TOKEN: standIn.authToken,
  TWILIO_FROM_NUMBER: standIn.fromNumber,
  // the push service is on loopback
  WEBHOOK_ALLOW_PRIVATE: true,
};

beforeAll(async () => {
  overrides.TWILIO_API_BASE = await standIn.start();
  await push.start();
});
afterAll(async () => {
  await standIn.stop();
  await push.close();
});

// short retries (the real ones: 5 s, 30 s...)
const ctx = setupTestApp(overrides, {
  deliveryQueue: {
    webhookTimeoutMs: 2000,
    retryDelaysMs: [150, 150],
    pollingIntervalSeconds: 0.5,
    sweepIntervalMs: 300,
  },
});
beforeAll(() => deliverInto(ctx, standIn));

async function waitFor<T>(what: string, probe: () => Promise<T | null | undefined | false> | T) {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const settle = () => new Promise((r) => setTimeout(r, 1500));

/** An agent with an active package and a saved phone; verified unless said. */
async function phoneAgent(opts: { verified?: boolean } = {}) {
  const agent = await registerAgent(ctx.app, 'Alert Agent');
  const pkg = await createPackage(ctx, { leadsPerDay: 50 });
  await subscribe(ctx, agent.id, pkg.id);
  const phone = uniquePhone();
  const res = await agent.client.put('/api/agent/profile', { phone });
  expect(res.statusCode, res.body).toBe(200);
  if (opts.verified ?? true) await verifyPhone(agent.client, standIn);
  return { ...agent, phone };
}

async function putAlerts(client: Client, body: Record<string, unknown>, status = 200) {
  const res = await client.put('/api/agent/alerts', body);
  expect(res.statusCode, res.body).toBe(status);
  return res.json();
}

/** A zone (one the schedule accepts: the runtime's IANA list) whose wall clock reads this hour now. */
function zoneAtHour(hour: number, now = new Date()): string {
  for (const zone of Intl.supportedValuesOf('timeZone')) {
    const h = Number(
      new Intl.DateTimeFormat('en-US', {
        timeZone: zone,
        hour: 'numeric',
        hourCycle: 'h23',
      }).format(now),
    );
    if (h === hour) return zone;
  }
  throw new Error(`no zone at hour ${hour}`);
}

/** The agent's schedule in this zone, open all day every day (so it changes nothing else). */
async function scheduleIn(client: Client, timeZone: string) {
  const day = { start: '00:00', end: '24:00' };
  const res = await client.put('/api/agent/schedule', {
    timeZone,
    days: { mon: day, tue: day, wed: day, thu: day, fri: day, sat: day, sun: day },
  });
  expect(res.statusCode, res.body).toBe(200);
}

const textsTo = (phone: string) => [...standIn.messages.values()].filter((m) => m.To === phone);

async function alertsOnTimeline(client: Client, leadId: number) {
  const res = await client.get(`/api/agent/leads/${leadId}/activity`);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().items as { type: string; status?: string }[]).filter(
    (i) => i.type === 'alert',
  );
}

async function subscribeDevice(client: Client, device: PushDevice) {
  const res = await client.post('/api/agent/push/subscriptions', {
    endpoint: device.endpoint,
    keys: device.keys,
  });
  expect(res.statusCode, res.body).toBe(201);
}

describe('alert settings', () => {
  it('starts with push on, SMS off and no quiet hours, in the business zone until a schedule names one', async () => {
    const agent = await phoneAgent({ verified: false });
    const res = await agent.client.get('/api/agent/alerts');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      push: true,
      sms: false,
      quietHours: null,
      timeZone: ctx.app.config.BUSINESS_TZ,
      phone: agent.phone,
      phoneVerified: false,
      smsAvailable: { available: false, reason: 'Verify your phone first' },
    });
    await scheduleIn(agent.client, 'America/Denver');
    expect((await agent.client.get('/api/agent/alerts')).json().timeZone).toBe('America/Denver');
  });

  it('turns SMS on only for a verified phone, and says why not', async () => {
    const bare = await registerAgent(ctx.app, 'No Phone');
    const noPhone = await putAlerts(bare.client, { push: true, sms: true, quietHours: null }, 409);
    expect(noPhone.message).toBe('Add your phone number first');

    const agent = await phoneAgent({ verified: false });
    const refused = await putAlerts(agent.client, { push: true, sms: true, quietHours: null }, 409);
    expect(refused.message).toBe('Verify your phone first');
    // switched off always saves
    await putAlerts(agent.client, { push: false, sms: false, quietHours: null });

    await verifyPhone(agent.client, standIn);
    const saved = await putAlerts(agent.client, {
      push: true,
      sms: true,
      quietHours: { start: '22:00', end: '07:00' },
    });
    expect(saved).toMatchObject({
      push: true,
      sms: true,
      quietHours: { start: '22:00', end: '07:00' },
      phoneVerified: true,
      smsAvailable: { available: true, reason: null },
    });
    expect((await agent.client.get('/api/agent/alerts')).json()).toEqual(saved);
  });

  it('refuses malformed settings with 400 on the field', async () => {
    const agent = await phoneAgent();
    const bad: [Record<string, unknown>, string][] = [
      [{ push: true, sms: false }, 'quietHours'],
      [{ push: 'yes', sms: false, quietHours: null }, 'push'],
      [{ push: true, sms: false, quietHours: { start: '7:00', end: '09:00' } }, 'quietHours.start'],
      [{ push: true, sms: false, quietHours: { start: '22:00', end: '24:00' } }, 'quietHours.end'],
      [{ push: true, sms: false, quietHours: { start: '22:00' } }, 'quietHours.end'],
      [{ push: true, sms: false, quietHours: { start: '22:00', end: '22:00' } }, 'quietHours.end'],
    ];
    for (const [body, field] of bad) {
      const res = await agent.client.put('/api/agent/alerts', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(
        (res.json().errors as { field: string }[]).map((e) => e.field),
        JSON.stringify(body),
      ).toContain(field);
    }
    const same = await agent.client.put('/api/agent/alerts', bad[5]![0]);
    expect(same.json().errors).toContainEqual({
      field: 'quietHours.end',
      message: 'Quiet hours must end at another time than they start',
    });
  });
});

describe('the SMS alert of a new lead', () => {
  it('texts the verified phone the lead’s first name, area and link, and puts it on the timeline', async () => {
    const agent = await phoneAgent();
    await putAlerts(agent.client, { push: true, sms: true, quietHours: null });
    const leadId = await assignMaryOrtiz(ctx, agent.id);
    const [text] = await waitFor('the text', () =>
      textsTo(agent.phone).length > 1 ? textsTo(agent.phone).slice(1) : null,
    );
    expect(text).toMatchObject({ To: agent.phone, From: standIn.fromNumber });
    expect(text!.Body).toBe(
      `New lead: Mary, Austin, TX. ${PUBLIC_URL}/dashboard/leads?lead=${leadId}`,
    );
    // only the first name travels
    expect(text!.Body).not.toContain('Ortiz');
    await waitFor(
      'the timeline',
      async () => (await alertsOnTimeline(agent.client, leadId)).length === 1,
    );
    expect(await alertsOnTimeline(agent.client, leadId)).toEqual([
      {
        type: 'alert',
        at: expect.any(String),
        channel: 'SMS',
        status: 'SENT',
        attempt: 1,
        to: agent.phone,
        responseCode: null,
        error: null,
      },
    ]);
  });

  it('sends nothing with SMS off, or once the phone is changed and not verified again', async () => {
    const off = await phoneAgent();
    await assignMaryOrtiz(ctx, off.id);
    const agent = await phoneAgent();
    await putAlerts(agent.client, { push: true, sms: true, quietHours: null });
    const newPhone = uniquePhone();
    await agent.client.put('/api/agent/profile', { phone: newPhone });
    const leadId = await assignMaryOrtiz(ctx, agent.id);
    await settle();
    // the verification code only
    expect(textsTo(off.phone)).toHaveLength(1);
    expect(textsTo(agent.phone)).toHaveLength(1);
    expect(textsTo(newPhone)).toHaveLength(0);
    expect(await alertsOnTimeline(agent.client, leadId)).toEqual([]);
  });

  it('tries again when Twilio fails, and gives up on a refusal', async () => {
    const agent = await phoneAgent();
    await putAlerts(agent.client, { push: true, sms: true, quietHours: null });
    standIn.refuseNext = { status: 503, code: 20503, message: 'Service unavailable' };
    const retried = await assignMaryOrtiz(ctx, agent.id);
    await waitFor(
      'the second attempt',
      async () => (await alertsOnTimeline(agent.client, retried)).length === 2,
    );
    expect((await alertsOnTimeline(agent.client, retried)).map((a) => a.status)).toEqual([
      'RETRY',
      'SENT',
    ]);

    standIn.refuseNext = {
      status: 400,
      code: 21610,
      message: 'Attempt to send to unsubscribed recipient',
    };
    const refused = await assignMaryOrtiz(ctx, agent.id);
    await waitFor(
      'the attempt',
      async () => (await alertsOnTimeline(agent.client, refused)).length === 1,
    );
    await settle();
    expect(await alertsOnTimeline(agent.client, refused)).toEqual([
      expect.objectContaining({
        channel: 'SMS',
        status: 'FAILED',
        error: 'Attempt to send to unsubscribed recipient',
      }),
    ]);
  });
});

describe('quiet hours', () => {
  const night = { start: '22:00', end: '02:00' };
  const skippedRows = (leadId: number) =>
    queryRows<{ channel: string; status: string; error: string | null }>(
      ctx.database.db,
      sql`select 'SMS' as channel, status, error from sms_alerts where lead_id = ${leadId}
          union all
          select 'PUSH', status, error from push_attempts where lead_id = ${leadId}
          order by channel`,
    );

  for (const hour of [23, 0]) {
    it(`holds back the SMS and the push at ${hour}:xx in the agent's zone, in a window across midnight`, async () => {
      const agent = await phoneAgent();
      await scheduleIn(agent.client, zoneAtHour(hour));
      const device = push.device();
      await subscribeDevice(agent.client, device);
      await putAlerts(agent.client, { push: true, sms: true, quietHours: night });
      const leadId = await assignMaryOrtiz(ctx, agent.id);
      await waitFor('both gates', async () => (await skippedRows(leadId)).length === 2);
      expect(await skippedRows(leadId)).toEqual([
        { channel: 'PUSH', status: 'SKIPPED', error: 'Quiet hours' },
        { channel: 'SMS', status: 'SKIPPED', error: 'Quiet hours' },
      ]);
      expect(textsTo(agent.phone)).toHaveLength(1);
      expect(push.of(device)).toEqual([]);
      const timeline = await alertsOnTimeline(agent.client, leadId);
      expect(timeline).toHaveLength(2);
      expect(timeline).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ channel: 'SMS', status: 'SKIPPED', error: 'Quiet hours' }),
          expect.objectContaining({ channel: 'PUSH', status: 'SKIPPED', error: 'Quiet hours' }),
        ]),
      );
    });
  }

  it('lets alerts through outside them (noon, the same window)', async () => {
    const agent = await phoneAgent();
    await scheduleIn(agent.client, zoneAtHour(12));
    const device = push.device();
    await subscribeDevice(agent.client, device);
    await putAlerts(agent.client, { push: true, sms: true, quietHours: night });
    const leadId = await assignMaryOrtiz(ctx, agent.id);
    await waitFor('the text', () => textsTo(agent.phone).length === 2);
    await waitFor('the push', () => push.of(device).length === 1);
    expect(push.of(device)[0]!.payload).toMatchObject({ url: `/dashboard/leads?lead=${leadId}` });
  });

  it('push turned off: the devices get nothing', async () => {
    const agent = await phoneAgent();
    const device = push.device();
    await subscribeDevice(agent.client, device);
    await putAlerts(agent.client, { push: false, sms: false, quietHours: null });
    const leadId = await assignMaryOrtiz(ctx, agent.id);
    await settle();
    expect(push.of(device)).toEqual([]);
    expect(await alertsOnTimeline(agent.client, leadId)).toEqual([]);
  });
});

describe('sending a test', () => {
  it('texts the verified phone, quiet hours or not, at most 5 an hour', async () => {
    const unverified = await phoneAgent({ verified: false });
    const refused = await unverified.client.post('/api/agent/alerts/sms/test');
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('Verify your phone first');

    const agent = await phoneAgent();
    await scheduleIn(agent.client, zoneAtHour(23));
    await putAlerts(agent.client, {
      push: true,
      sms: true,
      quietHours: { start: '22:00', end: '02:00' },
    });
    for (let i = 0; i < 5; i++) {
      const res = await agent.client.post('/api/agent/alerts/sms/test');
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ sent: 1, failed: 0, error: null });
    }
    const tests = textsTo(agent.phone).slice(1);
    expect(tests).toHaveLength(5);
    expect(tests[0]!.Body).toBe(
      `LeadFlow test: alerts of your new leads come to this phone. ${PUBLIC_URL}/dashboard/leads`,
    );
    const sixth = await agent.client.post('/api/agent/alerts/sms/test');
    expect(sixth.statusCode).toBe(429);
    expect(Number(sixth.headers['retry-after'])).toBeGreaterThan(0);
    expect(textsTo(agent.phone)).toHaveLength(6);
  });

  it('pushes to each device; without one, says to turn push on', async () => {
    const agent = await phoneAgent();
    const none = await agent.client.post('/api/agent/push/test');
    expect(none.statusCode).toBe(409);
    expect(none.json().message).toBe('Turn on push notifications on a device first');
    const device = push.device();
    await subscribeDevice(agent.client, device);
    const res = await agent.client.post('/api/agent/push/test');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ sent: 1, failed: 0, error: null });
    expect(push.of(device)).toHaveLength(1);
    expect(push.of(device)[0]!.decryptError).toBeNull();
    expect(push.of(device)[0]!.payload).toEqual({
      title: 'LeadFlow test',
      body: 'Alerts of your new leads will show up like this.',
      url: '/dashboard/leads',
    });
  });
});

describe('the code that verifies the phone', () => {
  it('sends one code for requests at once, and 5 a day', async () => {
    const agent = await phoneAgent({ verified: false });
    const at = await Promise.all(
      Array.from({ length: 8 }, () => agent.client.post('/api/agent/profile/phone/verify')),
    );
    expect(at.map((r) => r.statusCode).sort()).toEqual([202, 429, 429, 429, 429, 429, 429, 429]);
    expect(textsTo(agent.phone)).toHaveLength(1);
    const code = textsTo(agent.phone)[0]!.Body?.match(/code is (\d{6})/)?.[1];
    expect(code).toMatch(/^\d{6}$/);
    for (let i = 2; i <= 6; i++) {
      await ctx.database.db.execute(
        sql`update phone_codes set created_at = created_at - interval '2 minutes'
             where user_id = ${agent.id}`,
      );
      const res = await agent.client.post('/api/agent/profile/phone/verify');
      if (i <= 5) expect(res.statusCode, res.body).toBe(202);
      else {
        expect(res.statusCode).toBe(429);
        expect(res.json().message).toBe('Too many codes today: try again tomorrow');
      }
    }
    expect(textsTo(agent.phone)).toHaveLength(5);
  });
});
