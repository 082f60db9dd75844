import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CsvFileError,
  CsvTokenizer,
  MAX_ROW_CHARS,
  READ_SLICE,
  RECORD_BAD_BYTES,
  RECORD_TEXT_AFTER_QUOTE,
} from './csv-tokenizer';
import { type CsvBatch, parseLeadCsv } from './lead-csv';

interface Rec {
  fields: string[];
  line: number;
  flags: number;
}

async function* chunksOf(parts: (string | Buffer)[]): AsyncGenerator<Buffer> {
  for (const p of parts) yield typeof p === 'string' ? Buffer.from(p, 'utf8') : p;
}

/** The bytes of `text` in pieces of `size` bytes (the way an upload arrives). */
function pieces(text: string | Buffer, size: number): Buffer[] {
  const bytes = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
  const out: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size));
  return out;
}

async function records(parts: (string | Buffer)[]): Promise<Rec[]> {
  const out: Rec[] = [];
  const tokenizer = new CsvTokenizer({
    record: (fields, line, flags) => {
      out.push({ fields, line, flags });
      return false;
    },
  });
  for await (const _pause of tokenizer.read(chunksOf(parts))) {
    // the sink never asks for a pause
  }
  return out;
}

/** Records, or the file error's message. */
async function outcome(parts: (string | Buffer)[]): Promise<Rec[] | string> {
  try {
    return await records(parts);
  } catch (err) {
    if (err instanceof CsvFileError) return err.message;
    throw err;
  }
}

describe('CsvTokenizer', () => {
  it('cuts RFC 4180 text into records with the line each starts on', async () => {
    const text = 'a,b\r\n"x, ""y""","two\nlines"\n\n\r\nlast,"",\n"q"z,w';
    expect(await records([text])).toEqual([
      { fields: ['a', 'b'], line: 1, flags: 0 },
      { fields: ['x, "y"', 'two\nlines'], line: 2, flags: 0 },
      { fields: ['last', '', ''], line: 6, flags: 0 },
      { fields: ['qz', 'w'], line: 7, flags: RECORD_TEXT_AFTER_QUOTE },
    ]);
  });

  it('flags a record holding bytes that are not UTF-8', async () => {
    const bad = Buffer.concat([
      Buffer.from('a,b\nc,'),
      Buffer.from([0xc3, 0x28]),
      Buffer.from('\n'),
    ]);
    expect((await records([bad])).map((r) => r.flags)).toEqual([0, RECORD_BAD_BYTES]);
  });

  it('gives the same records (or the same error) however the input is cut', async () => {
    const text = fc.string({
      maxLength: 60,
      unit: fc.constantFrom('"', '""', ',', '\n', '\r', '\r\n', 'a', ' ', 'é', '😀', '\uFFFD'),
    });
    await fc.assert(
      fc.asyncProperty(text, fc.array(fc.nat(), { maxLength: 8 }), async (s, cuts) => {
        const bytes = Buffer.from(s, 'utf8');
        const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
        const parts = [0, ...points].map((p, i) => bytes.subarray(p, points[i] ?? bytes.length));
        expect(await outcome(parts)).toEqual(await outcome([bytes]));
        expect(await outcome(pieces(bytes, 1))).toEqual(await outcome([bytes]));
      }),
      { numRuns: 500 },
    );
  });

  it('lets the event loop run between slices of a large input', async () => {
    const row = 'x-1,Ann,Lee,212-555-0100,ann@example.com,Austin,TX,65,ACA\n';
    const file = Buffer.from(`${HEADER}\n${row.repeat(Math.ceil((4 * 1024 * 1024) / row.length))}`);
    let turns = 0;
    let parsing = true;
    const turn = () => {
      turns++;
      if (parsing) setImmediate(turn);
    };
    setImmediate(turn);
    const { leads } = await parse([file]); // one chunk: nothing but the parser would yield
    parsing = false;
    expect(leads).toBeGreaterThan(70_000);
    const slices = Math.floor(file.length / READ_SLICE);
    expect(turns).toBeGreaterThanOrEqual(slices / 2);
  });
});

const HEADER = 'externalId,firstName,lastName,phone,email,city,state,age,category';

/** Leads and row errors, with the CPU time the parse took (less sensitive than wall time to load). */
async function parse(parts: (string | Buffer)[]) {
  const batches: CsvBatch[] = [];
  const cpu = process.cpuUsage();
  const started = performance.now();
  for await (const batch of parseLeadCsv(chunksOf(parts))) batches.push(batch);
  const used = process.cpuUsage(cpu);
  return {
    leads: batches.reduce((n, b) => n + b.leads.length, 0),
    errors: batches.flatMap((b) => b.errors),
    cpuMs: (used.user + used.system) / 1000,
    wallMs: performance.now() - started,
  };
}

async function fileErrorOf(parts: (string | Buffer)[]) {
  const cpu = process.cpuUsage();
  try {
    await parse(parts);
  } catch (err) {
    const used = process.cpuUsage(cpu);
    expect(err).toBeInstanceOf(CsvFileError);
    return { message: (err as CsvFileError).message, cpuMs: (used.user + used.system) / 1000 };
  }
  throw new Error('expected a CsvFileError');
}

/**
 * Issue 13: a 2 MB file of rows like `"FL",,,,...` froze the server for 8 s (the parser searched
 * the rest of the row for its line end once per field, and read an incomplete row again from its
 * start whenever more bytes came). Each file here is a few MB built to hit a case that could take
 * more than linear time. Each one has to parse in under a second of CPU, as one chunk and as the
 * small pieces an upload can arrive in. Linear parsing takes a few hundred milliseconds on this
 * shared machine; the quadratic parser took 16 s or more. CPU time is used rather than wall time
 * because the machine is shared. Row errors must still say what is wrong.
 */
describe('parseLeadCsv: pathological files parse in linear time', () => {
  const LIMIT_MS = 1000;
  const cuts = [
    ['one chunk', (text: string) => [Buffer.from(text)]],
    ['64 KiB pieces', (text: string) => pieces(text, 64 * 1024)],
    ['1 KiB pieces', (text: string) => pieces(text, 1024)],
  ] as const;
  const rowErrors = (lines: number[], reason: string) => lines.map((line) => ({ line, reason }));
  const files: [string, string, { leads: number; errors: { line: number; reason: string }[] }][] = [
    [
      'a million commas after a quoted field (2 MB)',
      `${HEADER}\n${`"FL"${','.repeat(1_000_000)}\n`.repeat(2)}`,
      { leads: 0, errors: rowErrors([2, 3], 'Expected 9 fields, found 1000001') },
    ],
    [
      'long quoted fields made of doubled quotes (3 MB)',
      `${HEADER}\n${`x,"${'""'.repeat(400_000)}",,,a@example.com,Austin,TX,65,ACA\n`.repeat(4)}`,
      { leads: 0, errors: rowErrors([2, 3, 4, 5], 'firstName is longer than 200 characters') },
    ],
    [
      'very long unquoted rows (4 MB)',
      `${HEADER}\n${`${'y'.repeat(1_000_000)}\n`.repeat(4)}`,
      { leads: 0, errors: rowErrors([2, 3, 4, 5], 'Expected 9 fields, found 1') },
    ],
    [
      // white space only: a blank row (skipped), and a first name left empty (a valid lead)
      'many carriage returns, bare and quoted (3.6 MB)',
      `${HEADER}\r\n${`${'\r'.repeat(900_000)}\nx,"${'\r'.repeat(900_000)}",,,a@example.com,Austin,TX,65,ACA\r\n`.repeat(2)}`,
      { leads: 2, errors: [] },
    ],
  ];
  for (const [name, file, expected] of files) {
    for (const [how, cut] of cuts) {
      it(`${name}, ${how}`, async () => {
        const result = await parse(cut(file));
        expect({ leads: result.leads, errors: result.errors }).toEqual(expected);
        expect(result.cpuMs).toBeLessThan(LIMIT_MS);
      });
    }
  }

  const tooLong = [
    ['unquoted', `${'z'.repeat(2_000_000)}\n`],
    ['commas after a quoted field', `"FL"${','.repeat(2_000_000)}\n`],
    ['a quoted field never closed', `"${'""'.repeat(1_000_000)}\n`],
    ['carriage returns', '\r'.repeat(2_000_000)],
  ];
  for (const [name, row] of tooLong) {
    it(`reports a row over the limit as a file error, quickly: ${name}`, async () => {
      for (const [, cut] of cuts) {
        const { message, cpuMs } = await fileErrorOf(cut(`${HEADER}\n${row}`));
        expect(message).toBe(
          `Line 2 is longer than ${MAX_ROW_CHARS.toLocaleString('en-US')} characters; check that every quoted field is closed`,
        );
        expect(cpuMs).toBeLessThan(LIMIT_MS);
      }
    });
  }
});
