/**
 * Generated files on the CSV import: random bytes, CSV-ish text with quotes, commas and line
 * breaks, huge fields, wrong headers, odd file names and types, broken multipart envelopes.
 * Invariants: never a 5xx; a refused upload stores no lead and changes no table except, at
 * most, one FAILED record of the attempt in imports; an accepted one stores exactly the leads
 * it reports as imported.
 */
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEAD_CATEGORIES, STATE_CODES, US_STATES } from '../src/shared/domain';
import { uniqueEmail } from './support/lead-contact';
import {
  createFixtures,
  type Fixtures,
  FuzzTally,
  multipartFile,
  probe,
  validCsv,
} from './support/route-table';
import { setupTestApp } from './support/test-app';

const RUNS = Number(process.env.FUZZ_RUNS ?? 300);
const TIMEOUT = 600_000;
const MAX_UPLOAD = 1.25 * 1024 * 1024;
const ROUTE = 'POST /api/admin/leads/import';

const ctx = setupTestApp({ MAX_UPLOAD_BYTES: MAX_UPLOAD });
const tally = new FuzzTally();
let fx: Fixtures;

beforeAll(async () => {
  fx = await createFixtures(ctx);
});

afterAll(() => {
  console.log(tally.report('fuzzing the CSV import: files tried'));
});

// ---------- generators ----------

const COLUMNS = [
  'externalId',
  'firstName',
  'lastName',
  'phone',
  'email',
  'city',
  'state',
  'age',
  'category',
] as const;
type Column = (typeof COLUMNS)[number];

const nasty = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '"',
    '""',
    '"a"b',
    'a"b',
    ',',
    '\n',
    '\r',
    '\r\n',
    '"\n"',
    '=cmd|"/c calc"!A1',
    '\uFEFF',
    '\uFFFD',
    '🙂',
    "'; drop table leads; --",
    'x'.repeat(201),
    'y'.repeat(20_000),
  ),
  fc.string({ maxLength: 30 }),
  fc.string({ unit: 'binary', maxLength: 30 }),
);

const ID_POOL = Array.from({ length: 30 }, (_, i) => `dup-${i}`);
const VALID: Record<Column, fc.Arbitrary<string>> = {
  externalId: fc.oneof(
    fc.constantFrom(...ID_POOL),
    fc.uuid(),
    fc.constant(''),
    fc.string({ minLength: 1, maxLength: 20 }),
  ),
  firstName: fc.string({ maxLength: 20 }),
  lastName: fc.string({ maxLength: 20 }),
  phone: fc.stringMatching(/^\+?[0-9 ()-]{7,15}$/),
  email: fc.oneof(fc.emailAddress(), fc.constant('')),
  city: fc.oneof(fc.constantFrom('Austin', 'New York', ' Dallas '), fc.string({ maxLength: 20 })),
  state: fc.oneof(
    fc.constantFrom(...STATE_CODES),
    fc.constantFrom(...Object.values(US_STATES)),
    fc.constantFrom(...STATE_CODES).map((s) => s.toLowerCase()),
  ),
  age: fc.oneof(
    fc.integer({ min: 18, max: 120 }).map(String),
    fc.integer({ min: -5, max: 200 }).map(String),
  ),
  category: fc.oneof(
    fc.constantFrom(...LEAD_CATEGORIES),
    fc.constantFrom(...LEAD_CATEGORIES).map((c) => c.toLowerCase()),
    fc.constantFrom('LIFE', 'final expense', 'final_expense '),
  ),
};

const header: fc.Arbitrary<string[]> = fc.oneof(
  {
    // the required columns and some optional ones, in any order
    weight: 8,
    arbitrary: fc
      .subarray(['externalId', 'firstName', 'lastName', 'phone', 'email'])
      .chain((optional) => {
        const all = ['state', 'city', 'age', 'category', ...optional];
        return fc.shuffledSubarray(all, { minLength: all.length });
      }),
  },
  { weight: 1, arbitrary: fc.shuffledSubarray([...COLUMNS], { minLength: 2 }) },
  {
    weight: 2,
    arbitrary: fc
      .constant([...COLUMNS])
      .map((cols) =>
        cols.map((c, i) => (i % 2 ? c.toUpperCase() : c.replace(/([A-Z])/g, '_$1').toLowerCase())),
      ),
  },
  { weight: 1, arbitrary: fc.array(nasty, { maxLength: 8 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom<string[]>(['name', 'phone'], ['state', 'city', 'age'], []),
  },
);

interface CsvSpec {
  columns: string[];
  rows: string[][];
  quoteAll: boolean;
  sloppy: boolean;
  eol: string;
  bom: boolean;
  tail: string;
}

const csvSpec: fc.Arbitrary<CsvSpec> = header.chain((columns) =>
  fc.record({
    columns: fc.constant(columns),
    rows: fc
      .array(
        fc.tuple(
          ...columns.map((c) =>
            fc.oneof(
              // own keys only: fast-check's header names include 'toString', 'valueOf' and '__proto__'
              { weight: 6, arbitrary: Object.hasOwn(VALID, c) ? VALID[c as Column] : nasty },
              { weight: 1, arbitrary: nasty },
            ),
          ),
          fc.array(nasty, { maxLength: 2 }),
        ),
        { maxLength: 25 },
      )
      .map((rows) =>
        rows.map((r) => {
          const extra = r.pop() as string[];
          const fields = r as string[];
          // sometimes a short or a long row
          return extra.length === 2 ? fields.slice(0, -1) : [...fields, ...extra];
        }),
      ),
    quoteAll: fc.boolean(),
    sloppy: fc.oneof({ weight: 3, arbitrary: fc.constant(false) }, fc.constant(true)),
    eol: fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom('\n', '\r\n') },
      { weight: 1, arbitrary: fc.constantFrom('\r', '\n\n') },
    ),
    bom: fc.boolean(),
    tail: fc.constantFrom('', '', '\n', '"unclosed', ',,,\n', '\n\n\n'),
  }),
);

function quote(value: string, s: CsvSpec): string {
  const needs = /[",\r\n]/.test(value);
  if (s.sloppy) return value; // quotes and separators left bare: malformed rows
  if (s.quoteAll || needs) return `"${value.replaceAll('"', '""')}"`;
  return value;
}

function renderCsv(s: CsvSpec): string {
  const lines = [s.columns, ...s.rows].map((r) => r.map((v) => quote(v, s)).join(','));
  return `${s.bom ? '\uFEFF' : ''}${lines.join(s.eol)}${s.eol}${s.tail}`;
}

interface Upload {
  body: Buffer;
  headers: Record<string, string>;
  label: string;
}

const fileName = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom('leads.csv', 'LEADS.CSV', 'my leads (1).csv') },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      'leads.txt',
      'leads.xlsx',
      'leads',
      '.csv',
      '../../etc/passwd.csv',
      'a\u0000b.csv',
      `${'n'.repeat(400)}.csv`,
      'naïve 🙂.csv',
      'a;b=c.csv',
    ),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 20 }) },
);
const mimeType = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('text/csv', 'application/vnd.ms-excel', 'text/plain') },
  {
    weight: 1,
    arbitrary: fc.constantFrom('image/png', 'application/pdf', '', 'text/csv; charset=utf-8'),
  },
);

const csvUpload: fc.Arbitrary<Upload> = fc
  .tuple(csvSpec, fileName, mimeType)
  .map(([spec, filename, type]) => ({
    ...multipartFile(renderCsv(spec), { filename: filename.replaceAll('"', ''), type }),
    label: 'csv-ish text',
  }));

const bytesUpload: fc.Arbitrary<Upload> = fc
  .oneof(
    fc.uint8Array({ maxLength: 4096 }),
    fc.uint8Array({ maxLength: 64 }).map((u) => new Uint8Array([0x50, 0x4b, 3, 4, ...u])),
    fc.uint8Array({ maxLength: 64 }).map((u) => new Uint8Array([0xff, 0xfe, ...u])),
    fc
      .uint8Array({ maxLength: 64 })
      .map((u) => new Uint8Array([...Buffer.from('state,city,age,category\n'), ...u])),
  )
  .map((u) => ({ ...multipartFile(Buffer.from(u)), label: 'random bytes' }));

/** Multipart envelopes that are wrong in themselves. */
const brokenEnvelope: fc.Arbitrary<Upload> = fc
  .tuple(
    fc.constantFrom(
      'no file part',
      'field name other than file',
      'two files',
      'cut before the closing boundary',
      'wrong boundary',
      'no boundary',
      'empty body',
      'garbage body',
      'part without headers',
    ),
    fc.nat({ max: 5 }),
  )
  .map(([kind]) => {
    const csv = validCsv(1);
    const b = 'XyZboundary';
    const mp = { 'content-type': `multipart/form-data; boundary=${b}` };
    const part = (name: string, filename?: string, content = csv) =>
      `--${b}\r\nContent-Disposition: form-data; name="${name}"${filename ? `; filename="${filename}"` : ''}\r\nContent-Type: text/csv\r\n\r\n${content}\r\n`;
    switch (kind) {
      case 'no file part':
        return { body: Buffer.from(`${part('note')}--${b}--\r\n`), headers: mp, label: kind };
      case 'field name other than file':
        return { ...multipartFile(csv, { field: 'upload' }), label: kind };
      case 'two files':
        return {
          body: Buffer.from(
            `${part('file', 'a.csv')}${part('file', 'b.csv', validCsv(1))}--${b}--\r\n`,
          ),
          headers: mp,
          label: kind,
        };
      case 'cut before the closing boundary':
        return { body: Buffer.from(part('file', 'a.csv')), headers: mp, label: kind };
      case 'wrong boundary':
        return {
          body: Buffer.from(`${part('file', 'a.csv')}--${b}--\r\n`),
          headers: { 'content-type': 'multipart/form-data; boundary=other' },
          label: kind,
        };
      case 'no boundary':
        return {
          body: Buffer.from(`${part('file', 'a.csv')}--${b}--\r\n`),
          headers: { 'content-type': 'multipart/form-data' },
          label: kind,
        };
      case 'empty body':
        return { body: Buffer.alloc(0), headers: mp, label: kind };
      case 'garbage body':
        return { body: Buffer.from('\r\n--\r\n--XyZ'), headers: mp, label: kind };
      default:
        return {
          body: Buffer.from(`--${b}\r\n\r\n${csv}\r\n--${b}--\r\n`),
          headers: mp,
          label: kind,
        };
    }
  });

const upload = fc.oneof(
  { weight: 7, arbitrary: csvUpload },
  { weight: 2, arbitrary: bytesUpload },
  { weight: 1, arbitrary: brokenEnvelope },
);

// ---------- the harness ----------

async function counts() {
  const result = (await ctx.database.db.execute(sql`
    select (select count(*) from leads)::int as leads,
           (select count(*) from imports)::int as imports,
           (select count(*) from imports where status = 'FAILED')::int as failed,
           (select coalesce(max(id), 0) from imports)::int as "lastImport"`)) as unknown as {
    rows: { leads: number; imports: number; failed: number; lastImport: number }[];
  };
  return result.rows[0];
}

const labels = new Map<string, number>();

async function tryUpload(u: Upload) {
  labels.set(u.label, (labels.get(u.label) ?? 0) + 1);
  const before = await counts();
  const res = await probe(
    ctx,
    tally,
    ROUTE,
    () =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/admin/leads/import',
        headers: { ...u.headers, cookie: fx.admin.client.cookie! },
        payload: u.body,
      }),
    // a refused upload may leave the FAILED record of the attempt, checked below
    { allowOnRefusal: { imports: true } },
  );
  const after = await counts();
  if (process.env.FUZZ_DEBUG) console.log(u.label, res.statusCode, res.body.slice(0, 90));
  if (res.statusCode >= 400) {
    expect(after.leads, `${u.label}: ${res.body}`).toBe(before.leads);
    expect(after.imports - before.imports).toBeLessThanOrEqual(1);
    expect(after.imports - before.imports, 'the recorded attempt is FAILED').toBe(
      after.failed - before.failed,
    );
  } else {
    const result = res.json();
    expect(res.statusCode).toBe(200);
    expect(after.leads - before.leads, `${u.label}: ${res.body.slice(0, 300)}`).toBe(
      result.imported,
    );
    expect(result.errors.length).toBeLessThanOrEqual(result.errorCount);
    for (const e of result.errors) expect(e.line).toBeGreaterThanOrEqual(2);
    expect(result.importId).toBe(after.lastImport);
  }
  return res;
}

describe('fuzzing the CSV import', () => {
  it('generated files and envelopes: never a 5xx; a refusal stores nothing', {
    timeout: TIMEOUT,
  }, async () => {
    await fc.assert(
      fc.asyncProperty(upload, async (u) => {
        await tryUpload(u);
      }),
      { numRuns: RUNS },
    );
    console.log(
      `CSV import inputs by kind: ${[...labels].map(([k, n]) => `${k} ${n}`).join(', ')}`,
    );
  });

  it('bugs found by fuzzing stay fixed: broken envelopes are a 400, a NUL in the file name is dropped', {
    timeout: TIMEOUT,
  }, async () => {
    const csv = validCsv(1);
    const b = 'XyZboundary';
    const part = `--${b}\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\nContent-Type: text/csv\r\n\r\n${csv}\r\n`;
    for (const [label, type, body] of [
      ['no boundary', 'multipart/form-data', `${part}--${b}--\r\n`],
      ['empty boundary', 'multipart/form-data; boundary=', `${part}--${b}--\r\n`],
      ['cut before the closing boundary', `multipart/form-data; boundary=${b}`, part],
    ]) {
      const res = await tryUpload({
        body: Buffer.from(body),
        headers: { 'content-type': type },
        label,
      });
      expect(res.statusCode, `${label}: ${res.body}`).toBe(400);
    }
    const named = await tryUpload({
      ...multipartFile(validCsv(1), { filename: 'a\u0000b.csv' }),
      label: 'NUL in the file name',
    });
    expect(named.statusCode, named.body).toBe(200);
    const result = (await ctx.database.db.execute(
      sql`select filename from imports where id = ${named.json().importId}`,
    )) as unknown as { rows: { filename: string }[] };
    expect(result.rows[0].filename).toBe('ab.csv');
  });

  it('an over-long line is a 400 storing nothing', { timeout: TIMEOUT }, async () => {
    const head = 'externalId,city,state,age,category\n';
    const longLine = `${head}huge-1,"${'a'.repeat(1024 * 1024 + 10)}",TX,60,ACA\n`;
    const res = await tryUpload({ ...multipartFile(longLine), label: 'over-long line' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/longer than/);
  });

  it('a file over the upload limit is a 413 storing nothing, declared or streamed', {
    timeout: TIMEOUT,
  }, async () => {
    // rows padded by an extra column, so few rows fill the limit
    const head = 'externalId,city,state,age,category,notes\n';
    const rows = [head];
    let size = head.length;
    for (let i = 0; size <= MAX_UPLOAD + 1024; i++) {
      const line = `big-${process.pid}-${i},Austin,TX,65,MEDICARE,${'n'.repeat(100_000)}\n`;
      rows.push(line);
      size += line.length;
    }
    const streamed = await tryUpload({ ...multipartFile(rows.join('')), label: 'over-size file' });
    expect(streamed.statusCode).toBe(413);
    rows.push(`big-last,Austin,TX,65,MEDICARE,${'n'.repeat(200_000)}\n`);
    const declared = await tryUpload({ ...multipartFile(rows.join('')), label: 'over-size file' });
    expect(declared.statusCode).toBe(413);
  });

  it('huge fields are row errors, the rest of the file is kept', { timeout: TIMEOUT }, async () => {
    const head = 'externalId,city,state,age,category,email\n';
    const wide = `${head}${Array.from({ length: 50 }, (_, i) => `wide-${process.pid}-${i},"${'c'.repeat(5000)}",TX,60,ACA,${uniqueEmail()}`).join('\n')}\nok-${process.pid},Austin,TX,60,ACA,${uniqueEmail()}\n`;
    const res = await tryUpload({ ...multipartFile(wide), label: 'huge fields' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ imported: 1, errorCount: 50 });
  });
});
