/**
 * "Not configured" is a state of its own (docs/domain.md, Follow-up messages and calls): without Twilio's settings and SMTP_URL,
 * /api/health says NOT_CONFIGURED for SMS and voice, the agent's screens say why the services
 * are off, a call is refused with 409, nothing is queued at assignment, and the provider's
 * callbacks answer 404.
 */
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../src/server/db/client';
import { consentedLead, servicedAgent } from './support/calls-fixtures';
import { loginAdmin, setupTestApp } from './support/test-app';

const ctx = setupTestApp({}, { deliveryQueue: { pollingIntervalSeconds: 0.5 } });

describe('without Twilio and SMTP', () => {
  it('says not configured everywhere, refuses calls, and queues nothing', async () => {
    const health = (await ctx.app.inject({ method: 'GET', url: '/api/health' })).json();
    expect(health.channels).toMatchObject({ sms: 'NOT_CONFIGURED', voice: 'NOT_CONFIGURED' });

    const agent = await servicedAgent(ctx);
    expect((await agent.client.get('/api/agent/services')).json()).toEqual({
      phone: '+13055550123',
      phoneVerified: false,
      calls: { available: false, reason: 'Calling is not configured on this server' },
      followUps: {
        available: false,
        reason: 'Follow-up messages are not configured on this server',
      },
    });
    // nor can a phone be verified without text messages
    const verify = await agent.client.post('/api/agent/profile/phone/verify');
    expect(verify.statusCode).toBe(409);
    expect(verify.json().message).toBe('Text messages are not configured on this server');
    const enable = await agent.client.put('/api/agent/follow-up', {
      enabled: true,
      sms: 'Hi {firstName}. Reply STOP to opt out.',
      email: { subject: 'S', body: 'B' },
    });
    expect(enable.statusCode).toBe(409);
    expect(enable.json().message).toBe('Follow-up messages are not configured on this server');

    // switched on while it was configured: still nothing is queued now
    await ctx.database.db.execute(sql`insert into follow_up_settings
      (user_id, enabled, sms_body, email_subject, email_body)
      values (${agent.id}, true, 'Hi {firstName}', 'S', 'B')`);
    const lead = await consentedLead(ctx);
    const admin = await loginAdmin(ctx);
    const assigned = await admin.client.post('/api/admin/leads/assign', {
      leadId: lead.id,
      userId: agent.id,
    });
    expect(assigned.statusCode, assigned.body).toBe(200);
    await new Promise((r) => setTimeout(r, 500));
    const rows = await queryRows<{ n: number }>(
      ctx.database.db,
      sql`select count(*)::int as n from follow_up_messages where lead_id = ${lead.id}`,
    );
    expect(rows[0]?.n).toBe(0);
    const jobs = await queryRows<{ n: number }>(
      ctx.database.db,
      sql`select count(*)::int as n from pgboss.job where name = 'lead-follow-up'`,
    );
    expect(jobs[0]?.n).toBe(0);

    const call = await agent.client.post(`/api/agent/leads/${lead.id}/call`);
    expect(call.statusCode).toBe(409);
    expect(call.json().message).toBe('Calling is not configured on this server');

    const inbound = await ctx.app.inject({
      method: 'POST',
      url: '/api/telephony/sms/inbound',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': 'x' },
      payload: `From=${encodeURIComponent(lead.phone!)}&Body=STOP&MessageSid=SM1`,
    });
    expect(inbound.statusCode).toBe(404);
    const stats = (await admin.client.get('/api/admin/follow-ups')).json();
    expect(stats).toMatchObject({ sms: 'NOT_CONFIGURED', email: 'NOT_CONFIGURED' });
  });
});
