/**
 * Consent verified at intake (docs/domain.md, Consent verified at intake; decision 037): a source
 * set to TRUSTEDFORM has each lead's certificate retained and matched by TrustedForm's Certificate
 * API v4 (a stand-in on loopback) at the intake and at the import; SELLER_NAME's one-to-one rule
 * for MEDICARE leads; the admins' setting on the source.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppConfig } from '../src/server/config/env';
import { uniqueEmail, uniquePhone } from './support/lead-contact';
import { loginAdmin, registerAgent, setupTestApp } from './support/test-app';
import { TrustedFormStandIn } from './support/trustedform-stand-in';

const SELLER = 'Acme  Insurance Agency';
const standIn = new TrustedFormStandIn();
const overrides: Partial<AppConfig> = {
  ASSIGN_ON_IMPORT: false,
  TRUSTEDFORM_API_KEY: standIn.apiKey,
  SELLER_NAME: SELLER,
};
beforeAll(async () => {
  overrides.TRUSTEDFORM_API_BASE = await standIn.start();
});
afterAll(() => standIn.stop());

const ctx = setupTestApp(overrides);

let seq = 0;
const unique = () => `${process.pid}c${++seq}`;

async function newSource(consentVerification: 'NONE' | 'TRUSTEDFORM') {
  const admin = await loginAdmin(ctx);
  const source = (
    await admin.client.post('/api/admin/sources', {
      name: `Consent ${unique()}`,
      costPerLeadCents: 500,
    })
  ).json() as { id: number; name: string };
  if (consentVerification !== 'NONE') {
    const res = await admin.client.patch(`/api/admin/sources/${source.id}`, {
      consentVerification,
    });
    expect(res.statusCode, res.body).toBe(200);
  }
  const key = (await admin.client.post(`/api/admin/sources/${source.id}/keys`)).json() as {
    key: string;
  };
  return { admin, source, key: key.key };
}

function postLead(key: string, body: Record<string, unknown>) {
  return ctx.app.inject({
    method: 'POST',
    url: '/api/v1/leads',
    headers: { authorization: `Bearer ${key}` },
    payload: body,
  });
}

/** An ACA lead (SELLER_NAME's rule is for MEDICARE only) with the given certificate. */
function lead(contact: { phone: string; email: string }, over: Record<string, unknown> = {}) {
  return {
    firstName: 'Ann',
    lastName: 'Lee',
    phone: contact.phone,
    email: contact.email,
    city: 'Austin',
    state: 'TX',
    zip: '78701',
    age: 45,
    category: 'ACA',
    externalId: `ext-${unique()}`,
    ...over,
  };
}

const consent = (certUrl: string | null, text = 'I agree to be called') => ({
  at: '2026-11-24T15:04:05Z',
  text,
  ...(certUrl === null ? {} : { trustedFormCertUrl: certUrl }),
});

const contact = () => ({ phone: uniquePhone(), email: uniqueEmail('consent') });

describe('a source requiring TrustedForm, at the intake', () => {
  it('stores a lead whose certificate matches, with the outcome and expiry the drawer shows', async () => {
    const { admin, source, key } = await newSource('TRUSTEDFORM');
    const who = contact();
    const expiresAt = '2027-02-25T12:00:00.000Z';
    const cert = standIn.issue({ phone: who.phone, expiresAt });
    const body = lead(who, { consent: consent(cert) });
    const res = await postLead(key, body);
    expect(res.statusCode, res.body).toBe(201);

    const [call] = standIn.requestsFor(cert);
    expect(call).toMatchObject({ method: 'POST', apiVersion: '4.0', authorized: true });
    expect(call?.body?.retain).toEqual({ reference: body.externalId, vendor: source.name });
    expect(call?.body?.match_lead).toEqual({
      phone: `+1${who.phone.replace(/\D/g, '')}`,
      email: who.email,
    });

    const stored = (await admin.client.get(`/api/admin/leads/${res.json().id}`)).json();
    expect(stored).toMatchObject({ consentOutcome: 'VERIFIED', consentExpiresAt: expiresAt });
    expect(Date.parse(stored.consentVerifiedAt)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('matches on the email alone', async () => {
    const { key } = await newSource('TRUSTEDFORM');
    const who = contact();
    const cert = standIn.issue({ email: who.email.toUpperCase() });
    expect((await postLead(key, lead(who, { consent: consent(cert) }))).statusCode).toBe(201);
  });

  it.each([
    ['no certificate', () => null, /requires a TrustedForm certificate URL/],
    [
      'a certificate of someone else',
      () => standIn.issue({ phone: uniquePhone(), email: uniqueEmail('other') }),
      /does not match the lead's phone or email/,
    ],
    ['an expired certificate', () => standIn.issue({ expired: true }), /has expired/],
    [
      'an unknown certificate',
      () => `https://cert.trustedform.com/${'f'.repeat(40)}`,
      /certificate is unknown/,
    ],
    [
      'a certificate URL on another host',
      () => 'https://cert.trustedform.com.evil.example/0123456789abcdef0123456789abcdef01234567',
      /not a TrustedForm certificate URL/,
    ],
    [
      'a certificate URL to an internal address',
      () => 'http://169.254.169.254/latest/meta-data',
      /not a TrustedForm certificate URL/,
    ],
  ])('refuses %s with 422 consent and stores nothing', async (_, certUrl, message) => {
    const { admin, key, source } = await newSource('TRUSTEDFORM');
    const who = contact();
    const before = standIn.requests.length;
    const url = certUrl();
    const res = await postLead(key, lead(who, { consent: consent(url) }));
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json()).toMatchObject({
      reason: 'consent',
      message: expect.stringMatching(message),
      errors: [{ field: 'consent', message: expect.stringMatching(message) }],
    });
    // a host that is not TrustedForm's is never called
    if (url === null || !url.startsWith('https://cert.trustedform.com/')) {
      expect(standIn.requests.length).toBe(before);
    }
    const found = (
      await admin.client.get(`/api/admin/leads?q=${encodeURIComponent(who.email)}`)
    ).json();
    expect(found).toEqual([]);
    // counted in the source's refusals, under Consent
    // the UTC day and the one before hold the business day, in any US zone
    const today = new Date().toISOString().slice(0, 10);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const stats = (
      await admin.client.get(`/api/admin/analytics/sources?from=${yesterday}&to=${today}`)
    ).json();
    const mine = stats.sources.find((s: { sourceId: number }) => s.sourceId === source.id);
    expect(mine.refused).toMatchObject({ CONSENT: 1, DUPLICATE: 0 });
  });

  it('answers 503 with Retry-After when TrustedForm is down, and takes the lead once it is back', async () => {
    const { key } = await newSource('TRUSTEDFORM');
    const who = contact();
    const cert = standIn.issue({ phone: who.phone });
    const body = lead(who, { consent: consent(cert) });
    standIn.down = true;
    try {
      const res = await postLead(key, body);
      expect(res.statusCode, res.body).toBe(503);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      expect(res.json().message).toMatch(/could not be verified/);
    } finally {
      standIn.down = false;
    }
    expect((await postLead(key, body)).statusCode).toBe(201);
  });

  it('asks nothing of a source set to NONE', async () => {
    const { admin, key } = await newSource('NONE');
    const before = standIn.requests.length;
    const res = await postLead(key, lead(contact(), { consent: consent(null) }));
    expect(res.statusCode, res.body).toBe(201);
    expect(standIn.requests.length).toBe(before);
    const stored = (await admin.client.get(`/api/admin/leads/${res.json().id}`)).json();
    expect(stored).toMatchObject({ consentOutcome: null, consentExpiresAt: null });
  });
});

describe('one-to-one consent for MEDICARE (SELLER_NAME)', () => {
  const medicare = (text: string | null) =>
    lead(contact(), {
      category: 'MEDICARE',
      age: 67,
      consent: text === null ? undefined : consent(null, text),
    });

  it('takes consent text naming the seller, whatever its case and spacing', async () => {
    const { key } = await newSource('NONE');
    const res = await postLead(key, medicare('I agree that ACME insurance\n agency may call me'));
    expect(res.statusCode, res.body).toBe(201);
  });

  it('refuses consent text that names no seller, or no consent text at all (422 consent)', async () => {
    const { key } = await newSource('NONE');
    for (const text of ['I agree that its partners may call me', null]) {
      const res = await postLead(key, medicare(text));
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json()).toMatchObject({
        reason: 'consent',
        message: expect.stringMatching(/one-to-one consent/),
      });
    }
  });

  it('leaves other categories alone', async () => {
    const { key } = await newSource('NONE');
    expect((await postLead(key, lead(contact()))).statusCode).toBe(201);
  });
});

const HEADER =
  'externalId,phone,email,city,state,zip,age,category,consentAt,consentText,trustedFormCertUrl';

function csvRow(v: {
  phone: string;
  email: string;
  category?: string;
  text?: string;
  cert?: string;
}): string {
  return [
    `x-${unique()}`,
    v.phone,
    v.email,
    'Austin',
    'TX',
    '78701',
    v.category === 'MEDICARE' ? '67' : '45',
    v.category ?? 'ACA',
    '2026-11-24T15:04:05Z',
    `"${v.text ?? 'I agree to be called'}"`,
    v.cert ?? '',
  ].join(',');
}

async function importCsv(
  admin: Awaited<ReturnType<typeof loginAdmin>>,
  sourceId: number,
  rows: string[],
) {
  const form = new FormData();
  form.append('sourceId', String(sourceId));
  form.append('file', new Blob([`${HEADER}\n${rows.join('\n')}\n`], { type: 'text/csv' }), 'c.csv');
  const res = await admin.client.request('POST', '/api/admin/leads/import', form);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as {
    importId: number;
    imported: number;
    consent: number;
    duplicateLines: { line: number; reason: string }[];
  };
}

describe('a source requiring TrustedForm, at the import', () => {
  it('imports the rows whose certificate matches and reports the others by line', async () => {
    const { admin, source } = await newSource('TRUSTEDFORM');
    const good = contact();
    const alsoGood = contact();
    const other = contact();
    const rows = [
      csvRow({
        ...good,
        cert: standIn.issue({ phone: good.phone, expiresAt: '2027-03-01T00:00:00Z' }),
      }),
      csvRow({ ...other, cert: standIn.issue({ phone: uniquePhone() }) }),
      csvRow({ ...contact(), cert: standIn.issue({ expired: true }) }),
      csvRow({ ...contact() }),
      csvRow({ ...contact(), cert: `https://cert.trustedform.com/${'e'.repeat(40)}` }),
      csvRow({
        ...contact(),
        cert: 'https://example.com/0123456789abcdef0123456789abcdef01234567',
      }),
      csvRow({ ...alsoGood, cert: standIn.issue({ email: alsoGood.email }) }),
      csvRow({ ...contact(), category: 'MEDICARE', text: 'I agree', cert: standIn.issue({}) }),
    ];
    const result = await importCsv(admin, source.id, rows);
    expect(result.imported).toBe(2);
    expect(result.consent).toBe(6);
    expect(result.duplicateLines).toEqual([
      {
        line: 3,
        reason: "consent: the TrustedForm certificate does not match the lead's phone or email",
      },
      { line: 4, reason: 'consent: the TrustedForm certificate has expired' },
      {
        line: 5,
        reason:
          'consent: this source requires a TrustedForm certificate URL (consent.trustedFormCertUrl)',
      },
      { line: 6, reason: 'consent: the TrustedForm certificate is unknown' },
      { line: 7, reason: 'consent: not a TrustedForm certificate URL' },
      { line: 9, reason: expect.stringMatching(/^consent: .*one-to-one consent/) },
    ]);
    const record = (await admin.client.get(`/api/admin/imports/${result.importId}`)).json();
    expect(record).toMatchObject({ imported: 2, consent: 6 });

    const [stored] = (
      await admin.client.get(`/api/admin/leads?q=${encodeURIComponent(good.email)}`)
    ).json();
    expect(stored).toMatchObject({
      consentOutcome: 'VERIFIED',
      consentExpiresAt: '2027-03-01T00:00:00.000Z',
    });
    const [call] = standIn.requestsFor(rows[0]?.split(',').at(-1) as string);
    expect(call?.body?.retain?.vendor).toBe(source.name);
    expect(call?.body?.match_lead?.email).toBe(good.email);
  });

  it('reports each row "consent could not be verified" while TrustedForm is down', async () => {
    const { admin, source } = await newSource('TRUSTEDFORM');
    const who = contact();
    standIn.down = true;
    try {
      const result = await importCsv(admin, source.id, [
        csvRow({ ...who, cert: standIn.issue({ phone: who.phone }) }),
      ]);
      expect(result).toMatchObject({ imported: 0, consent: 1 });
      expect(result.duplicateLines).toEqual([
        { line: 2, reason: 'consent could not be verified (TrustedForm answered 503)' },
      ]);
    } finally {
      standIn.down = false;
    }
  });

  it('stops asking TrustedForm after 20 unavailable answers in a row, and still reports every row', async () => {
    const { admin, source } = await newSource('TRUSTEDFORM');
    const rows = Array.from({ length: 40 }, () => {
      const who = contact();
      return csvRow({ ...who, cert: standIn.issue({ phone: who.phone }) });
    });
    const before = standIn.requests.length;
    standIn.down = true;
    try {
      const result = await importCsv(admin, source.id, rows);
      expect(result).toMatchObject({ imported: 0, consent: 40 });
      expect(result.duplicateLines).toHaveLength(40);
      expect(result.duplicateLines.at(-1)?.reason).toMatch(/^consent could not be verified/);
    } finally {
      standIn.down = false;
    }
    // 20 in a row, plus the calls already under way (8 at a time)
    expect(standIn.requests.length - before).toBeLessThan(20 + 8);
  });

  it('checks SELLER_NAME on a source set to NONE without calling TrustedForm', async () => {
    const { admin, source } = await newSource('NONE');
    const before = standIn.requests.length;
    const result = await importCsv(admin, source.id, [
      csvRow({ ...contact(), category: 'MEDICARE', text: 'Acme Insurance Agency may call me' }),
      csvRow({ ...contact(), category: 'MEDICARE', text: 'Anyone may call me' }),
      csvRow({ ...contact() }),
    ]);
    expect(result).toMatchObject({ imported: 2, consent: 1 });
    expect(result.duplicateLines).toEqual([
      { line: 3, reason: expect.stringMatching(/does not name the seller/) },
    ]);
    expect(standIn.requests.length).toBe(before);
  });
});

describe('PATCH /api/admin/sources/{id} consentVerification', () => {
  it('sets and clears it, refuses another value (400), and is for admins only (403)', async () => {
    const { admin, source } = await newSource('NONE');
    const url = `/api/admin/sources/${source.id}`;
    const set = await admin.client.patch(url, { consentVerification: 'TRUSTEDFORM' });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().consentVerification).toBe('TRUSTEDFORM');
    const listed = (await admin.client.get('/api/admin/sources')).json() as {
      id: number;
      consentVerification: string;
    }[];
    expect(listed.find((s) => s.id === source.id)?.consentVerification).toBe('TRUSTEDFORM');

    const bad = await admin.client.patch(url, { consentVerification: 'JORNAYA' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toMatch(/consentVerification must be one of NONE, TRUSTEDFORM/);

    const agent = await registerAgent(ctx.app);
    expect((await agent.client.patch(url, { consentVerification: 'NONE' })).statusCode).toBe(403);

    const cleared = await admin.client.patch(url, { consentVerification: 'NONE' });
    expect(cleared.json().consentVerification).toBe('NONE');
  });
});
