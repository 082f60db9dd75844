/**
 * Lead quality at the door (docs/domain.md, Lead quality; docs/decisions/018): normalized phones and emails, ZIP and
 * time zone, consent columns, duplicates by phone / email / externalId, the do-not-call list,
 * and the refusals recorded per source, at import and at the intake.
 */
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../src/server/db/client';
import {
  IMPORT_GROUP_ROWS,
  PGLITE_IMPORT_GROUP_ROWS,
} from '../src/server/modules/imports/imports.service';
import { IMPORT_GATE_LOCK } from '../src/server/modules/leads/lead-life.service';
import { streamedUpload, uploadCsv } from './support/csv-upload';
import { e164, uniqueEmail, uniquePhone } from './support/lead-contact';
import { loginAdmin, setupTestApp } from './support/test-app';
import { TEST_DB } from './support/test-db';

const ctx = setupTestApp({ ASSIGN_ON_IMPORT: false, DUPLICATE_WINDOW_DAYS: 30 });
const db = () => ctx.database.db;

let seq = 0;
const unique = () => `${process.pid}q${++seq}`;

const HEADER =
  'externalId,firstName,lastName,phone,email,city,state,zip,age,category,consentAt,trustedFormCertUrl,jornayaLeadId,consentIp';

function row(over: Partial<Record<string, string>> = {}): string {
  const v = {
    externalId: `x-${unique()}`,
    firstName: 'Ann',
    lastName: 'Lee',
    phone: uniquePhone(),
    email: uniqueEmail(),
    city: 'Austin',
    state: 'TX',
    zip: '',
    age: '67',
    category: 'MEDICARE',
    consentAt: '',
    trustedFormCertUrl: '',
    jornayaLeadId: '',
    consentIp: '',
    ...over,
  };
  return HEADER.split(',')
    .map((k) => v[k as keyof typeof v])
    .join(',');
}

async function newSource() {
  const admin = await loginAdmin(ctx);
  const source = (
    await admin.client.post('/api/admin/sources', {
      name: `Quality ${unique()}`,
      costPerLeadCents: 500,
    })
  ).json() as { id: number };
  const key = (await admin.client.post(`/api/admin/sources/${source.id}/keys`)).json() as {
    key: string;
  };
  return { admin, sourceId: source.id, key: key.key };
}

async function importCsv(lines: string[], sourceId?: number) {
  const admin = await loginAdmin(ctx);
  const csv = `${HEADER}\n${lines.join('\n')}\n`;
  const res = sourceId
    ? await (async () => {
        const form = new FormData();
        form.append('sourceId', String(sourceId));
        form.append('file', new Blob([csv], { type: 'text/csv' }), 'q.csv');
        return admin.client.request('POST', '/api/admin/leads/import', form);
      })()
    : await uploadCsv(admin.client, csv, 'q.csv');
  expect(res.statusCode, res.body).toBe(200);
  const result = res.json() as {
    importId: number;
    imported: number;
    duplicates: number;
    dnc: number;
    errorCount: number;
    errors: { line: number; reason: string }[];
    duplicateLines: { line: number; reason: string }[];
  };
  const record = (await admin.client.get(`/api/admin/imports/${result.importId}`)).json();
  return { result, record };
}

function postLead(key: string, body: Record<string, unknown>) {
  return ctx.app.inject({
    method: 'POST',
    url: '/api/v1/leads',
    headers: { authorization: `Bearer ${key}` },
    payload: body,
  });
}

const intakeLead = (over: Record<string, unknown> = {}) => ({
  firstName: 'Ann',
  lastName: 'Lee',
  phone: uniquePhone(),
  email: uniqueEmail('intake'),
  city: 'Austin',
  state: 'TX',
  age: 67,
  category: 'MEDICARE',
  externalId: `ext-${unique()}`,
  ...over,
});

async function leadById(id: number) {
  const [lead] = await queryRows<Record<string, string | null>>(
    db(),
    sql`select phone, email, zip, time_zone, consent_at::text as consent_at,
               trusted_form_cert_url, jornaya_lead_id, consent_ip
          from leads where id = ${id}`,
  );
  return lead;
}

async function leadsOfImport(importId: number) {
  return queryRows<Record<string, string | null>>(
    db(),
    sql`select external_id, phone, email, zip, time_zone, consent_at, trusted_form_cert_url,
               jornaya_lead_id, consent_ip
          from leads where import_id = ${importId} order by id`,
  );
}

async function refusals(where: { importId?: number; sourceId?: number }) {
  const rows = await queryRows<{ reason: string; n: number }>(
    db(),
    where.importId
      ? sql`select reason::text, n from lead_refusals where import_id = ${where.importId} order by reason`
      : sql`select reason::text, sum(n)::int as n from lead_refusals
             where source_id = ${where.sourceId} and import_id is null group by reason order by reason`,
  );
  return Object.fromEntries(rows.map((r) => [r.reason, Number(r.n)]));
}

describe('import: normalized contact data, ZIP, time zone, consent', () => {
  it('stores phones in E.164, emails lower-cased, the ZIP and its time zone, and the consent columns', async () => {
    const x1 = `x-${unique()}`;
    const x2 = `x-${unique()}`;
    const phone = uniquePhone();
    const { result } = await importCsv([
      row({
        externalId: x1,
        phone: `(${phone.slice(0, 3)}) ${phone.slice(4)}`,
        email: '  Ann.Lee@Example.COM ',
        state: 'FL',
        city: 'Pensacola',
        zip: '32501-1234',
        consentAt: '2026-03-01T14:30:00Z',
        trustedFormCertUrl: 'https://cert.trustedform.com/abc',
        jornayaLeadId: 'J-1',
        consentIp: '203.0.113.9',
      }),
      row({ externalId: x2, state: 'FL', city: 'Miami', zip: '' }),
    ]);
    expect(result).toMatchObject({ imported: 2, duplicates: 0, dnc: 0, errorCount: 0 });
    const [a, b] = await leadsOfImport(result.importId);
    expect(a).toMatchObject({
      external_id: x1,
      phone: e164(phone),
      email: 'ann.lee@example.com',
      zip: '32501',
      time_zone: 'America/Chicago', // Pensacola: the Panhandle is Central, Florida's main zone Eastern
      trusted_form_cert_url: 'https://cert.trustedform.com/abc',
      jornaya_lead_id: 'J-1',
      consent_ip: '203.0.113.9',
    });
    expect(new Date(a?.consent_at as string).toISOString()).toBe('2026-03-01T14:30:00.000Z');
    expect(b).toMatchObject({ external_id: x2, zip: null, time_zone: 'America/New_York' });
  });

  it('refuses a bad phone, a malformed ZIP and a bad consentAt as row errors with their reasons, counted INVALID', async () => {
    const { result, record } = await importCsv([
      row({ phone: '555-0100' }),
      row({ zip: '3250' }),
      row({ consentAt: 'yesterday' }),
      row(),
    ]);
    expect(result).toMatchObject({ imported: 1, errorCount: 3, duplicates: 0, dnc: 0 });
    expect(result.errors.map((e) => e.line)).toEqual([2, 3, 4]);
    expect(result.errors[0]?.reason).toMatch(
      /^Invalid phone: '555-0100' is not a valid phone number/,
    );
    expect(result.errors[1]?.reason).toMatch(/^Invalid zip: '3250'/);
    expect(result.errors[2]?.reason).toMatch(/^Invalid consentAt: 'yesterday'/);
    expect(record).toMatchObject({ errorCount: 3, dnc: 0, duplicateLines: [] });
    expect(await refusals({ importId: result.importId })).toEqual({ INVALID: 3 });
  });
});

describe('import: duplicates and the do-not-call list', () => {
  it('refuses, by line, repeats inside the file and leads already received by phone, email or externalId', async () => {
    const { sourceId } = await newSource();
    const earlier = await importCsv([row({ phone: '212-555-0150' })], sourceId); // no clash
    expect(earlier.result.imported).toBe(1);
    const stored = await importCsv(
      [row({ phone: uniquePhone(), email: 'stored@example.com', externalId: 'same-x' })],
      sourceId,
    );
    const [storedLead] = await queryRows<{ id: string; phone: string }>(
      db(),
      sql`select id::text, phone from leads where import_id = ${stored.result.importId}`,
    );
    const p = uniquePhone();
    const { result, record } = await importCsv(
      [
        row({ phone: p }), // 2: kept
        row({ phone: `+1 ${p}` }), // 3: same phone as line 2, written otherwise
        row({ email: 'STORED@example.com' }), // 4: same email as a stored lead
        row({ phone: storedLead?.phone as string }), // 5: same phone as a stored lead
        row({ externalId: 'same-x' }), // 6: the source already sent it
        row({ email: 'twice@example.com' }), // 7: kept
        row({ email: 'twice@example.com' }), // 8: same email as line 7
        row(), // 9: kept
      ],
      sourceId,
    );
    const id = storedLead?.id;
    expect(result).toMatchObject({ imported: 3, duplicates: 5, dnc: 0, errorCount: 0 });
    expect(result.duplicateLines).toEqual([
      { line: 3, reason: 'duplicate of line 2 (same phone)' },
      { line: 4, reason: `duplicate of lead ${id} (same email)` },
      { line: 5, reason: `duplicate of lead ${id} (same phone)` },
      { line: 6, reason: `duplicate of lead ${id} (same externalId)` },
      { line: 8, reason: 'duplicate of line 7 (same email)' },
    ]);
    expect(record).toMatchObject({ duplicates: 5, dnc: 0, duplicateLines: result.duplicateLines });
    expect(await refusals({ importId: result.importId })).toEqual({ DUPLICATE: 5 });
  });

  it('lets a phone or email through once the earlier lead is older than DUPLICATE_WINDOW_DAYS', async () => {
    const phone = uniquePhone();
    const first = await importCsv([row({ phone })]);
    expect(first.result.imported).toBe(1);
    expect((await importCsv([row({ phone })])).result.duplicates).toBe(1);
    await db().execute(
      sql`update leads set created_at = now() - interval '31 days' where import_id = ${first.result.importId}`,
    );
    const later = await importCsv([row({ phone })]);
    expect(later.result).toMatchObject({ imported: 1, duplicates: 0 });
  });

  it('finds a repeat across the import groups (set-based per group, earlier groups already stored)', async () => {
    const n = PGLITE_IMPORT_GROUP_ROWS + 5;
    const lines: string[] = [];
    const firstPhone = uniquePhone();
    for (let i = 0; i < n; i++) lines.push(row({ phone: i === 0 ? firstPhone : uniquePhone() }));
    lines.push(row({ phone: firstPhone })); // the last line repeats the first (another group on PGlite)
    const { result } = await importCsv(lines);
    expect(result).toMatchObject({ imported: n, duplicates: 1, errorCount: 0 });
    expect(result.duplicateLines).toHaveLength(1);
    expect(result.duplicateLines[0]?.line).toBe(n + 2);
    expect(result.duplicateLines[0]?.reason).toMatch(
      TEST_DB === 'pglite'
        ? /^duplicate of lead \d+ \(same phone\)$/
        : /^duplicate of line 2 \(same phone\)$/,
    );
  });

  it('refuses rows of a later group that repeat an earlier group, a stored lead or the do-not-call list', async () => {
    // stored before the file: a lead whose phone the file's second group repeats
    const storedPhone = uniquePhone();
    const before = await importCsv([row({ phone: storedPhone })]);
    const [storedLead] = await queryRows<{ id: string }>(
      db(),
      sql`select id::text as id from leads where import_id = ${before.result.importId}`,
    );
    const blocked = uniquePhone();
    await db().execute(sql`insert into dnc_numbers (phone) values (${e164(blocked)})`);
    const phone = uniquePhone();
    const email = uniqueEmail();
    const externalId = `x-${unique()}`;
    const lines = [row({ phone }), row({ email }), row({ externalId })];
    while (lines.length < IMPORT_GROUP_ROWS + 5) lines.push(row());
    // in the second group (the third on PGlite): file lines IMPORT_GROUP_ROWS + 7 ... + 10
    lines.push(
      row({ phone: `1-${phone}` }),
      row({ email: email.toUpperCase() }),
      row({ externalId }),
      row({ phone: storedPhone }),
      row({ phone: blocked }),
    );
    const { result } = await importCsv(lines);
    const first = await queryRows<{ id: string }>(
      db(),
      sql`select id::text as id from leads where import_id = ${result.importId}
           order by import_line limit 3`,
    );
    const line = IMPORT_GROUP_ROWS + 7;
    expect(result).toMatchObject({ imported: IMPORT_GROUP_ROWS + 5, duplicates: 4, dnc: 1 });
    expect(result.duplicateLines).toEqual([
      { line, reason: `duplicate of lead ${first[0]?.id} (same phone)` },
      { line: line + 1, reason: `duplicate of lead ${first[1]?.id} (same email)` },
      { line: line + 2, reason: `duplicate of lead ${first[2]?.id} (same externalId)` },
      { line: line + 3, reason: `duplicate of lead ${storedLead?.id} (same phone)` },
      { line: line + 4, reason: 'on the do-not-call list' },
    ]);
  }, 180_000);

  it('refuses a lead whose phone is on the do-not-call list, counted apart and listed by line', async () => {
    const blocked = uniquePhone();
    await db().execute(sql`insert into dnc_numbers (phone) values (${e164(blocked)})`);
    const { result, record } = await importCsv([row(), row({ phone: `1-${blocked}` }), row()]);
    expect(result).toMatchObject({ imported: 2, dnc: 1, duplicates: 0 });
    expect(result.duplicateLines).toEqual([{ line: 3, reason: 'on the do-not-call list' }]);
    expect(record).toMatchObject({ dnc: 1 });
    expect(await refusals({ importId: result.importId })).toEqual({ DNC: 1 });
    const stored = await leadsOfImport(result.importId);
    expect(stored.map((l) => l.phone)).not.toContain(e164(blocked));
  });
});

describe('where leads come from, and finding them by phone', () => {
  it('stores a Washington DC and a Puerto Rico lead with their zones, and refuses a ZIP of another state (422 on zip)', async () => {
    const { key } = await newSource();
    const dc = await postLead(key, intakeLead({ state: 'DC', city: 'Washington', zip: '20001' }));
    expect(dc.statusCode, dc.body).toBe(201);
    const pr = await postLead(key, intakeLead({ state: 'PR', city: 'San Juan' }));
    expect(pr.statusCode, pr.body).toBe(201);
    expect(await leadById(dc.json().id)).toMatchObject({
      zip: '20001',
      time_zone: 'America/New_York',
    });
    expect(await leadById(pr.json().id)).toMatchObject({ time_zone: 'America/Puerto_Rico' });
    const wrong = await postLead(key, intakeLead({ state: 'WI', city: 'Madison', zip: '63005' }));
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().errors).toEqual([{ field: 'zip', message: 'Zip 63005 is in MO, not WI' }]);
  });

  it('finds a lead by its phone however it is written, in the admin list and the export', async () => {
    const { key, admin } = await newSource();
    const phone = uniquePhone(); // 212-NXX-XXXX
    const digits = phone.replace(/\D/g, '');
    const stored = await postLead(key, intakeLead({ phone }));
    const id = stored.json().id as number;
    const spellings = [
      `(${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}`,
      `${digits.slice(0, 3)}.${digits.slice(3, 6)}.${digits.slice(6)}`,
      `+1 ${digits.slice(0, 3)} ${digits.slice(3, 6)} ${digits.slice(6)}`,
      `${digits.slice(3, 6)}-${digits.slice(6)}`,
    ];
    for (const q of spellings) {
      const res = await admin.client.get(`/api/admin/leads?q=${encodeURIComponent(q)}&limit=100`);
      expect(res.statusCode).toBe(200);
      expect(
        (res.json() as { id: number }[]).map((l) => l.id),
        q,
      ).toContain(id);
    }
    const csv = await admin.client.get(
      `/api/admin/leads/export?q=${encodeURIComponent(spellings[0] as string)}`,
    );
    expect(csv.body).toContain(e164(phone));
  });
});

describe('intake: the same rules', () => {
  it('stores the phone in E.164, the email lower-cased, the ZIP and its time zone', async () => {
    const { key } = await newSource();
    const phone = uniquePhone();
    const res = await postLead(
      key,
      intakeLead({
        phone: `(${phone.slice(0, 3)}) ${phone.slice(4)}`,
        email: ' Bo@Example.COM',
        zip: '85001',
        state: 'AZ',
        city: 'Phoenix',
      }),
    );
    expect(res.statusCode, res.body).toBe(201);
    expect(await leadById(res.json().id)).toMatchObject({
      phone: e164(phone),
      email: 'bo@example.com',
      zip: '85001',
      time_zone: 'America/Phoenix',
    });
  });

  it('answers 422 invalid with the phone field for a bad phone, and counts an INVALID refusal', async () => {
    const { key, sourceId } = await newSource();
    const res = await postLead(key, intakeLead({ phone: '12345' }));
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ reason: 'invalid' });
    expect(res.json().errors).toEqual([
      expect.objectContaining({ field: 'phone', message: expect.stringMatching(/^Invalid phone/) }),
    ]);
    const zip = await postLead(key, intakeLead({ zip: 'abc' }));
    expect(zip.statusCode).toBe(422);
    expect(zip.json().errors).toEqual([expect.objectContaining({ field: 'zip' })]);
    expect(await refusals({ sourceId })).toEqual({ INVALID: 2 });
  });

  it('answers 422 duplicate for the same phone or email within the window, and keeps the externalId retry idempotent', async () => {
    const { key, sourceId } = await newSource();
    const first = intakeLead();
    const stored = await postLead(key, first);
    expect(stored.statusCode, stored.body).toBe(201);
    const id = stored.json().id;

    const again = await postLead(key, first); // the same externalId: a retry, not a refusal
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ id, duplicate: true });

    const samePhone = await postLead(key, intakeLead({ phone: first.phone }));
    expect(samePhone.statusCode).toBe(422);
    // the vendor learns "duplicate", never which lead, field or source (issue 24 item 11)
    expect(samePhone.json()).toEqual({
      reason: 'duplicate',
      message:
        'The lead is refused: a lead with the same phone or email was received in the last 30 days',
      errors: [],
    });
    expect(samePhone.body).not.toContain(String(id));
    const sameEmail = await postLead(key, intakeLead({ email: first.email.toUpperCase() }));
    expect(sameEmail.statusCode).toBe(422);
    expect(sameEmail.json()).toMatchObject({ reason: 'duplicate', errors: [] });

    // an import's lead counts too
    const imported = await importCsv([row()]);
    const [importedLead] = await leadsOfImport(imported.result.importId);
    const viaImport = await postLead(key, intakeLead({ phone: importedLead?.phone }));
    expect(viaImport.json()).toMatchObject({ reason: 'duplicate' });

    expect(await refusals({ sourceId })).toEqual({ DUPLICATE: 3 });
    const [{ n }] = await queryRows<{ n: number }>(
      db(),
      sql`select count(*)::int as n from leads where phone = ${first.phone.replace(/\D/g, '').replace(/^/, '+1')}`,
    );
    expect(n).toBe(1);
  });

  it('stores one of two leads with the same phone sent at the same moment, and refuses the other', async () => {
    const { key } = await newSource();
    const phone = uniquePhone();
    const answers = await Promise.all([
      postLead(key, intakeLead({ phone })),
      postLead(key, intakeLead({ phone })),
      postLead(key, intakeLead({ phone })),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 422, 422]);
    const [{ n }] = await queryRows<{ n: number }>(
      db(),
      sql`select count(*)::int as n from leads where phone = ${e164(phone)}`,
    );
    expect(n).toBe(1);
  });

  it('answers 422 refused for a phone on the do-not-call list, without saying why', async () => {
    const { key, sourceId } = await newSource();
    const blocked = uniquePhone();
    await db().execute(sql`insert into dnc_numbers (phone) values (${e164(blocked)})`);
    const res = await postLead(key, intakeLead({ phone: blocked }));
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ reason: 'refused', message: 'The lead is refused', errors: [] });
    expect(await refusals({ sourceId })).toEqual({ DNC: 1 });
  });
});

// PGlite has one connection, which an import's transaction holds until it ends: an intake request
// waits for the import and then sees its leads, so only PostgreSQL can interleave the two.
describe.runIf(TEST_DB === 'postgres')('an intake request while a CSV import runs', () => {
  it('keeps one lead per phone: the import drops its rows that the intake received meanwhile, and names their lines', async () => {
    const { key, sourceId } = await newSource();
    const admin = await loginAdmin(ctx);
    const lines: string[] = [];
    // two groups and some: the first is written when the second ends (the writer is a group
    // behind the parser)
    const count = 2 * IMPORT_GROUP_ROWS + 500;
    for (let i = 0; i < count; i++) lines.push(row());
    const stream = streamedUpload(
      ctx.app,
      admin.client,
      'race.csv',
      `${HEADER}\n${lines.join('\n')}\n`,
    );
    const phoneOf = (i: number) => (lines[i] as string).split(',')[3] as string;
    // rows 0-8 are in the first group, written (uncommitted) before the intake posts
    const early = Array.from({ length: 9 }, (_, i) => i);
    // and one phone of the part not yet sent: the import's own check finds that one
    const late = uniquePhone();
    try {
      let seen: { imported: number } | undefined;
      for (let i = 0; i < 600 && !(seen && seen.imported >= IMPORT_GROUP_ROWS); i++) {
        const list = (await admin.client.get('/api/admin/imports?status=RUNNING')).json();
        seen = list.find((r: { filename: string }) => r.filename === 'race.csv');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(seen?.imported).toBe(IMPORT_GROUP_ROWS);
      for (const i of [...early.map(phoneOf), late]) {
        const res = await postLead(key, intakeLead({ phone: i }));
        expect(res.statusCode, res.body).toBe(201); // the import's rows are not committed yet
      }
    } finally {
      stream.finish(row({ phone: late }));
    }
    const res = await stream.answer;
    expect(res.statusCode, res.body).toBe(200);
    const result = res.json();
    expect(result).toMatchObject({ imported: count - 9, duplicates: 10 });
    // the rows dropped at the end, by line (header = line 1), and the one refused on the way
    const reported = result.duplicateLines as { line: number; reason: string }[];
    expect(reported.map((l) => l.line).sort((a, b) => a - b)).toEqual([
      ...early.map((i) => i + 2),
      count + 2,
    ]);
    for (const l of reported.filter((r) => r.line < 20)) {
      expect(l.reason).toMatch(
        /^duplicate of lead \d+ \(same phone\), received while the file was imported$/,
      );
    }
    const phones = [...early.map(phoneOf), late].map(e164);
    const stored = await queryRows<{ phone: string; n: number; intake: number }>(
      db(),
      sql`select phone, count(*)::int as n, count(*) filter (where source_id = ${sourceId})::int as intake
            from leads where phone = any(${`{${phones.join(',')}}`}::text[]) group by phone`,
    );
    expect(stored).toHaveLength(10);
    for (const s of stored) expect(s).toMatchObject({ n: 1, intake: 1 });
  }, 180_000);

  it('refuses an intake lead that an import ending at that moment committed, once the import is done', async () => {
    const { key } = await newSource();
    const phone = uniquePhone();
    const pool = ctx.database.pool;
    if (!pool) throw new Error('PostgreSQL has a pool');
    // an import at its end: holding the gate while it commits a lead with this phone
    const ending = await pool.connect();
    try {
      await ending.query('begin');
      await ending.query('select pg_advisory_xact_lock($1::int)', [IMPORT_GATE_LOCK]);
      const posted = postLead(key, intakeLead({ phone }));
      await new Promise((resolve) => setTimeout(resolve, 300)); // the request is waiting
      await ending.query(
        `insert into leads (first_name, phone, city, state, age, category, import_id, time_zone)
         values ('Imported', $1, 'Austin', 'TX', 67, 'MEDICARE', 0, 'America/Chicago')`,
        [e164(phone)],
      );
      await ending.query('commit');
      const res = await posted;
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json()).toMatchObject({ reason: 'duplicate' });
    } finally {
      ending.release();
    }
    const [{ n }] = await queryRows<{ n: number }>(
      db(),
      sql`select count(*)::int as n from leads where phone = ${e164(phone)}`,
    );
    expect(n).toBe(1);
  });
});
