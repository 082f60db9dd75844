/**
 * Click-to-call with recording (docs/domain.md, Follow-up messages and calls), through the real `twilio` SDK to a stand-in of
 * Twilio's API: the call rings the agent, the connect TwiML announces the recording and bridges
 * to the lead with recording on, the signed callbacks fill the call log, the first connected call
 * moves an ASSIGNED lead to CONTACTED, and the recording streams to the lead's agent and admins.
 */
import { sql } from 'drizzle-orm';
import twilio from 'twilio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppConfig } from '../src/server/config/env';
import { queryRows } from '../src/server/db/client';
import { startCall } from '../src/server/modules/calls/calls.service';
import { callingWindow } from '../src/shared/calling-window';
import { createPackage, subscribe } from './support/admin-fixtures';
import {
  consentedLead,
  deliverInto,
  PUBLIC_URL,
  servicedAgent,
  uniquePhone,
  verifyPhone,
  zoneWhere,
} from './support/calls-fixtures';
import { Client, loginAdmin, registerAgent, setupTestApp } from './support/test-app';
import { TwilioStandIn, toneWav } from './support/twilio-stand-in';

const standIn = new TwilioStandIn();
const overrides: Partial<AppConfig> = {
  PUBLIC_URL,
  TWILIO_ACCOUNT_SID: standIn.accountSid,
  TWILIO_AUTH_TOKEN: standIn.authToken,
  TWILIO_FROM_NUMBER: standIn.fromNumber,
  CALLS_PER_AGENT_PER_HOUR: 4,
  CALLS_PER_LEAD_PER_DAY: 3,
  RECORDINGS_PER_USER_PER_MINUTE: 6,
};

beforeAll(async () => {
  overrides.TWILIO_API_BASE = await standIn.start();
});
afterAll(() => standIn.stop());

const ctx = setupTestApp(overrides, { deliveryQueue: { enabled: false } });
let admin: Awaited<ReturnType<typeof loginAdmin>>;
beforeAll(async () => {
  deliverInto(ctx, standIn);
  admin = await loginAdmin(ctx);
});

/** A lead of the agent, ASSIGNED, callable now unless said. */
async function leadOf(agentId: number, overrides: Parameters<typeof consentedLead>[1] = {}) {
  return consentedLead(ctx, {
    agentId,
    status: 'ASSIGNED',
    assignedAt: new Date(),
    assignedOn: new Date().toISOString().slice(0, 10),
    ...overrides,
  });
}

const callRow = async (id: number) =>
  (
    await queryRows<{ providerSid: string; status: string; recordingSid: string | null }>(
      ctx.database.db,
      sql`select provider_sid as "providerSid", status, recording_sid as "recordingSid"
        from calls where id = ${id}`,
    )
  )[0]!;

const leadState = async (id: number) =>
  (
    await queryRows<{ status: string; firstContact: boolean; changes: number }>(
      ctx.database.db,
      sql`select l.status, l.first_contact_at is not null as "firstContact",
          (select count(*)::int from lead_history h
            where h.lead_id = l.id and h.kind = 'STATUS_CHANGED') as changes
        from leads l where l.id = ${id}`,
    )
  )[0]!;

describe('click-to-call', () => {
  it('rings the agent, announces the recording, bridges to the lead, and fills the call log', async () => {
    const agent = await servicedAgent(ctx, { verifyWith: standIn, phone: '(305) 555-0123' });
    const lead = await leadOf(agent.id);
    const res = await agent.client.post(`/api/agent/leads/${lead.id}/call`);
    expect(res.statusCode, res.body).toBe(201);
    const call = res.json();
    expect(call).toMatchObject({ status: 'QUEUED', connectedAt: null, recordingUrl: null });
    const { providerSid } = await callRow(call.id);
    // what the SDK asked the provider: ring the agent, from our number, TwiML and callbacks here
    expect(standIn.calls.get(providerSid)).toMatchObject({
      To: '+13055550123',
      From: standIn.fromNumber,
      Url: `${PUBLIC_URL}/api/telephony/voice/${call.id}/connect`,
      Method: 'POST',
      StatusCallback: `${PUBLIC_URL}/api/telephony/voice/status`,
    });
    const asked = standIn.requests.find((r) => r.params.Url?.endsWith(`/${call.id}/connect`));
    expect(asked?.path).toBe(`/2010-04-01/Accounts/${standIn.accountSid}/Calls.json`);
    expect(asked?.events).toEqual(['initiated', 'ringing', 'answered', 'completed']);

    const played = await standIn.playCall(providerSid, { seconds: 42 });
    expect(played.say).toBe('This call is recorded.');
    expect(played.dial).toMatchObject({
      record: 'record-from-answer-dual',
      callerId: standIn.fromNumber,
      recordingStatusCallback: `${PUBLIC_URL}/api/telephony/voice/recording?callId=${call.id}`,
      action: `${PUBLIC_URL}/api/telephony/voice/${call.id}/dialed`,
    });
    expect(played.number).toBe(lead.phone);
    expect(played.twiml.indexOf('<Say')).toBeLessThan(played.twiml.indexOf('<Dial'));
    // every callback was signed as Twilio signs, and accepted
    for (const cb of standIn.callbacks.slice(-8)) expect(cb.status, cb.url).toBeLessThan(300);

    const log = (await agent.client.get(`/api/agent/leads/${lead.id}/calls`)).json();
    expect(log.items).toEqual([
      expect.objectContaining({
        id: call.id,
        status: 'COMPLETED',
        durationSeconds: 42,
        connectedAt: expect.any(String),
        recordingSeconds: 42,
        recordingUrl: `/api/recordings/${call.id}`,
      }),
    ]);
    expect(await leadState(lead.id)).toEqual({
      status: 'CONTACTED',
      firstContact: true,
      changes: 1,
    });
    const activity = (await agent.client.get(`/api/agent/leads/${lead.id}/activity`)).json();
    expect(activity.items).toContainEqual(
      expect.objectContaining({
        type: 'call',
        status: 'COMPLETED',
        durationSeconds: 42,
        recording: true,
      }),
    );
    expect(activity.items).toContainEqual(
      expect.objectContaining({ type: 'status', fromStatus: 'ASSIGNED', toStatus: 'CONTACTED' }),
    );

    // the recording: streamed with the account's credentials, to the lead's agent and admins only
    const wav = toneWav(1);
    const mine = await agent.client.get(`/api/recordings/${call.id}`);
    expect(mine.statusCode).toBe(200);
    expect(mine.headers['content-type']).toMatch(/^audio\//);
    expect(mine.headers['cache-control']).toContain('no-store');
    expect(mine.rawPayload.equals(wav)).toBe(true);
    const media = standIn.requests.filter((r) => r.path.includes('/Recordings/'));
    expect(media.at(-1)?.path).toBe(
      `/2010-04-01/Accounts/${standIn.accountSid}/Recordings/${played.recordingSid}.wav`,
    );
    const part = await agent.client.request('GET', `/api/recordings/${call.id}`, undefined, {
      range: 'bytes=0-99',
    });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 0-99/${wav.length}`);
    expect(part.rawPayload.equals(wav.subarray(0, 100))).toBe(true);
    expect((await admin.client.get(`/api/recordings/${call.id}`)).statusCode).toBe(200);
    const other = await registerAgent(ctx.app, 'Other Agent');
    const refused = await other.client.get(`/api/recordings/${call.id}`);
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toEqual({ message: 'Recording not found' });
    expect((await new Client(ctx.app).get(`/api/recordings/${call.id}`)).statusCode).toBe(401);
    expect((await other.client.get(`/api/agent/leads/${lead.id}/calls`)).statusCode).toBe(404);
    expect((await other.client.post(`/api/agent/leads/${lead.id}/call`)).statusCode).toBe(404);
  });

  it('takes replayed callbacks harmlessly and refuses forged ones with 403', async () => {
    const agent = await servicedAgent(ctx, { verifyWith: standIn });
    const lead = await leadOf(agent.id);
    const call = (await agent.client.post(`/api/agent/leads/${lead.id}/call`)).json();
    const { providerSid } = await callRow(call.id);
    const before = standIn.callbacks.length;
    await standIn.playCall(providerSid, { seconds: 30 });
    const sent = standIn.callbacks.slice(before);
    // the provider may send any of them again: nothing changes
    for (const cb of sent) {
      const again = await standIn.callback(cb.url, cb.params);
      expect(again.status).toBeLessThan(300);
      // the bridge is served once: a replayed connect hangs up, without the lead's number
      if (cb.url.endsWith('/connect')) {
        expect(again.body).toContain('<Hangup');
        expect(again.body).not.toContain('<Dial');
        expect(again.body).not.toContain(lead.phone ?? '');
      }
    }
    const log = (await agent.client.get(`/api/agent/leads/${lead.id}/calls`)).json();
    expect(log.items[0]).toMatchObject({ status: 'COMPLETED', durationSeconds: 30 });
    expect((await leadState(lead.id)).changes).toBe(1);

    // a wrong signature, or none: 403 and nothing recorded
    const dialed = sent.find((cb) => cb.url.endsWith('/dialed'))!;
    const url = `${PUBLIC_URL}/api/telephony/voice/status`;
    const params = { CallSid: providerSid, CallStatus: 'failed' };
    expect(twilio.validateRequest(standIn.authToken, standIn.sign(url, params), url, params)).toBe(
      true,
    );
    const forged = twilio.getExpectedTwilioSignature('another-token', url, params);
    expect((await standIn.callback(url, params, forged)).status).toBe(403);
    expect(
      (await standIn.callback(dialed.url, { ...dialed.params, DialCallDuration: '999' }, forged))
        .status,
    ).toBe(403);
    // signed for other params than those sent
    const tampered = standIn.sign(url, params);
    expect(
      (await standIn.callback(url, { ...params, CallStatus: 'completed' }, tampered)).status,
    ).toBe(403);
    const connect = await standIn.callback(
      `${PUBLIC_URL}/api/telephony/voice/${call.id}/connect`,
      { CallSid: providerSid },
      forged,
    );
    expect(connect.status).toBe(403);
    expect(connect.body).not.toContain('<Dial');
    expect(
      (await agent.client.get(`/api/agent/leads/${lead.id}/calls`)).json().items[0],
    ).toMatchObject({ status: 'COMPLETED', durationSeconds: 30 });
  });

  it('logs an unanswered call; the lead stays ASSIGNED and no recording is kept', async () => {
    const agent = await servicedAgent(ctx, { verifyWith: standIn });
    const lead = await leadOf(agent.id);
    const call = (await agent.client.post(`/api/agent/leads/${lead.id}/call`)).json();
    const { providerSid } = await callRow(call.id);
    await standIn.playCall(providerSid, { leadAnswers: false });
    const [entry] = (await agent.client.get(`/api/agent/leads/${lead.id}/calls`)).json().items;
    expect(entry).toMatchObject({ status: 'NO_ANSWER', connectedAt: null, recordingUrl: null });
    expect(await leadState(lead.id)).toMatchObject({ status: 'ASSIGNED', changes: 0 });
    expect((await agent.client.get(`/api/recordings/${call.id}`)).statusCode).toBe(404);
  });

  it('a later connected call on a CONTACTED lead changes no status', async () => {
    const agent = await servicedAgent(ctx, { verifyWith: standIn });
    const lead = await leadOf(agent.id, { status: 'IN_PROGRESS' });
    const call = (await agent.client.post(`/api/agent/leads/${lead.id}/call`)).json();
    await standIn.playCall((await callRow(call.id)).providerSid);
    expect(await leadState(lead.id)).toMatchObject({ status: 'IN_PROGRESS', changes: 0 });
  });
});

describe('when a call cannot go (409, and why)', () => {
  it('outside the lead’s calling window: says when it opens', async () => {
    const agent = await servicedAgent(ctx, { verifyWith: standIn });
    const zone = zoneWhere(false);
    const lead = await leadOf(agent.id, { timeZone: zone });
    const calls = standIn.calls.size;
    const res = await agent.client.post(`/api/agent/leads/${lead.id}/call`);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(`Not callable now. ${callingWindow(zone, 'TX').label}.`);
    expect(res.json().message).toMatch(/Call (tomorrow )?after 8 AM/);
    expect(standIn.calls.size).toBe(calls);
  });

  it('a Florida lead at 8:30 PM local: Florida closes at 8 PM (the service at a given time)', async () => {
    const agent = await servicedAgent(ctx, { verifyWith: standIn });
    const lead = await leadOf(agent.id, { state: 'FL', timeZone: 'America/New_York' });
    // 8:30 PM EST on 2026-11-24 is 01:30 UTC on the 25th; 7:30 PM is callable
    const refused = startCall(
      ctx.database.db,
      ctx.app.config,
      agent.id,
      lead.id,
      new Date('2026-11-25T01:30:00Z'),
    );
    await expect(refused).rejects.toMatchObject({
      status: 409,
      message: 'Not callable now. Call tomorrow after 8 AM ET.',
    });
    const placed = await startCall(
      ctx.database.db,
      ctx.app.config,
      agent.id,
      lead.id,
      new Date('2026-11-25T00:30:00Z'),
    );
    expect(placed.status).toBe('QUEUED');
  });

  it('a number on the do-not-call list', async () => {
    const agent = await servicedAgent(ctx, { verifyWith: standIn });
    const phone = uniquePhone();
    const lead = await leadOf(agent.id, { phone });
    await ctx.database.db.execute(sql`insert into dnc_numbers (phone) values (${phone})`);
    const res = await agent.client.post(`/api/agent/leads/${lead.id}/call`);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe("This lead's number is on the do-not-call list");
  });

  it('an agent without a phone, and a package without Call Recording', async () => {
    const noPhone = await servicedAgent(ctx, { verifyWith: standIn, phone: null });
    const lead = await leadOf(noPhone.id);
    const res = await noPhone.client.post(`/api/agent/leads/${lead.id}/call`);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('Add your phone number in Services to call leads');
    expect((await noPhone.client.get('/api/agent/services')).json().calls).toEqual({
      available: false,
      reason: 'Add your phone number in Services to call leads',
    });

    const noService = await servicedAgent(ctx, { verifyWith: standIn, callRecording: false });
    const other = await leadOf(noService.id);
    const refused = await noService.client.post(`/api/agent/leads/${other.id}/call`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('Your package does not include Call Recording');

    // an agent with no package at all
    const bare = await registerAgent(ctx.app, 'No Package');
    await bare.client.put('/api/agent/profile', { phone: '+13055550199' });
    await verifyPhone(bare.client, standIn);
    const third = await leadOf(bare.id);
    expect((await bare.client.post(`/api/agent/leads/${third.id}/call`)).statusCode).toBe(409);
    // a package with it
    const pkg = await createPackage(ctx, { serviceCallRecording: true });
    await subscribe(ctx, bare.id, pkg.id);
    expect((await bare.client.post(`/api/agent/leads/${third.id}/call`)).statusCode).toBe(201);
  });

  it('the provider refusing the call: 503, logged as FAILED', async () => {
    const agent = await servicedAgent(ctx, { verifyWith: standIn });
    const lead = await leadOf(agent.id);
    standIn.refuseNext = { status: 400, code: 21215, message: 'Geographic permission' };
    const res = await agent.client.post(`/api/agent/leads/${lead.id}/call`);
    expect(res.statusCode).toBe(503);
    expect(res.json().message).toBe('The phone provider could not place the call');
    const [entry] = (await agent.client.get(`/api/agent/leads/${lead.id}/calls`)).json().items;
    expect(entry.status).toBe('FAILED');
    expect(entry.error).toContain('Geographic permission');
  });
});

describe("the agent's phone: only lines of the served countries, verified by a code", () => {
  it('refuses premium-rate, toll-free and foreign numbers, naming the field; a Puerto Rico line is fine', async () => {
    const agent = await servicedAgent(ctx, { phone: null });
    for (const phone of [
      '+19005551234',
      '+18005551234',
      '+979123456789',
      '+447911123456',
      '+14165551234',
    ]) {
      const res = await agent.client.put('/api/agent/profile', { phone });
      expect(res.statusCode, phone).toBe(400);
      expect(res.json().errors).toEqual([{ field: 'phone', message: expect.any(String) }]);
    }
    const pr = await agent.client.put('/api/agent/profile', { phone: '+17875551234' });
    expect(pr.json()).toEqual({ phone: '+17875551234', phoneVerified: false });
  });

  it('a code by SMS proves the number: wrong codes spend tries, a used or old code is refused, a new number needs a new code', async () => {
    const agent = await servicedAgent(ctx);
    const lead = await leadOf(agent.id);
    const call = await agent.client.post(`/api/agent/leads/${lead.id}/call`);
    expect(call.statusCode).toBe(409);
    expect(call.json().message).toBe('Verify your phone number in Services to call leads');

    const confirm = (code: string) =>
      agent.client.post('/api/agent/profile/phone/confirm', { code });
    expect((await confirm('123456')).json().message).toBe('Ask for a code first');
    const sent = await agent.client.post('/api/agent/profile/phone/verify');
    expect(sent.statusCode, sent.body).toBe(202);
    expect(sent.json()).toMatchObject({ phone: '+13055550123', expiresAt: expect.any(String) });
    const sms = [...standIn.messages.values()].at(-1);
    expect(sms).toMatchObject({ To: '+13055550123', From: standIn.fromNumber });
    const code = sms?.Body?.match(/code is (\d{6})/)?.[1] as string;
    // a second code within the minute: 429
    const again = await agent.client.post('/api/agent/profile/phone/verify');
    expect(again.statusCode).toBe(429);
    expect(Number(again.headers['retry-after'])).toBeGreaterThan(0);
    // five wrong codes, then even the right one is refused
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) {
      const res = await confirm(wrong);
      expect(res.statusCode).toBe(400);
      expect(res.json().errors).toEqual([{ field: 'code', message: 'That code is not right' }]);
    }
    expect((await confirm(code)).statusCode).toBe(429);
    expect((await agent.client.get('/api/agent/profile')).json().phoneVerified).toBe(false);

    // a code past its 10 minutes is refused too
    await ctx.database.db.execute(
      sql`update phone_codes set created_at = now() - interval '11 minutes',
                                 expires_at = now() - interval '1 minute'
           where user_id = ${agent.id}`,
    );
    await verifyPhoneSent(agent.client);
    await ctx.database.db.execute(
      sql`update phone_codes set expires_at = now() - interval '1 second'
           where id = (select max(id) from phone_codes where user_id = ${agent.id})`,
    );
    expect((await confirm(lastCode())).json().message).toBe(
      'This code has expired: ask for a new one',
    );

    // the right code, in time: verified, once; the call goes
    await ctx.database.db.execute(
      sql`update phone_codes set created_at = now() - interval '2 minutes' where user_id = ${agent.id}`,
    );
    await verifyPhoneSent(agent.client);
    const right = lastCode();
    const ok = await confirm(right);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toEqual({ phone: '+13055550123', phoneVerified: true });
    expect((await confirm(right)).json().message).toBe('Ask for a code first');
    expect((await agent.client.post(`/api/agent/leads/${lead.id}/call`)).statusCode).toBe(201);

    // another number is not verified
    await agent.client.put('/api/agent/profile', { phone: '+13055550124' });
    expect((await agent.client.get('/api/agent/services')).json()).toMatchObject({
      phoneVerified: false,
      calls: { available: false, reason: 'Verify your phone number in Services to call leads' },
    });
  });
});

async function verifyPhoneSent(client: Client) {
  const res = await client.post('/api/agent/profile/phone/verify');
  expect(res.statusCode, res.body).toBe(202);
}

function lastCode(): string {
  return [...standIn.messages.values()].at(-1)?.Body?.match(/code is (\d{6})/)?.[1] as string;
}

describe('limits on calls (429 with Retry-After)', () => {
  it('places one of 20 calls asked for at once, then at most 3 a lead a day and 4 an agent an hour', async () => {
    const agent = await servicedAgent(ctx, { verifyWith: standIn });
    const lead = await leadOf(agent.id);
    const burst = await Promise.all(
      Array.from({ length: 20 }, () => agent.client.post(`/api/agent/leads/${lead.id}/call`)),
    );
    const placed = burst.filter((r) => r.statusCode === 201);
    const refused = burst.filter((r) => r.statusCode === 429);
    expect(placed).toHaveLength(1);
    expect(refused).toHaveLength(19);
    expect(refused[0]?.json().message).toBe('A call to this lead is already in progress');
    expect(refused[0]?.headers['retry-after']).toBe('30');
    // another lead while the call is live: the agent has one call in flight at most
    const second = await leadOf(agent.id);
    const busy = await agent.client.post(`/api/agent/leads/${second.id}/call`);
    expect(busy.statusCode).toBe(429);
    expect(busy.json().message).toBe('Another of your calls is still in progress');

    const finish = async (id: number) =>
      standIn.playCall((await callRow(id)).providerSid, { leadAnswers: false });
    await finish(placed[0]?.json().id);
    for (let i = 0; i < 2; i++) {
      const res = await agent.client.post(`/api/agent/leads/${lead.id}/call`);
      expect(res.statusCode, res.body).toBe(201);
      await finish(res.json().id);
    }
    const fourth = await agent.client.post(`/api/agent/leads/${lead.id}/call`);
    expect(fourth.statusCode).toBe(429);
    expect(fourth.json().message).toBe(
      'This lead was called 3 times in the last 24 hours: try again later',
    );
    expect(Number(fourth.headers['retry-after'])).toBeGreaterThan(23 * 3600);

    const other = await agent.client.post(`/api/agent/leads/${second.id}/call`);
    expect(other.statusCode).toBe(201);
    await finish(other.json().id);
    const fifth = await agent.client.post(`/api/agent/leads/${second.id}/call`);
    expect(fifth.statusCode).toBe(429);
    expect(fifth.json().message).toBe('You placed 4 calls in the last hour: try again later');
    const wait = Number(fifth.headers['retry-after']);
    expect(wait).toBeGreaterThan(3000);
    expect(wait).toBeLessThanOrEqual(3600);
    // only the calls placed reached the provider
    const rung = [...standIn.calls.values()].filter((c) =>
      c.Url?.includes('/api/telephony/voice/'),
    );
    const mine = await queryRows<{ n: number }>(
      ctx.database.db,
      sql`select count(*)::int as n from calls where agent_id = ${agent.id}`,
    );
    expect(mine[0]?.n).toBe(4);
    expect(rung.length).toBeGreaterThanOrEqual(4);
  });

  it('streams recordings at most 6 a minute to one user (shared by every process: counted in the database)', async () => {
    const agent = await servicedAgent(ctx, { verifyWith: standIn });
    const lead = await leadOf(agent.id);
    const call = (await agent.client.post(`/api/agent/leads/${lead.id}/call`)).json();
    await standIn.playCall((await callRow(call.id)).providerSid, { seconds: 5 });
    const answers: number[] = [];
    let limited: { headers: Record<string, unknown>; body: string } | null = null;
    // a window boundary may fall inside the loop: 13 asks cross at most two windows of 6
    for (let i = 0; i < 13; i++) {
      const res = await agent.client.get(`/api/recordings/${call.id}`);
      answers.push(res.statusCode);
      if (res.statusCode === 429) limited ??= res;
    }
    expect(answers.filter((s) => s === 200).length).toBeLessThanOrEqual(12);
    expect(limited).not.toBeNull();
    const wait = Number(limited?.headers['retry-after']);
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(60);
  });
});
