import { Readable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { STATE_TIME_ZONES } from '../../../shared/calling-window';
import { CsvFileError, MAX_ROW_CHARS } from './csv-tokenizer';
import { type CsvBatch, type ParsedLead, parseLeadCsv, type RowError } from './lead-csv';

const HEADER = 'externalId,firstName,lastName,phone,email,city,state,age,category';

interface Parsed {
  leads: ParsedLead[];
  errors: RowError[];
  batches: CsvBatch[];
}

async function* chunksOf(parts: (string | Buffer)[]): AsyncGenerator<Buffer> {
  for (const p of parts) yield typeof p === 'string' ? Buffer.from(p, 'utf8') : p;
}

async function parse(
  input: string | Buffer | (string | Buffer)[],
  opts?: { batchSize?: number },
): Promise<Parsed> {
  const parts = Array.isArray(input) ? input : [input];
  const batches: CsvBatch[] = [];
  for await (const batch of parseLeadCsv(chunksOf(parts), opts)) batches.push(batch);
  return {
    leads: batches.flatMap((b) => b.leads),
    errors: batches.flatMap((b) => b.errors),
    batches,
  };
}

async function fileError(input: string | Buffer | (string | Buffer)[]): Promise<CsvFileError> {
  try {
    await parse(input);
  } catch (err) {
    expect(err).toBeInstanceOf(CsvFileError);
    return err as CsvFileError;
  }
  throw new Error('expected a CsvFileError');
}

/** A file with the standard header and the given rows, LF line endings. */
const csv = (...rows: string[]) => `${[HEADER, ...rows].join('\n')}\n`;

/** The reason given for a single bad row. */
async function reasonFor(row: string): Promise<string> {
  const { leads, errors } = await parse(csv(row));
  expect(leads).toEqual([]);
  expect(errors).toHaveLength(1);
  expect(errors[0].line).toBe(2);
  return errors[0].reason;
}

const lead = (over: Partial<ParsedLead>): ParsedLead => ({
  line: 2,
  externalId: null,
  firstName: null,
  lastName: null,
  phone: null,
  // a lead needs a phone or an email: rows without a phone carry this one
  email: over.phone != null ? null : 'lead@example.com',
  city: 'Austin',
  state: 'TX',
  age: 65,
  category: 'MEDICARE',
  zip: null,
  timeZone: STATE_TIME_ZONES[over.state ?? 'TX'] as string,
  consentAt: null,
  consentText: null,
  trustedFormCertUrl: null,
  jornayaLeadId: null,
  consentIp: null,
  ...over,
});

describe('parseLeadCsv: valid rows', () => {
  it('parses rows into trimmed values, empty optional fields as null', async () => {
    const { leads, errors, batches } = await parse(
      csv(
        'A-1, Ann , Lee ,212-555-0100,ann@example.com,  Austin ,TX, 65 ,MEDICARE',
        ',,,,lead@example.com,Miami,FL,70,ACA',
      ),
    );
    expect(errors).toEqual([]);
    expect(leads).toEqual([
      lead({
        externalId: 'A-1',
        firstName: 'Ann',
        lastName: 'Lee',
        phone: '+12125550100',
        email: 'ann@example.com',
      }),
      lead({ line: 3, city: 'Miami', state: 'FL', age: 70, category: 'ACA' }),
    ]);
    expect(batches).toHaveLength(1);
    expect(batches[0].rowsSeen).toBe(2);
  });

  it('works with only the required columns, in any order, and ignores unknown columns', async () => {
    const { leads, errors } = await parse(
      'category,Notes,age,email,city,state\nACA,"call after 5pm, not before",40,lead@example.com,Boise,ID\n',
    );
    expect(errors).toEqual([]);
    expect(leads).toEqual([lead({ city: 'Boise', state: 'ID', age: 40, category: 'ACA' })]);
  });

  it('skips a UTF-8 byte order mark', async () => {
    const { leads, errors } = await parse(
      Buffer.concat([
        Buffer.from([0xef, 0xbb, 0xbf]),
        Buffer.from(csv(',,,,lead@example.com,Austin,TX,65,MEDICARE')),
      ]),
    );
    expect(errors).toEqual([]);
    expect(leads).toEqual([lead({})]);
  });

  it('accepts CRLF line endings', async () => {
    const text = `${HEADER}\r\nX1,Ann,,,lead@example.com,Austin,TX,65,MEDICARE\r\nX2,Bob,,,lead@example.com,Dallas,TX,70,ACA\r\n`;
    const { leads, errors } = await parse(text);
    expect(errors).toEqual([]);
    expect(leads).toEqual([
      lead({ externalId: 'X1', firstName: 'Ann' }),
      lead({
        line: 3,
        externalId: 'X2',
        firstName: 'Bob',
        city: 'Dallas',
        age: 70,
        category: 'ACA',
      }),
    ]);
  });

  it('accepts a last row without a line break, and ignores trailing and blank lines', async () => {
    const { leads, errors } = await parse(
      `${HEADER}\n,,,,lead@example.com,Austin,TX,65,MEDICARE\n\n,,,,lead@example.com,Dallas,TX,70,ACA\n\r\n,,,,,,,,\n\n`,
    );
    expect(errors).toEqual([]);
    expect(leads.map((l) => [l.line, l.city])).toEqual([
      [2, 'Austin'],
      [4, 'Dallas'],
    ]);
    const noFinalBreak = await parse(`${HEADER}\n,,,,lead@example.com,Austin,TX,65,MEDICARE`);
    expect(noFinalBreak.leads).toEqual([lead({})]);
  });

  it('reads RFC 4180 quoted fields: commas, line breaks and "" escapes', async () => {
    const text = [
      HEADER,
      '"Q-1","Mary ""Mo""","O\'Brien, Jr.","(212) 555-0101","m@x.io","Salt Lake City","UT","66","ACA"',
      'Q-2,"Two',
      'line name",Smith,,lead@example.com,"Austin",TX,65,MEDICARE',
      'Q-3,"",Poe,,lead@example.com,Reno,NV,"70",FINAL_EXPENSE',
      '',
    ].join('\r\n');
    const { leads, errors } = await parse(text);
    expect(errors).toEqual([]);
    expect(leads).toEqual([
      lead({
        externalId: 'Q-1',
        firstName: 'Mary "Mo"',
        lastName: "O'Brien, Jr.",
        phone: '+12125550101',
        email: 'm@x.io',
        city: 'Salt Lake City',
        state: 'UT',
        age: 66,
        category: 'ACA',
      }),
      lead({ line: 3, externalId: 'Q-2', firstName: 'Two\r\nline name', lastName: 'Smith' }),
      lead({
        line: 5,
        externalId: 'Q-3',
        lastName: 'Poe',
        city: 'Reno',
        state: 'NV',
        age: 70,
        category: 'FINAL_EXPENSE',
      }),
    ]);
  });

  it('gives correct line numbers after a quoted field spanning several lines', async () => {
    const text = csv(
      'L-1,"a',
      '',
      'b",,,lead@example.com,Austin,TX,65,MEDICARE',
      'L-2,,,,lead@example.com,Austin,XX,65,MEDICARE',
      'L-3,,,,lead@example.com,Austin,TX,65,MEDICARE',
    );
    const { leads, errors } = await parse(text);
    expect(leads.map((l) => [l.externalId, l.line])).toEqual([
      ['L-1', 2],
      ['L-3', 6],
    ]);
    expect(leads[0].firstName).toBe('a\n\nb');
    expect(errors).toEqual([{ line: 5, reason: "Invalid state: 'XX'" }]);
  });

  it('matches header names case-insensitively, trimmed, with snake_case and spaced variants', async () => {
    const text =
      ' EXTERNAL_ID ,First_Name,last name,PHONE,E-Mail, City ,STATE,Age,Category\n' +
      'e1,Ann,Lee,2125550101,a@b.co,Austin,TX,65,MEDICARE\n';
    const { leads, errors } = await parse(text);
    expect(errors).toEqual([]);
    expect(leads).toEqual([
      lead({
        externalId: 'e1',
        firstName: 'Ann',
        lastName: 'Lee',
        phone: '+12125550101',
        email: 'a@b.co',
      }),
    ]);
  });

  it('reads categories case-insensitively, with spaces or dashes for underscores', async () => {
    const rows = ['medicare', 'Aca', 'final expense', 'Final-Expense', ' FINAL_EXPENSE '].map(
      (c) => `,,,,lead@example.com,Austin,TX,65,${c}`,
    );
    const { leads, errors } = await parse(csv(...rows));
    expect(errors).toEqual([]);
    expect(leads.map((l) => l.category)).toEqual([
      'MEDICARE',
      'ACA',
      'FINAL_EXPENSE',
      'FINAL_EXPENSE',
      'FINAL_EXPENSE',
    ]);
  });

  it('maps state codes in any case and full state names to the code', async () => {
    const rows = ['ny', 'Ca', 'New York', 'new york', 'NORTH  CAROLINA', ' texas '].map(
      (s) => `,,,,lead@example.com,Somewhere,${s},65,ACA`,
    );
    const { leads, errors } = await parse(csv(...rows));
    expect(errors).toEqual([]);
    expect(leads.map((l) => l.state)).toEqual(['NY', 'CA', 'NY', 'NY', 'NC', 'TX']);
  });

  it('accepts ages 18 and 120 and surrounding spaces', async () => {
    const { leads, errors } = await parse(
      csv(
        ',,,,lead@example.com,Austin,TX,18,ACA',
        ',,,,lead@example.com,Austin,TX,120,ACA',
        ',,,,lead@example.com,Austin,TX," 65 ",ACA',
        ',,,,lead@example.com,Austin,TX,0065,ACA',
      ),
    );
    expect(errors).toEqual([]);
    expect(leads.map((l) => l.age)).toEqual([18, 120, 65, 65]);
  });

  it('reads a Node Readable stream', async () => {
    const stream = Readable.from([Buffer.from(csv(',,,,lead@example.com,Austin,TX,65,MEDICARE'))]);
    const leads: ParsedLead[] = [];
    for await (const batch of parseLeadCsv(stream)) leads.push(...batch.leads);
    expect(leads).toEqual([lead({})]);
  });
});

describe('parseLeadCsv: row errors', () => {
  it('rejects invalid states', async () => {
    expect(await reasonFor(',,,,lead@example.com,Austin,Xx,65,ACA')).toBe("Invalid state: 'Xx'");
    expect(await reasonFor(',,,,lead@example.com,Austin,Texas!,65,ACA')).toBe(
      "Invalid state: 'Texas!'",
    );
    expect(await reasonFor(',,,,lead@example.com,Austin,,65,ACA')).toBe('Missing state');
  });

  it('rejects ages out of 18..120 and non-integers', async () => {
    for (const age of ['17', '121', '65.0', 'abc', '-20', '6 5', '1e2', '0x41', '99999999999']) {
      expect(await reasonFor(`,,,,lead@example.com,Austin,TX,${age},ACA`)).toBe(
        `Age must be an integer from 18 to 120: '${age}'`,
      );
    }
    expect(await reasonFor(',,,,lead@example.com,Austin,TX,,ACA')).toBe('Missing age');
  });

  it('rejects unknown categories', async () => {
    expect(await reasonFor(',,,,lead@example.com,Austin,TX,65,LIFE')).toBe(
      "Unknown category: 'LIFE'",
    );
    expect(await reasonFor(',,,,lead@example.com,Austin,TX,65,')).toBe('Missing category');
  });

  it('rejects a missing city', async () => {
    expect(await reasonFor(',,,,lead@example.com,,TX,65,ACA')).toBe('Missing city');
    expect(await reasonFor(',,,,lead@example.com,"   ",TX,65,ACA')).toBe('Missing city');
  });

  it('rejects a lead with neither phone nor email', async () => {
    expect(await reasonFor(',Ann,Lee,,,Austin,TX,65,ACA')).toBe(
      'Missing phone and email: a lead needs at least one of them',
    );
  });

  it('rejects a malformed email and over-long values', async () => {
    expect(await reasonFor(',,,,not-an-email,Austin,TX,65,ACA')).toBe(
      "Invalid email: 'not-an-email'",
    );
    expect(await reasonFor(',,,,a b@c.com,Austin,TX,65,ACA')).toBe("Invalid email: 'a b@c.com'");
    expect(await reasonFor(`,${'x'.repeat(201)},,,lead@example.com,Austin,TX,65,ACA`)).toBe(
      'firstName is longer than 200 characters',
    );
    const ok = await parse(csv(`,${'x'.repeat(200)},,,lead@example.com,Austin,TX,65,ACA`));
    expect(ok.errors).toEqual([]);
  });

  it('lists every problem of a row in one error', async () => {
    expect(await reasonFor(',,,,lead@example.com,,ZZ,12,LIFE')).toBe(
      "Missing city; Invalid state: 'ZZ'; Age must be an integer from 18 to 120: '12'; Unknown category: 'LIFE'",
    );
  });

  it('reports a row with the wrong number of fields, and keeps the rows around it', async () => {
    const { leads, errors } = await parse(
      csv(
        ',,,,lead@example.com,Austin,TX,65,ACA',
        'Austin,TX,65,ACA,,,',
        ',,,,,Austin,TX,65,ACA,extra',
        ',,,,lead@example.com,Dallas,TX,65,ACA',
      ),
    );
    expect(leads.map((l) => [l.line, l.city])).toEqual([
      [2, 'Austin'],
      [5, 'Dallas'],
    ]);
    expect(errors).toEqual([
      { line: 3, reason: 'Expected 9 fields, found 7' },
      { line: 4, reason: 'Expected 9 fields, found 10' },
    ]);
  });

  it('leaves a repeated externalId to the database (it keeps no set of the ids seen)', async () => {
    const { leads, errors } = await parse(
      csv(
        'dup,,,,lead@example.com,Austin,TX,65,ACA',
        'other,,,,lead@example.com,Austin,TX,65,ACA',
        'dup,,,,lead@example.com,Dallas,TX,70,ACA',
        ' dup ,,,,lead@example.com,Dallas,TX,70,ACA',
      ),
    );
    expect(leads.map((l) => [l.line, l.externalId])).toEqual([
      [2, 'dup'],
      [3, 'other'],
      [4, 'dup'],
      [5, 'dup'],
    ]);
    expect(errors).toEqual([]);
  });

  it('reports text after a closing quote as a malformed row', async () => {
    const { leads, errors } = await parse(
      csv(',"Ann"x,,,lead@example.com,Austin,TX,65,ACA', ',,,,lead@example.com,Dallas,TX,65,ACA'),
    );
    expect(errors).toEqual([
      { line: 2, reason: 'Malformed quoted field (text after the closing quote)' },
    ]);
    expect(leads.map((l) => l.city)).toEqual(['Dallas']);
  });

  it('keeps a quote inside an unquoted field as text', async () => {
    const { leads, errors } = await parse(
      csv(',Ann "Nan" Lee,,,lead@example.com,Austin,TX,65,ACA'),
    );
    expect(errors).toEqual([]);
    expect(leads[0].firstName).toBe('Ann "Nan" Lee');
  });

  it('reports a row holding bytes that are not UTF-8', async () => {
    const bytes = Buffer.concat([
      Buffer.from(`${HEADER}\n,Jos`),
      Buffer.from([0xe9]), // "é" in Latin-1
      Buffer.from(',,,lead@example.com,Austin,TX,65,ACA\n,,,,lead@example.com,Dallas,TX,65,ACA\n'),
    ]);
    const { leads, errors } = await parse(bytes);
    expect(errors).toEqual([{ line: 2, reason: 'Contains bytes that are not valid UTF-8 text' }]);
    expect(leads.map((l) => l.city)).toEqual(['Dallas']);
  });
});

describe('parseLeadCsv: unusable files', () => {
  it('names a missing required column', async () => {
    const one = await fileError('externalId,city,age,category\nx,Austin,65,ACA\n');
    expect(one.message).toMatch(/^Missing required column: state\b/);
    expect(one.status).toBe(400);
    const two = await fileError('firstName,city,category\nAnn,Austin,ACA\n');
    expect(two.message).toMatch(/^Missing required columns: state, age\b/);
  });

  it('rejects a column named twice', async () => {
    const err = await fileError('state,city,age,category,State\nTX,Austin,65,ACA,TX\n');
    expect(err.message).toBe("The header names the state column twice ('state' and 'State')");
  });

  it('rejects a file with CR-only line endings, saying so', async () => {
    const err = await fileError('state,city,age,category\rTX,Austin,65,ACA\r');
    expect(err.message).toMatch(/CR only/);
  });

  it('rejects an empty file', async () => {
    for (const empty of ['', '\n\r\n', '\uFEFF']) {
      expect((await fileError(empty)).message).toMatch(/^The file is empty/);
    }
  });

  it('rejects binary input', async () => {
    const binary = Buffer.from([0x00, 0x01, 0x02, 0x89, 0x50, 0x4e, 0x47, 0x00, 0x0d, 0x0a]);
    expect((await fileError(binary)).message).toBe(
      'The file is not a CSV text file (it contains binary data)',
    );
    const xlsx = Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x06, 0x00]);
    expect((await fileError(xlsx)).message).toMatch(/Excel workbook, not CSV/);
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(HEADER, 'utf16le')]);
    expect((await fileError(utf16)).message).toMatch(/UTF-16/);
  });

  it('rejects NUL bytes after the header', async () => {
    const err = await fileError(
      csv(',,,,lead@example.com,Austin,TX,65,ACA', ',,,,lead@example.com,Aus\0tin,TX,65,ACA'),
    );
    expect(err.message).toMatch(/binary data/);
  });

  it('rejects a quoted field left open at the end of the file', async () => {
    const err = await fileError(
      csv(',,,,lead@example.com,Austin,TX,65,ACA', ',"Ann,,,,Austin,TX,65,ACA'),
    );
    expect(err.message).toBe('Line 3: a quoted field is not closed before the end of the file');
    expect(err.line).toBe(3);
  });

  it('rejects a line longer than the limit, even when it arrives in small chunks', async () => {
    const long = `,${'x'.repeat(MAX_ROW_CHARS)},,,lead@example.com,Austin,TX,65,ACA`;
    const err = await fileError(csv(',,,,lead@example.com,Austin,TX,65,ACA', long));
    expect(err.message).toMatch(/^Line 3 is longer than/);
    const chunks = [csv(), '"', ...Array.from({ length: 20 }, () => 'y'.repeat(64 * 1024))];
    expect((await fileError(chunks)).message).toMatch(/^Line 2 is longer than/);
  });
});

describe('parseLeadCsv: streaming', () => {
  const tricky = Buffer.from(
    `\uFEFF${HEADER}\r\n` +
      'é-1,"José ""Pepe""","Muñoz\r\nGarcía",212.555.0101,jose@example.com,San José,CA,65,"medicare"\r\n' +
      '€-2,Zoë 😀,,,lead@example.com,"Coeur d\'Alene, East",Idaho,70,"final expense"\r\n' +
      'bad,,,,lead@example.com,Austin,TX,17,ACA\r\n',
    'utf8',
  );
  const expected = {
    leads: [
      lead({
        externalId: 'é-1',
        firstName: 'José "Pepe"',
        lastName: 'Muñoz\r\nGarcía',
        phone: '+12125550101',
        email: 'jose@example.com',
        city: 'San José',
        state: 'CA',
      }),
      lead({
        line: 4,
        externalId: '€-2',
        firstName: 'Zoë 😀',
        city: "Coeur d'Alene, East",
        state: 'ID',
        age: 70,
        category: 'FINAL_EXPENSE',
      }),
    ],
    errors: [{ line: 5, reason: "Age must be an integer from 18 to 120: '17'" }],
  };

  it('gives the same result however the bytes are split into chunks', async () => {
    const whole = await parse(tricky);
    expect({ leads: whole.leads, errors: whole.errors }).toEqual(expected);
    // Every split point: inside the BOM, inside quotes, between CR and LF, inside é, € and 😀.
    for (let i = 1; i < tricky.length; i++) {
      const split = await parse([tricky.subarray(0, i), tricky.subarray(i)]);
      expect({ leads: split.leads, errors: split.errors }, `split at byte ${i}`).toEqual(expected);
    }
    const bytes = Array.from(tricky, (b) => Buffer.from([b]));
    const oneByOne = await parse(bytes);
    expect({ leads: oneByOne.leads, errors: oneByOne.errors }).toEqual(expected);
  });

  it('yields batches of the requested size with cumulative counters', async () => {
    const rows = Array.from(
      { length: 5 },
      (_, i) => `id-${i},,,,lead@example.com,Austin,TX,65,ACA`,
    );
    rows[3] = 'id-3,,,,lead@example.com,Austin,TX,65,LIFE';
    const text = csv(...rows);
    const { batches } = await parse(text, { batchSize: 2 });
    expect(batches.map((b) => [b.leads.length, b.errors.length, b.rowsSeen])).toEqual([
      [2, 0, 2],
      [1, 1, 4],
      [1, 0, 5],
    ]);
    expect(batches[2].bytesSeen).toBe(Buffer.byteLength(text));
  });

  it('yields one empty batch for a file with only a header', async () => {
    const { batches } = await parse(`${HEADER}\r\n`);
    expect(batches).toEqual([{ leads: [], errors: [], rowsSeen: 0, bytesSeen: HEADER.length + 2 }]);
  });

  it('round-trips generated leads through any quoting, line ending and chunking', async () => {
    // Any text but NUL (binary: a file error) and U+FFFD (read as a decoding error)
    const text = fc
      .string({
        maxLength: 12,
        unit: fc.oneof(
          fc.constantFrom('"', ',', '\n', '\r', '\r\n', ' ', 'a', 'é', '😀'),
          fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }),
        ),
      })
      .filter((s) => !/[\0\uFFFD]/.test(s));
    const leadArb = fc.record({
      externalId: fc.option(fc.stringMatching(/^[A-Za-z0-9-]{1,12}$/), { nil: null }),
      firstName: fc.option(text, { nil: null }),
      city: text,
      age: fc.integer({ min: 18, max: 120 }),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(leadArb, { maxLength: 8, selector: (l) => l.externalId ?? l }),
        fc.boolean(),
        fc.boolean(),
        fc.oneof(fc.array(fc.nat(), { maxLength: 6 }), fc.constant('bytes' as const)),
        async (rows, crlf, quoteLast, cuts) => {
          const eol = crlf ? '\r\n' : '\n';
          const quote = (v: string) => `"${v.replaceAll('"', '""')}"`;
          const lines = ['externalId,firstName,city,state,age,category,email'];
          const want: Partial<ParsedLead>[] = [];
          let line = 2;
          for (const r of rows) {
            const firstName = r.firstName?.trim() || null;
            const city = r.city.trim();
            if (city === '') continue;
            lines.push(
              [
                r.externalId ?? '',
                quote(r.firstName ?? ''),
                quote(r.city),
                'ny',
                r.age,
                quoteLast ? '"aca"' : 'aca',
                'lead@example.com',
              ].join(','),
            );
            want.push({ line, externalId: r.externalId, firstName, city, age: r.age });
            line += 1 + (`${r.firstName ?? ''}${r.city}`.match(/\n/g)?.length ?? 0);
          }
          const bytes = Buffer.from(lines.join(eol) + eol);
          const points =
            cuts === 'bytes'
              ? Array.from({ length: bytes.length }, (_, i) => i + 1)
              : [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
          const parts = [0, ...points].map((p, i) => bytes.subarray(p, points[i] ?? bytes.length));
          const { leads, errors } = await parse(parts);
          expect(errors).toEqual([]);
          expect(
            leads.map((l) => ({
              line: l.line,
              externalId: l.externalId,
              firstName: l.firstName,
              city: l.city,
              age: l.age,
            })),
          ).toEqual(want);
        },
      ),
      { numRuns: 300 },
    );
  });
});
