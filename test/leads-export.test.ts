import { eq, inArray, like } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { leads } from '../src/server/db/schema';
import { businessDate } from '../src/server/lib/business-time';
import { insertLeads } from './support/agent-fixtures';
import { Client, loginAdmin, registerAgent, setupTestApp } from './support/test-app';

const ctx = setupTestApp();

const HEADER =
  'firstName,lastName,phone,email,city,state,age,category,status,externalId,createdAt,agentName,agentEmail,assignedAt,zip,timeZone,consentAt,consentText,trustedFormCertUrl,jornayaLeadId,consentIp';

let seq = 0;
/** A unique token for this file's rows, so a search only finds what a test created. */
function tag(prefix = 'x'): string {
  return `${prefix}${process.pid}q${Date.now().toString(36)}q${++seq}`;
}

/**
 * A strict RFC 4180 reader, written here so the test does not trust the code it checks: every
 * record must end with CRLF, a quoted field must close, and nothing may follow a closing quote
 * but a comma or the line break.
 */
function readCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let i = 0;
  while (i < text.length) {
    let field = '';
    if (text[i] === '"') {
      i++;
      for (;;) {
        if (i >= text.length) throw new Error('unclosed quote');
        if (text[i] === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        field += text[i++];
      }
    } else {
      while (i < text.length && text[i] !== ',' && text[i] !== '\r' && text[i] !== '\n') {
        if (text[i] === '"') throw new Error(`a quote inside an unquoted field at ${i}`);
        field += text[i++];
      }
    }
    record.push(field);
    if (text[i] === ',') {
      i++;
    } else if (text.startsWith('\r\n', i)) {
      records.push(record);
      record = [];
      i += 2;
    } else {
      throw new Error(`expected a comma or CRLF at ${i}, found ${JSON.stringify(text[i])}`);
    }
  }
  if (record.length > 0) throw new Error('the last record does not end with CRLF');
  return records;
}

/** The export as records, checked to start with the header. */
async function exportRows(client: Client, query = '') {
  const res = await client.get(`/api/admin/leads/export${query}`);
  expect(res.statusCode, res.body).toBe(200);
  const [header, ...rows] = readCsv(res.body);
  expect(header.join(',')).toBe(HEADER);
  for (const row of rows) expect(row).toHaveLength(21);
  return { res, rows };
}

function upload(client: Client, csv: string, filename = 'leads.csv') {
  const form = new FormData();
  form.append('file', new Blob([csv], { type: 'text/csv' }), filename);
  return client.request('POST', '/api/admin/leads/import', form);
}

describe('GET /api/admin/leads/export', () => {
  it('answers the leads as a CSV attachment named by the business date, newest first, with ZIP, time zone and consent', async () => {
    const admin = await loginAdmin(ctx);
    const t = tag('content');
    const [older, newer] = await insertLeads(ctx.database.db, [
      {
        firstName: 'Ann',
        lastName: t,
        phone: '555-0100',
        email: 'ann@example.com',
        city: 'Tulsa',
        state: 'OK',
        age: 61,
        category: 'FINAL_EXPENSE',
        createdAt: new Date('2031-03-04T05:06:07.089Z'),
      },
      {
        firstName: 'Bob',
        lastName: t,
        phone: null,
        email: null,
        city: 'Austin',
        state: 'TX',
        age: 70,
        category: 'MEDICARE',
        status: 'CONVERTED',
        createdAt: new Date('2031-03-05T00:00:00.000Z'),
      },
    ]);
    await ctx.database.db
      .update(leads)
      .set({
        externalId: `ext-${t}`,
        zip: '74103',
        timeZone: 'America/Chicago',
        consentAt: new Date('2031-03-04T05:00:00.000Z'),
        consentText: 'I agree to be called, texted, or emailed.',
        trustedFormCertUrl: 'https://cert.trustedform.com/0123456789abcdef',
        jornayaLeadId: 'LEADID-1234-ABCD',
        consentIp: '203.0.113.7',
      })
      .where(inArray(leads.id, [older.id]));
    // the newer lead is held by an agent: the export names them and the assignment's time
    const agent = await registerAgent(ctx.app, `Holder ${t}`);
    await ctx.database.db
      .update(leads)
      .set({ agentId: agent.id, assignedAt: new Date('2031-03-05T09:10:11.012Z') })
      .where(eq(leads.id, newer.id));

    const { res, rows } = await exportRows(admin.client, `?q=${t}`);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="leads-${businessDate(ctx.app.config.BUSINESS_TZ)}.csv"`,
    );
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body.startsWith(`${HEADER}\r\n`)).toBe(true);
    expect(rows).toEqual([
      [
        'Bob',
        t,
        '',
        '',
        'Austin',
        'TX',
        '70',
        'MEDICARE',
        'CONVERTED',
        '',
        newer.createdAt.toISOString(),
        agent.name,
        agent.email,
        '2031-03-05T09:10:11.012Z',
        '',
        '',
        '',
        '',
        '',
        '',
        '',
      ],
      [
        'Ann',
        t,
        '555-0100',
        'ann@example.com',
        'Tulsa',
        'OK',
        '61',
        'FINAL_EXPENSE',
        'NEW',
        `ext-${t}`,
        '2031-03-04T05:06:07.089Z',
        '',
        '',
        '',
        '74103',
        'America/Chicago',
        '2031-03-04T05:00:00.000Z',
        'I agree to be called, texted, or emailed.',
        'https://cert.trustedform.com/0123456789abcdef',
        'LEADID-1234-ABCD',
        '203.0.113.7',
      ],
    ]);
  });

  it('exports what the leads page lists for the same status and search, and only that', async () => {
    const admin = await loginAdmin(ctx);
    const t = tag('filter');
    await insertLeads(ctx.database.db, [
      { firstName: `Ann${t}`, status: 'NEW' },
      { lastName: `Lee${t}`, status: 'CONTACTED' },
      { phone: `+1 ${t} 555`, status: 'NEW' },
      { email: `mail.${t}@example.com`, status: 'CONVERTED' },
      { city: `City${t}`, status: 'NEW' }, // the city is not searched, on the page or here
    ]);
    const emails = (rows: string[][]) => rows.map((r) => r[3]);
    const listed = async (query: string) =>
      (await admin.client.get(`/api/admin/leads${query}&limit=1000`))
        .json()
        .map((l: { email: string }) => l.email);

    const cases: [string, number][] = [
      [`?q=${t.toUpperCase()}`, 4],
      [`?q=${t}&status=NEW`, 2],
      [`?q=${t}&status=CONVERTED`, 1],
      [`?q=ann${t}`, 1],
      [`?q=lee${t}%20${t}`, 1], // every word in one of the fields, as on the page
      [`?q=ann${t}%20lee${t}`, 0],
      [`?q=${t}&status=INVALID`, 0],
      [`?q=${t.slice(0, 4)}%25${t.slice(5)}`, 0], // LIKE wildcards match literally
    ];
    for (const [query, count] of cases) {
      const { rows } = await exportRows(admin.client, query);
      expect(rows, query).toHaveLength(count);
      expect(emails(rows), query).toEqual(await listed(query));
    }

    // no filter: every lead of the database, as many as the page's total
    const { rows: all } = await exportRows(admin.client);
    const page = await admin.client.get('/api/admin/leads?limit=1');
    expect(all).toHaveLength(Number(page.headers['x-total-count']));
    expect(all).toHaveLength(await ctx.database.db.$count(leads));
    // status filter alone
    const { rows: converted } = await exportRows(admin.client, '?status=CONVERTED');
    expect(converted.length).toBeGreaterThanOrEqual(1);
    expect(new Set(converted.map((r) => r[8]))).toEqual(new Set(['CONVERTED']));
  });

  it('walks every lead exactly once across batches, newest first', async () => {
    const admin = await loginAdmin(ctx);
    const t = tag('batch');
    const n = 4_321; // over two batches of 2,000
    const created = await insertLeads(
      ctx.database.db,
      Array.from({ length: n }, (_, i) => ({
        lastName: t,
        email: `b${i}.${t}@example.com`,
        status: i % 3 === 0 ? ('CONTACTED' as const) : ('NEW' as const),
      })),
    );
    const { rows } = await exportRows(admin.client, `?q=${t}`);
    // every lead once, the last inserted first, as on the page
    expect(rows.map((r) => r[3])).toEqual(created.map((l) => l.email).reverse());
    const contacted = created.filter((l) => l.status === 'CONTACTED');
    expect(contacted.length).toBe(1_441);
    const { rows: filtered } = await exportRows(admin.client, `?q=${t}&status=CONTACTED`);
    expect(filtered.map((r) => r[3])).toEqual(contacted.map((l) => l.email).reverse());
  });

  it('quotes commas, quotes and line breaks as RFC 4180 says', async () => {
    const admin = await loginAdmin(ctx);
    const t = tag('quote');
    await insertLeads(ctx.database.db, [
      { firstName: 'Lee, Jr.', lastName: t, city: 'Say "hi"', email: null },
      { firstName: 'two\r\nlines', lastName: t, city: 'one\nbreak', email: 'q@example.com' },
    ]);
    const res = await admin.client.get(`/api/admin/leads/export?q=${t}`);
    expect(res.body).toContain(`"Lee, Jr.",${t},`);
    expect(res.body).toContain(`,"Say ""hi""",`);
    expect(res.body).toContain(`"two\r\nlines",${t},`);
    const [, ...rows] = readCsv(res.body);
    expect(rows.map((r) => [r[0], r[4]]).sort()).toEqual(
      [
        ['Lee, Jr.', 'Say "hi"'],
        ['two\r\nlines', 'one\nbreak'],
      ].sort(),
    );
  });

  it.each([
    ['=', '=HYPERLINK("http://evil.example","x")'],
    ['+', '+1+cmd|calc'],
    ['-', '-2+3'],
    ['@', '@SUM(A1:A2)'],
    ['tab', '\t=1+1'],
    ['CR', '\r=1+1'],
  ])('neutralises a cell that starts with %s: a leading quote, and quoted', async (_, evil) => {
    const admin = await loginAdmin(ctx);
    const t = tag('inj');
    await insertLeads(ctx.database.db, [
      { firstName: evil, lastName: t, phone: evil, email: null, city: evil },
    ]);
    const res = await admin.client.get(`/api/admin/leads/export?q=${t}`);
    const cell = `"'${evil.replaceAll('"', '""')}"`;
    expect(res.body).toContain(`\r\n${cell},${t},${cell},,${cell},TX,`);
    const [, row] = readCsv(res.body);
    expect([row[0], row[2], row[4]]).toEqual([`'${evil}`, `'${evil}`, `'${evil}`]);
    // what a spreadsheet would read never starts a formula
    for (const value of row) expect(value).not.toMatch(/^[=+\-@\t\r]/);
  });

  it('refuses agents (403), anonymous callers (401) and a bad filter (400)', async () => {
    const agent = await registerAgent(ctx.app);
    const asAgent = await agent.client.get('/api/admin/leads/export');
    expect(asAgent.statusCode).toBe(403);
    expect(asAgent.json()).toEqual({ message: expect.any(String) });
    const anonymous = await new Client(ctx.app).get('/api/admin/leads/export?status=NEW');
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.body).not.toContain('firstName');
    const admin = await loginAdmin(ctx);
    const bad = await admin.client.get('/api/admin/leads/export?status=BOGUS');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/^Status must be one of/);
  });

  it('imports again into the same leads (round trip)', async () => {
    const admin = await loginAdmin(ctx);
    const t = tag('trip');
    // emails of this test only: another test's lead with the same email would be a duplicate
    const lines = [
      'externalId,firstName,lastName,phone,email,city,state,age,category',
      `${t}-1,Ann,${t},918-555-0100,ann.${t}@example.com,Tulsa,OK,61,FINAL_EXPENSE`,
      `${t}-2,"O'Hara, Jr.",${t},,ohara.${t}@example.com,"San Antonio",TX,88,MEDICARE`,
      `${t}-3,"Zoë ""Z""",${t},(208) 555-0200,zoe.${t}@example.com,Boise,ID,45,ACA`,
    ];
    const first = await upload(admin.client, `${lines.join('\r\n')}\r\n`);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ imported: 3, errors: [] });

    const exported = await admin.client.get(`/api/admin/leads/export?q=${t}`);
    const before = readCsv(exported.body).slice(1);
    expect(before).toHaveLength(3);

    // the leads are gone; the exported file brings them back
    await ctx.database.db.delete(leads).where(like(leads.externalId, `${t}-%`));
    expect((await exportRows(admin.client, `?q=${t}`)).rows).toEqual([]);
    const again = await upload(admin.client, exported.body, 'leads-export.csv');
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toMatchObject({ imported: 3, duplicates: 0, errors: [] });

    const after = (await exportRows(admin.client, `?q=${t}`)).rows;
    const withoutTime = (rows: string[][]) => rows.map((r) => r.slice(0, 10)).sort();
    expect(withoutTime(after)).toEqual(withoutTime(before));
    expect(withoutTime(after)).toContainEqual([
      "O'Hara, Jr.",
      t,
      '',
      `ohara.${t}@example.com`,
      'San Antonio',
      'TX',
      '88',
      'MEDICARE',
      'NEW',
      `${t}-2`,
    ]);
    // and importing the export once more stores nothing twice
    const third = await upload(admin.client, exported.body, 'leads-export.csv');
    expect(third.json()).toMatchObject({ imported: 0, duplicates: 3 });
  });
});
