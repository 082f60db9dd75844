import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../src/server/db/client';
import { createPackage, insertLeads, subscribe } from './support/admin-fixtures';
import { loginAdmin, registerAgent, setupTestApp } from './support/test-app';
import { waitFor } from './support/wait-for';

/** What the receiver got: every call, its verified event, in order. */
interface Received {
  path: string;
  id: string;
  verified: boolean;
  authorization: string | undefined;
  // biome-ignore lint/suspicious/noExplicitAny: the event as the receiver parsed it
  event: { type: string; timestamp: string; data: Record<string, any> } | null;
  at: number;
  /** the call as it came, to verify with another secret */
  body: string;
  headers: Record<string, string>;
}

/** Whether a call verifies with this secret (Standard Webhooks: any of its signatures). */
function verifiesWith(call: Received, secret: string): boolean {
  try {
    new Webhook(secret).verify(call.body, call.headers);
    return true;
  } catch {
    return false;
  }
}

/** path -> the answers to give, in turn (the last repeats); 'hang' never answers. */
const script = new Map<string, (number | 'hang')[]>();
/** path -> the signing secret the receiver verifies with */
const secrets = new Map<string, string>();
const received: Received[] = [];
const hanging: ServerResponse[] = [];
let receiver: Server;
let base = '';

function answer(path: string): number | 'hang' {
  const plan = script.get(path) ?? [200];
  return plan.length > 1 ? plan.shift()! : plan[0]!;
}

beforeAll(async () => {
  receiver = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const path = req.url ?? '/';
      const headers = req.headers as Record<string, string>;
      let event: Received['event'] = null;
      let verified = false;
      try {
        event = new Webhook(secrets.get(path) ?? 'whsec_AAAA').verify(body, headers) as never;
        verified = true;
      } catch {
        verified = false;
      }
      received.push({
        path,
        id: headers['webhook-id'] ?? '',
        verified,
        authorization: headers.authorization,
        event,
        at: Date.now(),
        body,
        headers,
      });
      const code = answer(path);
      if (code === 'hang') {
        hanging.push(res);
        return;
      }
      res.writeHead(code, { 'content-type': 'text/plain' });
      res.end(code < 300 ? 'accepted by the test CRM' : `refused with ${code}`);
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const res of hanging) res.destroy();
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
});

// loopback receivers: private addresses allowed, except where a test turns that off; short
// timings so retries and timeouts happen within a test (the real ones: 10 s, about 4 hours). The
// time limit leaves a loopback answer room on a loaded CI machine: a late answer would be a failed
// attempt the tests below do not expect
const ctx = setupTestApp(
  { WEBHOOK_ALLOW_PRIVATE: true },
  {
    deliveryQueue: {
      webhookTimeoutMs: 1_500,
      retryDelaysMs: [150, 150],
      pollingIntervalSeconds: 0.5,
      sweepIntervalMs: 300,
    },
  },
);

let seq = 0;
/** An agent on a package with the CRM service, its webhook set to a receiver path. */
async function crmAgent(path: string, plan: (number | 'hang')[] = [200]) {
  const agent = await registerAgent(ctx.app, `Crm Agent ${++seq}`);
  const pkg = await createPackage(ctx, { serviceCrm: true });
  await subscribe(ctx, agent.id, pkg.id);
  const settings = await agent.client.get('/api/agent/delivery');
  expect(settings.statusCode).toBe(200);
  const secret = settings.json().webhook.secret as string;
  expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
  secrets.set(path, secret);
  script.set(path, [...plan]);
  const put = await agent.client.put('/api/agent/delivery', {
    webhook: { url: `${base}${path}`, authHeader: 'Bearer crm-token', enabled: true },
  });
  expect(put.statusCode, put.body).toBe(200);
  return { ...agent, secret };
}

async function assign(leadId: number, userId: number) {
  const admin = await loginAdmin(ctx);
  const res = await admin.client.post('/api/admin/leads/assign', { leadId, userId });
  expect(res.statusCode, res.body).toBe(200);
  return Date.now();
}

const deliveriesOf = (leadId: number) =>
  queryRows<{
    id: number;
    channel: string;
    status: string;
    attempts: number;
    responseCode: number | null;
    error: string | null;
    messageId: string | null;
  }>(
    ctx.database.db,
    sql`select id, channel, status, attempts, response_code as "responseCode", error,
      message_id as "messageId" from deliveries where lead_id = ${leadId} order by id`,
  );

const attemptsOf = (deliveryId: number) =>
  queryRows<{ attempt: number; status: string; responseCode: number | null; error: string | null }>(
    ctx.database.db,
    sql`select attempt, status, response_code as "responseCode", error from delivery_attempts
      where delivery_id = ${deliveryId} order by id`,
  );

describe('CRM webhook delivery', () => {
  it('sends a signed lead.assigned event promptly, with the phone in E.164, ZIP, time zone, consent, source, agent and the Authorization header', async () => {
    const agent = await crmAgent('/ok');
    const [lead] = await insertLeads(ctx, [
      {
        firstName: 'Olive',
        lastName: 'Okafor',
        // as the intake and the import store a phone
        phone: '+13055550142',
        state: 'FL',
        city: 'Pensacola',
        zip: '32501',
        timeZone: 'America/Chicago',
        consentAt: new Date('2026-11-20T10:00:00Z'),
        consentText: 'I agree to be called',
        trustedFormCertUrl: 'https://cert.trustedform.com/0123456789abcdef',
        jornayaLeadId: 'LEADID-1234-ABCD',
        consentIp: '203.0.113.7',
      },
    ]);
    const at = await assign(lead.id, agent.id);
    const got = await waitFor('the webhook', async () =>
      received.find((r) => r.path === '/ok' && r.event?.data.lead.id === lead.id),
    );
    // speed to lead: from the assignment's answer to the receiver (p99 goal 1 s)
    expect(got.at - at).toBeLessThan(1500);
    expect(got.verified).toBe(true);
    expect(got.authorization).toBe('Bearer crm-token');
    expect(got.event).toMatchObject({
      type: 'lead.assigned',
      data: {
        lead: {
          id: lead.id,
          firstName: 'Olive',
          // E.164, as stored: a CRM dials it as it comes, never as people write it
          phone: '+13055550142',
          city: 'Pensacola',
          state: 'FL',
          zip: '32501',
          timeZone: 'America/Chicago',
          consent: {
            at: '2026-11-20T10:00:00.000Z',
            text: 'I agree to be called',
            trustedFormCertUrl: 'https://cert.trustedform.com/0123456789abcdef',
            jornayaLeadId: 'LEADID-1234-ABCD',
            ip: '203.0.113.7',
          },
        },
        agent: { id: agent.id, email: agent.email },
      },
    });
    const [delivery] = await waitFor('SENT', async () => {
      const rows = await deliveriesOf(lead.id);
      return rows[0]?.status === 'SENT' ? rows : null;
    });
    // no SMTP_URL in this app: no email delivery is even recorded
    expect(await deliveriesOf(lead.id)).toHaveLength(1);
    expect(delivery).toMatchObject({ channel: 'WEBHOOK', attempts: 1, responseCode: 200 });
    expect(got.id).toBe(delivery.messageId);
  });

  it('retries 500, 500 then succeeds: three attempts with the same webhook-id, each recorded', async () => {
    const agent = await crmAgent('/flaky', [500, 500, 200]);
    const [lead] = await insertLeads(ctx, [{ firstName: 'Flaky' }]);
    await assign(lead.id, agent.id);
    const [delivery] = await waitFor('SENT after retries', async () => {
      const rows = await deliveriesOf(lead.id);
      return rows[0]?.status === 'SENT' ? rows : null;
    });
    const calls = received.filter((r) => r.path === '/flaky');
    expect(calls).toHaveLength(3);
    expect(new Set(calls.map((c) => c.id)).size).toBe(1);
    expect(calls.every((c) => c.verified)).toBe(true);
    expect(delivery.attempts).toBe(3);
    expect(
      (await attemptsOf(delivery.id)).map((a) => [a.attempt, a.status, a.responseCode]),
    ).toEqual([
      [1, 'FAILED', 500],
      [2, 'FAILED', 500],
      [3, 'SENT', 200],
    ]);

    // the lead's timeline: the assignment, then the three attempts, oldest first
    const activity = await agent.client.get(`/api/agent/leads/${lead.id}/activity`);
    expect(activity.statusCode).toBe(200);
    const items = activity.json().items;
    expect(items[0]).toMatchObject({
      type: 'status',
      kind: 'MANUAL_ASSIGNED',
      toStatus: 'ASSIGNED',
    });
    expect(
      items.slice(1).map((i: { status: string; attempt: number }) => [i.attempt, i.status]),
    ).toEqual([
      [1, 'FAILED'],
      [2, 'FAILED'],
      [3, 'SENT'],
    ]);
    // another agent's lead is not found; an agent on the admin routes is refused
    const other = await registerAgent(ctx.app);
    expect((await other.client.get(`/api/agent/leads/${lead.id}/activity`)).statusCode).toBe(404);
    expect((await agent.client.get('/api/admin/deliveries')).statusCode).toBe(403);
    expect((await agent.client.post(`/api/admin/deliveries/${delivery.id}/retry`)).statusCode).toBe(
      403,
    );
  });

  it('takes a 400 as final (FAILED, no retry); an admin retry sends it again', async () => {
    const agent = await crmAgent('/reject', [400, 200]);
    const [lead] = await insertLeads(ctx, [{ firstName: 'Rejected' }]);
    await assign(lead.id, agent.id);
    const [delivery] = await waitFor('FAILED', async () => {
      const rows = await deliveriesOf(lead.id);
      return rows[0]?.status === 'FAILED' ? rows : null;
    });
    await new Promise((r) => setTimeout(r, 700));
    expect(received.filter((r) => r.path === '/reject')).toHaveLength(1);
    expect(delivery).toMatchObject({ attempts: 1, responseCode: 400 });
    // the agent is told, with the lead, so that it is worked anyway
    const bell = (await agent.client.get('/api/agent/notifications')).json();
    expect(bell.items).toContainEqual(
      expect.objectContaining({
        kind: 'delivery.failed',
        leadId: lead.id,
        title: 'A lead did not reach your CRM',
        body: expect.stringMatching(/^Rejected was not taken by your CRM webhook/),
      }),
    );

    const admin = await loginAdmin(ctx);
    const failed = await admin.client.get('/api/admin/deliveries?status=FAILED&channel=WEBHOOK');
    expect(failed.statusCode).toBe(200);
    const list = failed.json();
    expect(list.items.map((d: { id: number }) => d.id)).toContain(delivery.id);
    expect(list.items.find((d: { id: number }) => d.id === delivery.id)).toMatchObject({
      leadName: 'Rejected',
      agentId: agent.id,
      status: 'FAILED',
      responseCode: 400,
    });
    expect(list.total).toBeGreaterThanOrEqual(1);
    expect(list.channels.map((c: { channel: string }) => c.channel)).toEqual(['EMAIL', 'WEBHOOK']);
    expect(list.channels[0]).toMatchObject({ state: 'NOT_CONFIGURED' });

    const retry = await admin.client.post(`/api/admin/deliveries/${delivery.id}/retry`);
    expect(retry.statusCode, retry.body).toBe(202);
    await waitFor('SENT after the admin retry', async () => {
      const rows = await deliveriesOf(lead.id);
      return rows[0]?.status === 'SENT' ? rows : null;
    });
    expect(received.filter((r) => r.path === '/reject')).toHaveLength(2);
    // only a FAILED one can be retried; an unknown one is not found
    expect((await admin.client.post(`/api/admin/deliveries/${delivery.id}/retry`)).statusCode).toBe(
      409,
    );
    expect((await admin.client.post('/api/admin/deliveries/999999999/retry')).statusCode).toBe(404);
  });

  it('gives up on an endpoint that hangs past the time limit after the last retry', async () => {
    const agent = await crmAgent('/hang', ['hang']);
    const [lead] = await insertLeads(ctx, [{ firstName: 'Hang' }]);
    await assign(lead.id, agent.id);
    const [delivery] = await waitFor('FAILED after timeouts', async () => {
      const rows = await deliveriesOf(lead.id);
      return rows[0]?.status === 'FAILED' ? rows : null;
    });
    const attempts = await attemptsOf(delivery.id);
    expect(attempts).toHaveLength(3);
    expect(
      attempts.every(
        (a) => a.status === 'FAILED' && /No answer within 1500 ms/.test(a.error ?? ''),
      ),
    ).toBe(true);
  });

  it('a success sets the failures in a row back to 0; later successes keep it there', async () => {
    const agent = await crmAgent('/recovers', [503, 503, 200]);
    const [lead] = await insertLeads(ctx, [{ firstName: 'Recovers' }]);
    await assign(lead.id, agent.id);
    await waitFor('SENT on the third attempt', async () => {
      const rows = await deliveriesOf(lead.id);
      return rows[0]?.status === 'SENT' ? rows : null;
    });
    const callsFor = (id: number) =>
      received.filter((r) => r.path === '/recovers' && r.event?.data.lead?.id === id);
    expect(callsFor(lead.id)).toHaveLength(3);
    const failuresInRow = async () =>
      (await agent.client.get('/api/agent/delivery')).json().webhook.failuresInRow;
    expect(await failuresInRow()).toBe(0);
    const [next] = await insertLeads(ctx, [{ firstName: 'Recovers2' }]);
    await assign(next.id, agent.id);
    await waitFor('the next lead SENT', async () => {
      const rows = await deliveriesOf(next.id);
      return rows[0]?.status === 'SENT' ? rows : null;
    });
    expect(callsFor(next.id)).toHaveLength(1);
    expect(await failuresInRow()).toBe(0);
  });

  it('switches the endpoint off after 20 failures in a row and tells the agent and the admins', async () => {
    const admin = await loginAdmin(ctx);
    const agent = await crmAgent('/down', [503]);
    const leads = await insertLeads(
      ctx,
      Array.from({ length: 8 }, (_, i) => ({ firstName: `Down${i}` })),
    );
    for (const lead of leads) await assign(lead.id, agent.id);
    await waitFor('the switch-off', async () => {
      const res = await agent.client.get('/api/agent/delivery');
      return res.json().webhook.disabledAt ? res : null;
    });
    const settings = (await agent.client.get('/api/agent/delivery')).json();
    expect(settings.webhook.enabled).toBe(false);
    // jobs already in flight when it switched off may add a failure or two
    expect(settings.webhook.failuresInRow).toBeGreaterThanOrEqual(20);
    const notes = await queryRows<{ userId: number; title: string }>(
      ctx.database.db,
      sql`select user_id as "userId", title from notifications where kind = 'webhook.disabled'`,
    );
    expect(notes.filter((n) => n.userId === agent.id)).toHaveLength(1);
    expect(notes.find((n) => n.userId === agent.id)?.title).toMatch(
      /Your CRM webhook was switched off/,
    );
    expect(notes.find((n) => n.userId === admin.id)?.title).toMatch(/switched off/);
    // nothing more is sent to it; what was waiting is skipped
    await new Promise((r) => setTimeout(r, 1000));
    const calls = received.filter((r) => r.path === '/down').length;
    expect(calls).toBeGreaterThanOrEqual(20);
    expect(calls).toBeLessThan(24);
    const rows = await queryRows<{ status: string }>(
      ctx.database.db,
      sql`select status from deliveries where agent_id = ${agent.id}`,
    );
    expect(rows.every((r) => r.status !== 'PENDING' && r.status !== 'SENT')).toBe(true);
    // a new lead is not even recorded for the switched-off endpoint
    const [later] = await insertLeads(ctx, [{ firstName: 'Later' }]);
    await assign(later.id, agent.id);
    expect(await deliveriesOf(later.id)).toHaveLength(0);
  });

  it('refuses endpoints on internal addresses unless WEBHOOK_ALLOW_PRIVATE, on saving and at send time', async () => {
    const agent = await crmAgent('/ssrf');
    ctx.app.config.WEBHOOK_ALLOW_PRIVATE = false;
    try {
      for (const url of [
        'https://127.0.0.1:9/x',
        'https://[::1]/x',
        'https://169.254.169.254/latest',
        'https://10.0.0.1/',
      ]) {
        const res = await agent.client.put('/api/agent/delivery', { webhook: { url } });
        expect(res.statusCode, url).toBe(400);
        expect(res.json().message).toMatch(/internal address/);
        // the form marks the URL field
        expect(res.json().errors).toEqual([{ field: 'webhook.url', message: res.json().message }]);
      }
      const creds = await agent.client.put('/api/agent/delivery', {
        webhook: { url: 'https://user:pw@example.com/' },
      });
      expect(creds.statusCode).toBe(400);
      const crlf = await agent.client.put('/api/agent/delivery', {
        webhook: { authHeader: 'Bearer x\r\nX-Injected: 1' },
      });
      expect(crlf.statusCode).toBe(400);
      const ftp = await agent.client.put('/api/agent/delivery', {
        webhook: { url: 'ftp://example.com/' },
      });
      expect(ftp.statusCode).toBe(400);
      // saved while allowed, refused when sending: final, nothing reaches the receiver
      const [lead] = await insertLeads(ctx, [{ firstName: 'Ssrf' }]);
      await assign(lead.id, agent.id);
      const [delivery] = await waitFor('FAILED', async () => {
        const rows = await deliveriesOf(lead.id);
        return rows[0]?.status === 'FAILED' ? rows : null;
      });
      expect(delivery.error).toMatch(/refused/);
      expect(received.filter((r) => r.path === '/ssrf')).toHaveLength(0);
    } finally {
      ctx.app.config.WEBHOOK_ALLOW_PRIVATE = true;
    }
  });

  it('refuses http:// endpoints unless WEBHOOK_ALLOW_PRIVATE: 400 on webhook.url when saving, a final failure when sending', async () => {
    const agent = await crmAgent('/plain-http');
    ctx.app.config.WEBHOOK_ALLOW_PRIVATE = false;
    try {
      const res = await agent.client.put('/api/agent/delivery', {
        webhook: { url: 'http://crm.example.com/hook' },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/must start with https:\/\//);
      expect(res.json().errors).toEqual([{ field: 'webhook.url', message: res.json().message }]);
      // the http:// URL saved while it was allowed: the test and every delivery are refused
      const test = await agent.client.post('/api/agent/delivery/webhook/test');
      expect(test.statusCode).toBe(200);
      expect(test.json()).toMatchObject({ ok: false, status: 'FAILED', responseCode: null });
      expect(test.json().error).toMatch(/must start with https:\/\//);
      const [lead] = await insertLeads(ctx, [{ firstName: 'PlainHttp' }]);
      await assign(lead.id, agent.id);
      const [delivery] = await waitFor('FAILED', async () => {
        const rows = await deliveriesOf(lead.id);
        return rows[0]?.status === 'FAILED' ? rows : null;
      });
      // final at once: no retry for a URL that only the agent can change
      expect(delivery).toMatchObject({ attempts: 1, responseCode: null });
      expect(delivery.error).toMatch(/must start with https:\/\//);
      expect(received.filter((r) => r.path === '/plain-http')).toHaveLength(0);
    } finally {
      ctx.app.config.WEBHOOK_ALLOW_PRIVATE = true;
    }
  });

  it('rotates the signing secret: calls carry both signatures for 24 hours, then only the new one', async () => {
    const agent = await crmAgent('/rotate');
    const old = agent.secret;
    const rotated = await agent.client.post('/api/agent/delivery/webhook/secret/rotate');
    expect(rotated.statusCode, rotated.body).toBe(200);
    const fresh = rotated.json().webhook.secret as string;
    expect(fresh).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(fresh).not.toBe(old);
    const until = Date.parse(rotated.json().webhook.previousSecretUntil);
    expect(until - Date.now()).toBeGreaterThan(23.9 * 3600_000);
    expect(until - Date.now()).toBeLessThanOrEqual(24 * 3600_000);
    // the settings carry the new secret from now on; the old one is never shown again
    const settings = (await agent.client.get('/api/agent/delivery')).json();
    expect(settings.webhook.secret).toBe(fresh);
    expect(JSON.stringify(settings)).not.toContain(old);

    // during the overlap: a CRM still on the old secret and one already on the new both accept
    const test = await agent.client.post('/api/agent/delivery/webhook/test');
    expect(test.json()).toMatchObject({ ok: true });
    const [lead] = await insertLeads(ctx, [{ firstName: 'Rotated' }]);
    await assign(lead.id, agent.id);
    await waitFor('the delivery', async () =>
      received.find((r) => r.path === '/rotate' && r.event?.data.lead?.id === lead.id),
    );
    const overlap = received.filter((r) => r.path === '/rotate');
    expect(overlap.map((c) => c.event?.type)).toEqual(['webhook.test', 'lead.assigned']);
    for (const call of overlap) {
      expect(call.headers['webhook-signature']).toMatch(/^v1,\S+ v1,\S+$/);
      expect(verifiesWith(call, old)).toBe(true);
      expect(verifiesWith(call, fresh)).toBe(true);
    }

    // 24 hours later (the rotation's time moved back): the old secret no longer verifies
    await ctx.database.db.execute(
      sql`update delivery_settings set webhook_secret_rotated_at = now() - interval '24 hours 1 second'
        where user_id = ${agent.id}`,
    );
    expect((await agent.client.get('/api/agent/delivery')).json().webhook.previousSecretUntil).toBe(
      null,
    );
    expect((await agent.client.post('/api/agent/delivery/webhook/test')).json().ok).toBe(true);
    const after = received.filter((r) => r.path === '/rotate').at(-1)!;
    expect(after.headers['webhook-signature']).toMatch(/^v1,\S+$/);
    expect(verifiesWith(after, fresh)).toBe(true);
    expect(verifiesWith(after, old)).toBe(false);
  });

  it('refuses rotating the secret to a package without the CRM service', async () => {
    const agent = await registerAgent(ctx.app);
    const pkg = await createPackage(ctx, { serviceCrm: false });
    await subscribe(ctx, agent.id, pkg.id);
    const before = (await agent.client.get('/api/agent/delivery')).json().webhook.secret;
    const res = await agent.client.post('/api/agent/delivery/webhook/secret/rotate');
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toMatch(/CRM integration/);
    expect((await agent.client.get('/api/agent/delivery')).json().webhook.secret).toBe(before);
  });

  it("answers the test event with the receiver's code and the start of its body", async () => {
    const agent = await crmAgent('/test-event', [202]);
    const res = await agent.client.post('/api/agent/delivery/webhook/test');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      ok: true,
      status: 'SENT',
      responseCode: 202,
      responseBody: 'accepted by the test CRM',
    });
    const got = received.find((r) => r.path === '/test-event');
    expect(got).toMatchObject({ verified: true, event: { type: 'webhook.test' } });
  });

  it('refuses the webhook to a package without the CRM service', async () => {
    const agent = await registerAgent(ctx.app);
    const pkg = await createPackage(ctx, { serviceCrm: false });
    await subscribe(ctx, agent.id, pkg.id);
    const settings = await agent.client.get('/api/agent/delivery');
    expect(settings.json().webhook.available).toBe(false);
    const res = await agent.client.put('/api/agent/delivery', {
      webhook: { url: `${base}/nocrm`, enabled: true },
    });
    expect(res.statusCode).toBe(403);
  });

  it('enqueues nothing for an assignment that rolls back', async () => {
    const agent = await crmAgent('/rollback');
    const [lead] = await insertLeads(ctx, [{ firstName: 'Rollback' }]);
    await expect(
      ctx.database.db.transaction(async (tx) => {
        await tx.execute(
          sql`update leads set agent_id = ${agent.id}, status = 'ASSIGNED', assigned_at = now()
            where id = ${lead.id}`,
        );
        await ctx.app.leadPorts.events.emit(tx, 'leadsAssigned', { leadIds: [lead.id] });
        const inside = await queryRows<{ n: number }>(
          tx,
          sql`select count(*)::int as n from deliveries where lead_id = ${lead.id}`,
        );
        expect(inside[0]!.n).toBe(1);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    await new Promise((r) => setTimeout(r, 1000));
    expect(await deliveriesOf(lead.id)).toHaveLength(0);
    const jobs = await queryRows<{ n: number }>(
      ctx.database.db,
      sql`select count(*)::int as n from pgboss.job where data->>'agentId' = ${String(agent.id)}`,
    );
    expect(jobs[0]!.n).toBe(0);
    expect(received.filter((r) => r.path === '/rollback')).toHaveLength(0);
  });

  it('enqueues no fan-out for a run that rolls back', async () => {
    const agent = await crmAgent('/run-rollback');
    const [lead] = await insertLeads(ctx, [{ firstName: 'RunRollback' }]);
    let runId = 0;
    await expect(
      ctx.database.db.transaction(async (tx) => {
        const [run] = await queryRows<{ id: number }>(
          tx,
          sql`insert into assignment_runs (trigger, business_date, assigned)
            values ('MANUAL', current_date, 1) returning id`,
        );
        runId = run!.id;
        await tx.execute(
          sql`update leads set agent_id = ${agent.id}, status = 'ASSIGNED', assigned_at = now(),
            assigned_on = current_date, assignment_run_id = ${runId} where id = ${lead.id}`,
        );
        await ctx.app.leadPorts.events.emit(tx, 'leadsAssigned', { runId });
        const inside = await queryRows<{ n: number }>(
          tx,
          sql`select count(*)::int as n from pgboss.job where singleton_key = ${`run:${runId}`}`,
        );
        expect(inside[0]!.n).toBe(1);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    await new Promise((r) => setTimeout(r, 1000));
    const jobs = await queryRows<{ n: number }>(
      ctx.database.db,
      sql`select count(*)::int as n from pgboss.job where singleton_key = ${`run:${runId}`}`,
    );
    expect(jobs[0]!.n).toBe(0);
    expect(await deliveriesOf(lead.id)).toHaveLength(0);
    expect(received.filter((r) => r.path === '/run-rollback')).toHaveLength(0);
  });

  it('sends a delivery recorded where no queue ran (a command-line run) through the sweeper', async () => {
    const agent = await crmAgent('/swept');
    const [lead] = await insertLeads(ctx, [{ firstName: 'Swept' }]);
    await ctx.database.db.execute(
      sql`update leads set agent_id = ${agent.id}, status = 'ASSIGNED', assigned_at = now()
        where id = ${lead.id}`,
    );
    // what enqueueLeadDeliveries records when no queue is attached: no job, no due time
    await ctx.database.db.execute(
      sql`insert into deliveries (lead_id, agent_id, channel) values (${lead.id}, ${agent.id}, 'WEBHOOK')`,
    );
    await waitFor('the swept delivery', async () => {
      const rows = await deliveriesOf(lead.id);
      return rows[0]?.status === 'SENT' ? rows : null;
    });
    expect(received.filter((r) => r.path === '/swept')).toHaveLength(1);
  });

  it('fans out a run made where no queue ran (a command-line run) through the sweeper', async () => {
    const agent = await crmAgent('/cli-run');
    const [lead] = await insertLeads(ctx, [{ firstName: 'CliRun' }]);
    // what `npm run assign:run` leaves: the run and its lead, and no fan-out job
    const [run] = await queryRows<{ id: number; day: string }>(
      ctx.database.db,
      sql`insert into assignment_runs (trigger, business_date, assigned, finished_at)
        values ('MANUAL', current_date, 1, now()) returning id, business_date::text as day`,
    );
    await ctx.database.db.execute(
      sql`update leads set agent_id = ${agent.id}, status = 'ASSIGNED', assigned_at = now(),
        assigned_on = ${run!.day}::date, assignment_run_id = ${run!.id} where id = ${lead.id}`,
    );
    await waitFor('the fanned-out delivery', async () => {
      const rows = await deliveriesOf(lead.id);
      return rows[0]?.status === 'SENT' ? rows : null;
    });
    expect(received.filter((r) => r.path === '/cli-run')).toHaveLength(1);
  });

  it('reports the channels in GET /api/health', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json().channels).toMatchObject({
      email: 'NOT_CONFIGURED',
      webhook: expect.stringMatching(/OPERATIONAL|FAILING/),
      backlog: { pending: expect.any(Number) },
    });
    // no SMTP_URL here: not one email delivery was recorded by any of this file's assignments
    const email = await queryRows<{ n: number }>(
      ctx.database.db,
      sql`select count(*)::int as n from deliveries where channel = 'EMAIL'`,
    );
    expect(email[0]!.n).toBe(0);
  });
});
