/**
 * Follow-up messages (docs/domain.md, Follow-up messages and calls): the agent's phone and templates, the first SMS (through the real
 * `twilio` SDK to a stand-in of Twilio's API) and email (to a real SMTP receiver) at assignment,
 * every gate at send time, the provider's signed status and inbound-SMS callbacks (STOP).
 */
import { sql } from 'drizzle-orm';
import twilio from 'twilio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppConfig } from '../src/server/config/env';
import { queryRows } from '../src/server/db/client';
import { sweepDueFollowUps } from '../src/server/modules/follow-ups/follow-ups.service';
import { callingWindow } from '../src/shared/calling-window';
import {
  consentedLead,
  deliverInto,
  PUBLIC_URL,
  servicedAgent,
  uniquePhone,
  zoneWhere,
} from './support/calls-fixtures';
import { SmtpReceiver } from './support/smtp-receiver';
import { loginAdmin, setupTestApp } from './support/test-app';
import { TwilioStandIn } from './support/twilio-stand-in';
import { waitFor } from './support/wait-for';

const standIn = new TwilioStandIn();
/** A real SMTP receiver: every message, parsed back. */
const smtp = new SmtpReceiver();
const inbox = smtp.inbox;
const overrides: Partial<AppConfig> = {
  PUBLIC_URL,
  TWILIO_ACCOUNT_SID: standIn.accountSid,
  TWILIO_AUTH_TOKEN: standIn.authToken,
  TWILIO_FROM_NUMBER: standIn.fromNumber,
};

beforeAll(async () => {
  overrides.TWILIO_API_BASE = await standIn.start();
  overrides.SMTP_URL = await smtp.start();
});

afterAll(async () => {
  await standIn.stop();
  await smtp.stop();
});

const ctx = setupTestApp(overrides, { deliveryQueue: { pollingIntervalSeconds: 0.5 } });
let admin: Awaited<ReturnType<typeof loginAdmin>>;

beforeAll(async () => {
  deliverInto(ctx, standIn);
  admin = await loginAdmin(ctx);
});

interface MessageRow {
  id: number;
  channel: string;
  status: string;
  error: string | null;
  body: string;
  subject: string | null;
  toAddress: string;
  providerId: string | null;
  sendAfter: string | null;
  outbound: boolean;
}

const messagesOf = (leadId: number) =>
  queryRows<MessageRow>(
    ctx.database.db,
    sql`select id::int, channel, status, error, body, subject, to_address as "toAddress",
        provider_id as "providerId", outbound,
        to_char(send_after at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "sendAfter"
      from follow_up_messages where lead_id = ${leadId} order by id`,
  );

/** The lead's messages once none is QUEUED any more. */
const settled = (leadId: number, count: number) =>
  waitFor(`${count} settled messages of lead ${leadId}`, async () => {
    const rows = await messagesOf(leadId);
    return rows.length === count && rows.every((r) => r.status !== 'QUEUED') ? rows : null;
  });

async function assign(leadId: number, agentId: number) {
  const res = await admin.client.post('/api/admin/leads/assign', { leadId, userId: agentId });
  expect(res.statusCode, res.body).toBe(200);
}

async function enableFollowUps(agent: Awaited<ReturnType<typeof servicedAgent>>) {
  const res = await agent.client.put('/api/agent/follow-up', {
    enabled: true,
    sms: 'Hi {firstName}, {agentName} here. Call me at {agentPhone}. Reply STOP to opt out.',
    email: {
      subject: 'Hello {firstName}',
      body: 'Dear {firstName} {lastName},\n{agentName} ({agentPhone})',
    },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

describe('packages offered by a server with Twilio and SMTP', () => {
  it('advertises every service: none is unavailable', async () => {
    const admin = await loginAdmin(ctx);
    const slug = `everything-${process.pid}`;
    const created = await admin.client.post('/api/admin/packages', {
      name: 'Everything',
      slug,
      priceMonthlyCents: 10_000,
      leadsPerDay: 5,
      commissionPct: 10,
      category: 'MEDICARE',
      enrollmentOnly: false,
      services: { crm: true, callRecording: true, followUpMessage: true },
      active: true,
    });
    expect(created.statusCode).toBe(201);
    const offered = (await admin.client.get('/api/packages')).json() as {
      slug: string;
      unavailableServices: string[];
    }[];
    expect(offered.find((p) => p.slug === slug)?.unavailableServices).toEqual([]);
  });
});

describe('agent profile and templates', () => {
  it('keeps the phone as E.164 and refuses what is not a phone, naming the field', async () => {
    const agent = await servicedAgent(ctx, { phone: null });
    expect((await agent.client.get('/api/agent/profile')).json()).toEqual({
      phone: null,
      phoneVerified: false,
    });
    const bad = await agent.client.put('/api/agent/profile', { phone: '12345' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual([{ field: 'phone', message: expect.any(String) }]);
    const ok = await agent.client.put('/api/agent/profile', { phone: '(305) 555-0123' });
    expect(ok.json()).toEqual({ phone: '+13055550123', phoneVerified: false });
    expect((await agent.client.get('/api/agent/services')).json()).toMatchObject({
      phone: '+13055550123',
      phoneVerified: false,
      calls: { available: false, reason: 'Verify your phone number in Services to call leads' },
      followUps: { available: true, reason: null },
    });
  });

  it('refuses unknown placeholders (400, the field) and enabling without the package service (409)', async () => {
    const agent = await servicedAgent(ctx, { followUp: false });
    const defaults = (await agent.client.get('/api/agent/follow-up')).json();
    expect(defaults).toMatchObject({
      enabled: false,
      availability: {
        available: false,
        reason: 'Your package does not include Follow-up Messages',
      },
    });
    expect(defaults.sms).toContain('{firstName}');
    const unknown = await agent.client.put('/api/agent/follow-up', {
      enabled: false,
      sms: 'Hi {firstname}',
      email: { subject: '', body: '' },
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().errors[0]).toMatchObject({ field: 'sms' });
    expect(unknown.json().message).toContain('{firstname}');
    // an SMS to a consumer must say how to stop them
    const noOptOut = await agent.client.put('/api/agent/follow-up', {
      enabled: false,
      sms: 'Hi {firstName} {lastName}, call me back!',
      email: { subject: '', body: '' },
    });
    expect(noOptOut.statusCode).toBe(400);
    expect(noOptOut.json().errors).toEqual([
      { field: 'sms', message: 'Add opt-out wording to the SMS, like "Reply STOP to opt out."' },
    ]);
    const refused = await agent.client.put('/api/agent/follow-up', {
      enabled: true,
      sms: 'Hi {firstName} {lastName}. Reply STOP to opt out.',
      email: { subject: '', body: '' },
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('Your package does not include Follow-up Messages');
    // saving the templates switched off is allowed
    const saved = await agent.client.put('/api/agent/follow-up', {
      enabled: false,
      sms: 'Hi {firstName} {lastName}. Reply STOP to opt out.',
      email: { subject: 'S', body: 'B' },
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({
      enabled: false,
      sms: 'Hi {firstName} {lastName}. Reply STOP to opt out.',
    });
  });
});

describe('the first messages at assignment', () => {
  it('sends the SMS through Twilio and the email over SMTP, filled in, and marks first contact', async () => {
    const agent = await servicedAgent(ctx, { name: 'Dana Agent' });
    await enableFollowUps(agent);
    const lead = await consentedLead(ctx);
    await assign(lead.id, agent.id);
    const rows = await settled(lead.id, 2);
    const sms = rows.find((r) => r.channel === 'SMS')!;
    const email = rows.find((r) => r.channel === 'EMAIL')!;
    expect(sms).toMatchObject({ status: 'SENT', toAddress: lead.phone });
    expect(sms.providerId).toMatch(/^SM/);
    expect(sms.body).toBe(
      'Hi Maria, Dana Agent here. Call me at (305) 555-0123. Reply STOP to opt out.',
    );
    // what Twilio was asked, through the SDK, with the account's credentials
    const asked = standIn.messages.get(sms.providerId!);
    expect(asked).toMatchObject({
      To: lead.phone,
      From: standIn.fromNumber,
      Body: sms.body,
      StatusCallback: `${PUBLIC_URL}/api/telephony/sms/status`,
    });
    expect(email.status).toBe('SENT');
    const mail = await waitFor('the email', async () =>
      inbox.find((m) => m.to.includes(lead.email!)),
    );
    expect(mail.mail.subject).toBe('Hello Maria');
    expect(mail.mail.text).toContain('Dana Agent ((305) 555-0123)');
    expect(mail.mail.text).toContain(`Dear Maria ${lead.lastName}`);
    expect(mail.mail.replyTo?.text).toContain(agent.email);
    const [first] = await queryRows<{ firstContactAt: string | null }>(
      ctx.database.db,
      sql`select first_contact_at as "firstContactAt" from leads where id = ${lead.id}`,
    );
    expect(first?.firstContactAt).not.toBeNull();
    const activity = (await agent.client.get(`/api/agent/leads/${lead.id}/activity`)).json();
    const messages = activity.items.filter((i: { type: string }) => i.type === 'message');
    expect(messages).toHaveLength(2);
    expect(messages).toContainEqual(
      expect.objectContaining({ channel: 'SMS', status: 'SENT', outbound: true, to: lead.phone }),
    );

    // the provider's status callback: DELIVERED; a replay and a late older status change nothing
    const delivered = await standIn.messageStatus(sms.providerId!, 'delivered');
    expect(delivered.status).toBe(204);
    const replay = await standIn.callback(delivered.url, delivered.params);
    expect(replay.status).toBe(204);
    await standIn.messageStatus(sms.providerId!, 'sent');
    await standIn.messageStatus(sms.providerId!, 'failed', '30003');
    const [after] = (await messagesOf(lead.id)).filter((r) => r.channel === 'SMS');
    expect(after).toMatchObject({ status: 'DELIVERED', error: null });
    const timeline = (await agent.client.get(`/api/agent/leads/${lead.id}/activity`)).json();
    expect(timeline.items).toContainEqual(
      expect.objectContaining({ type: 'message', channel: 'SMS', status: 'DELIVERED' }),
    );
  });

  it('records a failed delivery, and refuses a forged status callback with 403', async () => {
    const agent = await servicedAgent(ctx);
    await enableFollowUps(agent);
    const lead = await consentedLead(ctx, { email: null });
    await assign(lead.id, agent.id);
    const [sms] = await settled(lead.id, 1);
    expect(sms!.status).toBe('SENT');
    // the signature Twilio's own validation accepts, and one made with another token
    const url = `${PUBLIC_URL}/api/telephony/sms/status`;
    const params = { MessageSid: sms!.providerId!, MessageStatus: 'delivered' };
    expect(twilio.validateRequest(standIn.authToken, standIn.sign(url, params), url, params)).toBe(
      true,
    );
    const forged = twilio.getExpectedTwilioSignature('not-the-token', url, params);
    const refused = await standIn.callback(url, params, forged);
    expect(refused.status).toBe(403);
    const unsigned = await ctx.app.inject({
      method: 'POST',
      url: '/api/telephony/sms/status',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(params).toString(),
    });
    expect(unsigned.statusCode).toBe(403);
    expect((await messagesOf(lead.id))[0]!.status).toBe('SENT');
    const failed = await standIn.messageStatus(sms!.providerId!, 'undelivered', '30005');
    expect(failed.status).toBe(204);
    expect((await messagesOf(lead.id))[0]).toMatchObject({
      status: 'FAILED',
      error: 'The provider reported undelivered (error 30005)',
    });
  });

  it('records a message the provider refuses as FAILED', async () => {
    const agent = await servicedAgent(ctx);
    await enableFollowUps(agent);
    const lead = await consentedLead(ctx, { email: null });
    standIn.refuseNext = { status: 400, code: 21211, message: "The 'To' number is not valid" };
    await assign(lead.id, agent.id);
    const [sms] = await settled(lead.id, 1);
    expect(sms).toMatchObject({ status: 'FAILED', providerId: null });
    expect(sms!.error).toContain("The 'To' number is not valid");
  });
});

describe('the gates at send time', () => {
  it.each([
    ['no consent recorded', { consentAt: null }, 'No consent recorded'],
    ['the lead opted out', { optedOutAt: new Date() }, 'Lead opted out'],
  ])('holds the messages back when %s', async (_what, overrides, reason) => {
    const agent = await servicedAgent(ctx);
    await enableFollowUps(agent);
    const lead = await consentedLead(ctx, overrides);
    await assign(lead.id, agent.id);
    const rows = await settled(lead.id, 2);
    for (const row of rows) expect(row).toMatchObject({ status: 'BLOCKED', error: reason });
    const activity = (await agent.client.get(`/api/agent/leads/${lead.id}/activity`)).json();
    expect(activity.items).toContainEqual(
      expect.objectContaining({ type: 'message', status: 'BLOCKED', error: reason }),
    );
  });

  it('holds the messages back when the number is on the do-not-call list', async () => {
    const agent = await servicedAgent(ctx);
    await enableFollowUps(agent);
    const phone = uniquePhone();
    const lead = await consentedLead(ctx, { phone });
    await ctx.database.db.execute(sql`insert into dnc_numbers (phone) values (${phone})`);
    const sent = standIn.messages.size;
    await assign(lead.id, agent.id);
    const rows = await settled(lead.id, 2);
    for (const row of rows)
      expect(row).toMatchObject({ status: 'BLOCKED', error: 'Number on the do-not-call list' });
    expect(standIn.messages.size).toBe(sent);
  });

  it('holds them back when the package has no Follow-up Messages', async () => {
    const agent = await servicedAgent(ctx, { followUp: false });
    // switched on while the package had it; the package changed since
    await ctx.database.db.execute(sql`insert into follow_up_settings
      (user_id, enabled, sms_body, email_subject, email_body)
      values (${agent.id}, true, 'Hi {firstName}', 'S', 'B')`);
    const lead = await consentedLead(ctx);
    await assign(lead.id, agent.id);
    const rows = await settled(lead.id, 2);
    for (const row of rows)
      expect(row).toMatchObject({ status: 'BLOCKED', error: 'Package without Follow-up Messages' });
  });

  it('waits outside the lead’s calling window, with a job for the window’s opening', async () => {
    const agent = await servicedAgent(ctx);
    await enableFollowUps(agent);
    const zone = zoneWhere(false);
    const lead = await consentedLead(ctx, { timeZone: zone });
    const sent = standIn.messages.size;
    await assign(lead.id, agent.id);
    const rows = await settled(lead.id, 2);
    const opensAt = callingWindow(zone, 'TX').opensAt;
    for (const row of rows) expect(row).toMatchObject({ status: 'WAITING', sendAfter: opensAt });
    expect(standIn.messages.size).toBe(sent);
    const jobs = await queryRows<{ startAfter: string }>(
      ctx.database.db,
      sql`select to_char(start_after at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
          as "startAfter"
        from pgboss.job where name = 'lead-follow-up' and state = 'created'
          and (data->>'messageId')::bigint = ${rows[0]!.id}`,
    );
    expect(jobs).toEqual([{ startAfter: opensAt }]);
    const activity = (await agent.client.get(`/api/agent/leads/${lead.id}/activity`)).json();
    expect(activity.items).toContainEqual(
      expect.objectContaining({ type: 'message', status: 'WAITING', sendAfter: opensAt }),
    );
  });

  it('sends nothing for an agent whose follow-ups are off', async () => {
    const agent = await servicedAgent(ctx);
    const lead = await consentedLead(ctx);
    await assign(lead.id, agent.id);
    await new Promise((r) => setTimeout(r, 300));
    expect(await messagesOf(lead.id)).toEqual([]);
  });
});

describe('the sweeper', () => {
  it('sends a due message left without a job, and fails one a dead worker left claimed', async () => {
    const agent = await servicedAgent(ctx);
    const lead = await consentedLead(ctx, { email: null });
    await ctx.database.db.execute(sql`update leads set agent_id = ${agent.id}, status = 'ASSIGNED'
      where id = ${lead.id}`);
    const insert = (claim: string | null) =>
      queryRows<{ id: number }>(
        ctx.database.db,
        sql`insert into follow_up_messages
            (lead_id, agent_id, channel, status, to_address, body, provider_id, created_at,
             updated_at)
          values (${lead.id}, ${agent.id}, 'SMS', 'QUEUED', ${lead.phone}, 'Hi {firstName}',
            ${claim}, now() - interval '15 minutes', now() - interval '15 minutes')
          returning id::int`,
      );
    // one per (lead, channel, agent): the orphan first, the claimed one on another lead
    const [orphan] = await insert(null);
    const other = await consentedLead(ctx, { email: null });
    await ctx.database.db.execute(sql`update leads set agent_id = ${agent.id}, status = 'ASSIGNED'
      where id = ${other.id}`);
    const [claimed] = await queryRows<{ id: number }>(
      ctx.database.db,
      sql`insert into follow_up_messages
          (lead_id, agent_id, channel, status, to_address, body, provider_id, updated_at)
        values (${other.id}, ${agent.id}, 'SMS', 'QUEUED', ${other.phone}, 'Hi',
          'claim:dead-worker', now() - interval '11 minutes')
        returning id::int`,
    );
    await sweepDueFollowUps(ctx.database.db, ctx.app.leadPorts.followUp);
    const rows = await queryRows<{
      id: number;
      status: string;
      error: string | null;
      body: string;
    }>(
      ctx.database.db,
      sql`select id::int, status, error, body from follow_up_messages
        where id in (${orphan!.id}, ${claimed!.id}) order by id`,
    );
    expect(rows).toEqual([
      { id: orphan!.id, status: 'SENT', error: null, body: 'Hi Maria' },
      {
        id: claimed!.id,
        status: 'FAILED',
        error: 'The send was interrupted; not tried again to avoid a duplicate',
        body: 'Hi',
      },
    ]);
  });
});

describe('inbound SMS', () => {
  it('STOP opts every lead with that number out for good, once, and answers TwiML', async () => {
    const agent = await servicedAgent(ctx);
    await enableFollowUps(agent);
    const phone = uniquePhone();
    const first = await consentedLead(ctx, { phone, email: null });
    await assign(first.id, agent.id);
    await settled(first.id, 1);
    const second = await consentedLead(ctx, { phone, email: null });
    const stop = await standIn.inboundSms(
      `${PUBLIC_URL}/api/telephony/sms/inbound`,
      phone,
      ' stop ',
    );
    expect(stop.status).toBe(200);
    expect(stop.body).toContain('<Response/>');
    const replay = await standIn.callback(stop.url, stop.params);
    expect(replay.status).toBe(200);
    const leads = await queryRows<{ id: number; optedOut: boolean }>(
      ctx.database.db,
      sql`select id::int, opted_out_at is not null as "optedOut" from leads
        where id in (${first.id}, ${second.id}) order by id`,
    );
    expect(leads.map((l) => l.optedOut)).toEqual([true, true]);
    const history = await queryRows<{ leadId: number }>(
      ctx.database.db,
      sql`select lead_id::int as "leadId" from lead_history
        where kind = 'OPTED_OUT' and lead_id in (${first.id}, ${second.id})`,
    );
    expect(history).toHaveLength(2);
    const received = (await messagesOf(first.id)).filter((m) => !m.outbound);
    expect(received).toEqual([
      expect.objectContaining({ status: 'RECEIVED', body: ' stop ', toAddress: phone }),
    ]);
    const timeline = (await agent.client.get(`/api/agent/leads/${first.id}/activity`)).json();
    expect(timeline.items).toContainEqual(
      expect.objectContaining({ type: 'status', kind: 'OPTED_OUT' }),
    );
    // the second lead, assigned after its STOP: held back
    await assign(second.id, agent.id);
    const rows = await waitFor('the blocked SMS', async () => {
      const got = (await messagesOf(second.id)).filter((m) => m.outbound);
      return got.length === 1 && got[0]!.status !== 'QUEUED' ? got : null;
    });
    expect(rows[0]).toMatchObject({ status: 'BLOCKED', error: 'Lead opted out' });
  });

  it('records another reply without opting out; a forged one gets 403 and records nothing', async () => {
    const phone = uniquePhone();
    const lead = await consentedLead(ctx, { phone });
    const url = `${PUBLIC_URL}/api/telephony/sms/inbound`;
    const forged = await standIn.callback(
      url,
      { MessageSid: 'SMforged', From: phone, Body: 'STOP' },
      'bm90LWEtc2lnbmF0dXJl',
    );
    expect(forged.status).toBe(403);
    expect(await messagesOf(lead.id)).toEqual([]);
    const reply = await standIn.inboundSms(url, phone, 'Call me tomorrow please');
    expect(reply.status).toBe(200);
    const [row] = await queryRows<{ optedOut: boolean }>(
      ctx.database.db,
      sql`select opted_out_at is not null as "optedOut" from leads where id = ${lead.id}`,
    );
    expect(row?.optedOut).toBe(false);
    expect(await messagesOf(lead.id)).toEqual([
      expect.objectContaining({ status: 'RECEIVED', body: 'Call me tomorrow please' }),
    ]);
  });
});

describe('admins', () => {
  it('see the volumes and failures, and SMS and voice in the health check', async () => {
    const stats = await admin.client.get('/api/admin/follow-ups');
    expect(stats.statusCode).toBe(200);
    const body = stats.json();
    expect(body.sms).toMatch(/OPERATIONAL|FAILING/);
    expect(body.email).toBe('OPERATIONAL');
    expect(body.last24h.sent).toBeGreaterThanOrEqual(2);
    expect(body.last24h.delivered).toBeGreaterThanOrEqual(1);
    expect(body.last24h.failed).toBeGreaterThanOrEqual(2);
    expect(body.last24h.waiting).toBeGreaterThanOrEqual(2);
    const reasons = Object.fromEntries(
      body.last24h.blocked.map((b: { reason: string; count: number }) => [b.reason, b.count]),
    );
    expect(reasons['No consent recorded']).toBeGreaterThanOrEqual(2);
    expect(reasons['Number on the do-not-call list']).toBeGreaterThanOrEqual(2);
    expect(body.last7d.sent).toBeGreaterThanOrEqual(body.last24h.sent);
    const health = (await ctx.app.inject({ method: 'GET', url: '/api/health' })).json();
    expect(health.channels).toMatchObject({ voice: 'OPERATIONAL' });
    expect(['OPERATIONAL', 'FAILING']).toContain(health.channels.sms);
  });
});
