import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppConfig } from '../src/server/config/env';
import { queryRows } from '../src/server/db/client';
import { anonymizeExpiredLeads } from '../src/server/modules/privacy/privacy.service';
import { createPackage, insertLeads, subscribe } from './support/admin-fixtures';
import { uploadCsv } from './support/csv-upload';
import { postIntakeLead, newSourceKey as sourceKey } from './support/intake-post';
import { e164, uniqueEmail, uniquePhone } from './support/lead-contact';
import { loginAdmin, registerAgent, setupTestApp } from './support/test-app';
import { TwilioStandIn, toneWav } from './support/twilio-stand-in';
import { waitFor as waitUntil } from './support/wait-for';

/** What the test CRM got: each call with its event, verified with the agent's secret. */
interface Received {
  path: string;
  id: string;
  verified: boolean;
  // biome-ignore lint/suspicious/noExplicitAny: the event as the receiver parsed it
  event: { type: string; data: Record<string, any> } | null;
}
const received: Received[] = [];
const secrets = new Map<string, string>();
/** path -> the status the receiver answers (200 unless set) */
const answers = new Map<string, number>();
let receiver: Server;
let base = '';

const twilio = new TwilioStandIn();
const overrides: Partial<AppConfig> = {
  WEBHOOK_ALLOW_PRIVATE: true,
  ASSIGN_ON_IMPORT: false,
  TWILIO_ACCOUNT_SID: twilio.accountSid,
  TWILIO_AUTH_TOKEN: twilio.authToken,
  TWILIO_FROM_NUMBER: twilio.fromNumber,
};

beforeAll(async () => {
  overrides.TWILIO_API_BASE = await twilio.start();
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const path = req.url ?? '/';
      const headers = req.headers as Record<string, string>;
      let event: Received['event'] = null;
      try {
        event = new Webhook(secrets.get(path) ?? 'whsec_AAAA').verify(body, headers) as never;
      } catch {
        event = null;
      }
      received.push({ path, id: headers['webhook-id'] ?? '', verified: event !== null, event });
      const status = answers.get(path) ?? 200;
      res.writeHead(status);
      res.end(status < 300 ? 'ok' : 'gone');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});

afterAll(async () => {
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
  await twilio.stop();
});

const ctx = setupTestApp(overrides, {
  deliveryQueue: { pollingIntervalSeconds: 0.5, sweepIntervalMs: 300 },
});
const db = () => ctx.database.db;
/** A deletion's tasks are jobs of their own: 20 s to settle. */
const waitFor = <T>(what: string, probe: () => Promise<T | null | undefined | false>) =>
  waitUntil(what, probe, 20_000);

let seq = 0;
/** An agent with the CRM service, the webhook set to a receiver path. */
async function crmAgent(path: string) {
  const agent = await registerAgent(ctx.app, `Privacy Agent ${++seq}`);
  const pkg = await createPackage(ctx, { serviceCrm: true });
  await subscribe(ctx, agent.id, pkg.id);
  const secret = (await agent.client.get('/api/agent/delivery')).json().webhook.secret as string;
  secrets.set(path, secret);
  const put = await agent.client.put('/api/agent/delivery', {
    webhook: { url: `${base}${path}`, enabled: true },
  });
  expect(put.statusCode, put.body).toBe(200);
  return agent;
}

/** Gives the lead to the agent and waits for its lead.assigned at the agent's CRM. */
async function assignAndDeliver(leadId: number, userId: number, path: string) {
  const admin = await loginAdmin(ctx);
  const res = await admin.client.post('/api/admin/leads/assign', { leadId, userId });
  expect(res.statusCode, res.body).toBe(200);
  await waitFor('lead.assigned', async () =>
    received.find((r) => r.path === path && r.event?.type === 'lead.assigned'),
  );
  await waitFor('the delivery recorded as sent', async () => {
    const [row] = await queryRows<{ status: string }>(
      db(),
      sql`select status from deliveries where lead_id = ${leadId} and channel = 'WEBHOOK'`,
    );
    return row?.status === 'SENT';
  });
}

async function newSourceKey() {
  return (await sourceKey(ctx)).key;
}

const postLead = (key: string, over: Record<string, unknown>) => postIntakeLead(ctx, key, over);

const leadRow = async (id: number) => {
  const [row] = await queryRows<Record<string, unknown>>(
    db(),
    sql`select first_name as "firstName", last_name as "lastName", phone, email, city, state, age,
          zip, status, agent_id as "agentId", consent_text as "consentText",
          trusted_form_cert_url as "trustedFormCertUrl", consent_ip as "consentIp",
          anonymized_at is not null as anonymized
        from leads where id = ${id}`,
  );
  return row;
};

describe('consumer deletion', () => {
  it('anonymizes every lead of the phone or email, tells each CRM by a signed lead.deleted, removes the recording, and keeps no contact', async () => {
    const admin = await loginAdmin(ctx);
    const a = await crmAgent('/crm-a');
    const b = await crmAgent('/crm-b');
    const typed = uniquePhone();
    const phone = e164(typed);
    const email = uniqueEmail('olive');
    const [byPhone, byEmail, other] = await insertLeads(ctx, [
      {
        firstName: 'Olive',
        lastName: 'Okafor',
        phone,
        email: uniqueEmail('olive-old'),
        zip: '78701',
        consentText: 'I agree to be called by LeadFlow',
        trustedFormCertUrl: 'https://cert.trustedform.com/0123456789abcdef',
        consentIp: '203.0.113.7',
      },
      { firstName: 'Olive', lastName: 'Okafor', phone: e164(uniquePhone()), email },
      {
        firstName: 'Oscar',
        lastName: 'Other',
        phone: e164(uniquePhone()),
        email: uniqueEmail('oscar'),
      },
    ]);
    await assignAndDeliver(byPhone!.id, a.id, '/crm-a');
    await assignAndDeliver(byEmail!.id, b.id, '/crm-b');
    // a recorded call, a follow-up text and a return note that name the consumer
    const recordingSid = `RE${'0'.repeat(24)}${String(process.pid).padStart(8, '0')}`;
    twilio.recordings.set(recordingSid, toneWav(1));
    await db().execute(
      sql`insert into calls (lead_id, agent_id, status, recording_sid, recording_url, recording_seconds)
          values (${byPhone!.id}, ${a.id}, 'COMPLETED', ${recordingSid}, 'https://api.twilio.com/rec', 12)`,
    );
    await db().execute(
      sql`insert into follow_up_messages (lead_id, agent_id, channel, status, to_address, body)
          values (${byPhone!.id}, ${a.id}, 'SMS', 'SENT', ${phone}, 'Hi Olive, this is your agent')`,
    );
    await db().execute(
      sql`insert into lead_returns (lead_id, agent_id, reason, note)
          values (${byEmail!.id}, ${b.id}, 'WRONG_NUMBER', 'Olive said her husband filled it in')`,
    );

    const res = await admin.client.post('/api/admin/privacy/deletions', {
      phone: typed,
      email: email.toUpperCase(),
    });
    expect(res.statusCode, res.body).toBe(201);
    const deletion = res.json();
    expect(deletion).toMatchObject({
      byPhone: true,
      byEmail: true,
      leads: 2,
      requestedBy: { id: admin.id, name: 'Admin' },
    });
    expect(deletion.webhooks.done + deletion.webhooks.pending).toBe(2);
    expect(deletion.recordings.done + deletion.recordings.pending).toBe(1);

    // the leads: no name, contact, address or consent; status, agent, state and age stay
    for (const lead of [byPhone!, byEmail!]) {
      expect(await leadRow(lead.id)).toMatchObject({
        firstName: null,
        lastName: null,
        phone: null,
        email: null,
        city: '',
        zip: null,
        consentText: null,
        trustedFormCertUrl: null,
        consentIp: null,
        status: 'ASSIGNED',
        state: 'TX',
        anonymized: true,
      });
    }
    expect(await leadRow(other!.id)).toMatchObject({ firstName: 'Oscar', anonymized: false });
    // the admin's search no longer finds them by name
    const search = await admin.client.get('/api/admin/leads?q=olive');
    expect(search.json()).toEqual([]);
    expect(search.headers['x-total-count']).toBe('0');
    // the agent's view of the lead: nothing of the consumer
    const seen = await a.client.get(`/api/agent/leads/${byPhone!.id}`);
    expect(seen.statusCode).toBe(200);
    expect(seen.json()).toMatchObject({
      id: byPhone!.id,
      firstName: null,
      phone: null,
      anonymizedAt: expect.any(String),
    });
    expect(seen.body).not.toMatch(/Olive|Okafor/);

    // each CRM is told of its own lead, signed with its own secret
    const deleted = await waitFor('both lead.deleted events', async () => {
      const got = received.filter((r) => r.event?.type === 'lead.deleted');
      return got.length >= 2 ? got : null;
    });
    expect(deleted.map((r) => [r.path, r.verified, r.event?.data.lead.id]).sort()).toEqual([
      ['/crm-a', true, byPhone!.id],
      ['/crm-b', true, byEmail!.id],
    ]);
    expect(deleted[0]!.id).toMatch(/^msg_lf_deleted_\d+_\d+$/);
    expect(deleted[0]!.event?.data.reason).toBe('CONSUMER_REQUEST');

    // the recording is gone at the provider and here; the text and the note are removed
    await waitFor(
      'the recording removed at Twilio',
      async () => !twilio.recordings.has(recordingSid),
    );
    expect(
      twilio.requests.some(
        (r) => r.method === 'DELETE' && r.path.endsWith(`/Recordings/${recordingSid}.json`),
      ),
    ).toBe(true);
    const [call] = await queryRows<{ recordingSid: string | null; recordingUrl: string | null }>(
      db(),
      sql`select recording_sid as "recordingSid", recording_url as "recordingUrl" from calls
          where lead_id = ${byPhone!.id}`,
    );
    expect(call).toEqual({ recordingSid: null, recordingUrl: null });
    const texts = await queryRows<{ body: string; toAddress: string }>(
      db(),
      sql`select body, to_address as "toAddress" from follow_up_messages where lead_id = ${byPhone!.id}`,
    );
    expect(texts).toEqual([{ body: '', toAddress: '' }]);
    const bell = (await a.client.get('/api/agent/notifications')).json();
    expect(JSON.stringify(bell)).not.toMatch(/Olive|Okafor/);
    const [note] = await queryRows<{ note: string | null }>(
      db(),
      sql`select note from lead_returns where lead_id = ${byEmail!.id}`,
    );
    expect(note?.note).toBeNull();

    // the request's list shows the tasks done
    const listed = await waitFor('the tasks done', async () => {
      const page = (await admin.client.get('/api/admin/privacy/deletions')).json();
      const row = page.items.find((i: { id: number }) => i.id === deletion.id);
      return row?.webhooks.done === 2 && row.recordings.done === 1 ? row : null;
    });
    expect(listed.leads).toBe(2);

    // nothing kept names the consumer: not the request, not the hashes, not the audit log
    const digits = phone.slice(2);
    const kept = await queryRows<{ text: string }>(
      db(),
      sql`select row_to_json(d)::text as text from privacy_deletions d
          union all select row_to_json(s)::text from suppressed_contacts s
          union all select row_to_json(t)::text from privacy_tasks t
          union all select row_to_json(e)::text from audit_events e
           where e.action = 'POST /api/admin/privacy/deletions'`,
    );
    expect(kept.length).toBeGreaterThan(3);
    for (const row of kept) {
      expect(row.text).not.toContain(digits);
      expect(row.text.toLowerCase()).not.toContain(email.toLowerCase());
    }
    const audit = (
      await admin.client.get('/api/admin/audit?action=POST%20/api/admin/privacy/deletions')
    ).json();
    expect(audit.events[0]).toMatchObject({
      targetType: 'deletion',
      targetId: String(deletion.id),
      after: { leads: 2, byPhone: true, byEmail: true },
    });
  });

  it('refuses the deleted consumer at the intake (422 suppressed) and at the import, by line, and keeps the others', async () => {
    const admin = await loginAdmin(ctx);
    const phone = uniquePhone();
    const email = uniqueEmail('gone');
    const res = await admin.client.post('/api/admin/privacy/deletions', { phone, email });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().leads).toBe(0);

    const key = await newSourceKey();
    const byPhone = await postLead(key, { phone });
    expect(byPhone.statusCode).toBe(422);
    expect(byPhone.json()).toMatchObject({
      reason: 'suppressed',
      message: 'The lead is refused: the consumer asked for their data to be deleted',
    });
    const byEmail = await postLead(key, { email: email.toUpperCase() });
    expect(byEmail.statusCode).toBe(422);
    expect(byEmail.json().reason).toBe('suppressed');
    expect((await postLead(key, {})).statusCode).toBe(201);

    const other = uniquePhone();
    const csv = [
      'first_name,last_name,phone,email,city,state,age,category',
      `Gone,Person,${phone},,Austin,TX,66,MEDICARE`,
      `Gone,Again,${uniquePhone()},${email},Austin,TX,66,MEDICARE`,
      `Kept,Person,${other},,Austin,TX,66,MEDICARE`,
    ].join('\n');
    const imported = await uploadCsv(admin.client, csv);
    expect(imported.statusCode, imported.body).toBe(200);
    expect(imported.json()).toMatchObject({
      imported: 1,
      suppressed: 2,
      duplicateLines: [
        { line: 2, reason: 'the consumer asked for their data to be deleted' },
        { line: 3, reason: 'the consumer asked for their data to be deleted' },
      ],
    });
    const [kept] = await queryRows<{ n: number }>(
      db(),
      sql`select count(*)::int as n from leads where phone = ${e164(other)}`,
    );
    expect(kept?.n).toBe(1);
  });

  it('answers 400 for a request without a contact or with a bad one, and only admins may ask', async () => {
    const admin = await loginAdmin(ctx);
    const none = await admin.client.post('/api/admin/privacy/deletions', {});
    expect(none.statusCode).toBe(400);
    const bad = await admin.client.post('/api/admin/privacy/deletions', { phone: '12' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toMatch(/phone/);
    const badEmail = await admin.client.post('/api/admin/privacy/deletions', {
      email: 'not-an-email',
    });
    expect(badEmail.statusCode).toBe(400);
    const agent = await registerAgent(ctx.app, 'Curious Agent');
    expect(
      (await agent.client.post('/api/admin/privacy/deletions', { phone: uniquePhone() }))
        .statusCode,
    ).toBe(403);
    expect((await agent.client.get('/api/admin/privacy/deletions')).statusCode).toBe(403);
    const anonymous = await ctx.app.inject({ method: 'GET', url: '/api/admin/privacy/deletions' });
    expect(anonymous.statusCode).toBe(401);
  });

  it('records a CRM that refuses the event as failed, and skips an agent whose webhook is off', async () => {
    const admin = await loginAdmin(ctx);
    const gone = await crmAgent('/crm-gone');
    const off = await crmAgent('/crm-off');
    const phone = e164(uniquePhone());
    const [first, second] = await insertLeads(ctx, [
      { firstName: 'Fay', phone },
      { firstName: 'Fay', phone: e164(uniquePhone()), email: uniqueEmail('fay') },
    ]);
    await assignAndDeliver(first!.id, gone.id, '/crm-gone');
    await assignAndDeliver(second!.id, off.id, '/crm-off');
    answers.set('/crm-gone', 410);
    await off.client.put('/api/agent/delivery', {
      webhook: { url: `${base}/crm-off`, enabled: false },
    });
    const [fay] = await queryRows<{ email: string }>(
      db(),
      sql`select email from leads where id = ${second!.id}`,
    );
    const res = await admin.client.post('/api/admin/privacy/deletions', {
      phone,
      email: fay!.email,
    });
    expect(res.statusCode, res.body).toBe(201);
    const row = await waitFor('both tasks settled', async () => {
      const page = (await admin.client.get('/api/admin/privacy/deletions')).json();
      const r = page.items.find((i: { id: number }) => i.id === res.json().id);
      return r && r.webhooks.pending === 0 ? r : null;
    });
    expect(row.webhooks).toEqual({ done: 0, pending: 0, failed: 1, skipped: 1 });
    const [task] = await queryRows<{ error: string }>(
      db(),
      sql`select error from privacy_tasks where deletion_id = ${res.json().id} and status = 'FAILED'`,
    );
    expect(task?.error).toMatch(/410/);
  });
});

describe('LEAD_RETENTION_DAYS', () => {
  it('anonymizes leads received longer ago than the limit, keeps the newer ones, and suppresses nobody', async () => {
    const phone = e164(uniquePhone());
    const day = 86_400_000;
    const [old, recent] = await insertLeads(ctx, [
      { firstName: 'Rita', phone, createdAt: new Date(Date.now() - 40 * day) },
      { firstName: 'Nora', phone: e164(uniquePhone()), createdAt: new Date(Date.now() - 10 * day) },
    ]);
    const ports = ctx.app.leadPorts.delivery;
    // off while unset
    expect(await anonymizeExpiredLeads(db(), ports)).toBe(0);
    const limited = { ...ports, config: { ...ports.config, LEAD_RETENTION_DAYS: 30 } };
    expect(await anonymizeExpiredLeads(db(), limited)).toBeGreaterThanOrEqual(1);
    expect(await leadRow(old!.id)).toMatchObject({
      firstName: null,
      phone: null,
      anonymized: true,
    });
    expect(await leadRow(recent!.id)).toMatchObject({ firstName: 'Nora', anonymized: false });
    expect(await anonymizeExpiredLeads(db(), limited)).toBe(0);
    // not a consumer's request: the same phone may come back
    const key = await newSourceKey();
    expect((await postLead(key, { phone })).statusCode).toBe(201);
  });
});
