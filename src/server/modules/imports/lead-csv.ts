/**
 * Streaming, validating CSV lead parser (pure: bytes in, batches of validated rows out).
 *
 * Hand-written rather than csv-parse: csv-parse 7 measured ~130k rows/s on simple rows with no
 * validation at all (60-90k rows/s with the `info` option needed for line numbers); this parser
 * runs the whole parse + validation at several times that. See docs/decisions/004-csv-parsing.md.
 *
 * Format: RFC 4180 (comma separator, `"` quoting with `""` escapes, commas and line breaks
 * inside quotes), CRLF or LF line endings, UTF-8 with or without BOM. Memory stays flat: at
 * most one batch of rows and one partial row are held, whatever the size of the file. A repeated
 * externalId is not this parser's business: the database's unique index skips the repeat (and
 * the import counts it as a duplicate), within a file as across files (docs/decisions/007).
 */
import { StringDecoder } from 'node:string_decoder';
import {
  LEAD_CATEGORIES,
  type LeadCategory,
  MAX_LEAD_AGE,
  MIN_LEAD_AGE,
  STATE_CODES,
  type StateCode,
  US_STATES,
} from '../../../shared/domain';
import { AppError } from '../../lib/app-error';

export interface ParsedLead {
  /** Physical line number in the file where the row starts (the header is line 1). */
  line: number;
  externalId: string | null;
  firstName: string | null;
  lastName: string | null;
  phone: string | null;
  email: string | null;
  city: string;
  state: StateCode;
  age: number;
  category: LeadCategory;
}

export interface RowError {
  line: number;
  reason: string;
}

export interface CsvBatch {
  leads: ParsedLead[];
  errors: RowError[];
  /** Data rows seen so far (valid + invalid; blank lines are not rows), cumulative. */
  rowsSeen: number;
  /** Bytes read from the input so far, cumulative (for a progress display). */
  bytesSeen: number;
}

/**
 * The file itself is unusable (no header, a required column missing, binary data, an unclosed
 * quote, a line over the size limit). The message is fit for a 400 answer; it is an AppError,
 * so if it is not caught the error handler answers 400 with it.
 */
export class CsvFileError extends AppError {
  constructor(
    message: string,
    /** The line the problem was found on, when there is one. */
    readonly line?: number,
  ) {
    super('BAD_REQUEST', message);
    this.name = 'CsvFileError';
  }
}

export const DEFAULT_BATCH_SIZE = 5000;
/** A row (all its physical lines) longer than this many characters makes the file unusable. */
export const MAX_ROW_CHARS = 1024 * 1024;
/** Maximum length of any stored text value, after trimming. */
export const MAX_FIELD_LENGTH = 200;

/** Decode at most this many bytes at a time, whatever size the caller's chunks are. */
const DECODE_SLICE = 1024 * 1024;

type Field =
  | 'externalId'
  | 'firstName'
  | 'lastName'
  | 'phone'
  | 'email'
  | 'city'
  | 'state'
  | 'age'
  | 'category';

const REQUIRED_FIELDS: readonly Field[] = ['state', 'city', 'age', 'category'];

/** Header names, lower-cased with spaces, underscores and dashes removed. */
const HEADER_ALIASES: Record<string, Field> = {
  externalid: 'externalId',
  firstname: 'firstName',
  lastname: 'lastName',
  phone: 'phone',
  phonenumber: 'phone',
  email: 'email',
  emailaddress: 'email',
  city: 'city',
  state: 'state',
  age: 'age',
  category: 'category',
};

/** Two lower-case ASCII letters -> 1 + index in STATE_CODES; 0 when not a state code. */
const STATE_BY_LETTERS = new Uint8Array(128 * 128);
/** 'california', 'new york' (and codes, lower case) -> code. */
const STATE_BY_NAME = new Map<string, StateCode>();
STATE_CODES.forEach((code, i) => {
  const lower = code.toLowerCase();
  STATE_BY_LETTERS[(lower.charCodeAt(0) << 7) | lower.charCodeAt(1)] = i + 1;
  STATE_BY_NAME.set(lower, code);
  STATE_BY_NAME.set(US_STATES[code], code); // 'New York': no lower-casing needed
  STATE_BY_NAME.set(US_STATES[code].toLowerCase(), code);
});

const CATEGORY_BY_NAME = new Map<string, LeadCategory>(LEAD_CATEGORIES.map((c) => [c, c]));

/** A simple plausibility check: something@something.tld, no spaces. */
const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const QUOTE = 34; // "
const COMMA = 44; // ,
const LF = 10;
const CR = 13;

/**
 * Parse a CSV of leads into batches of validated rows and row errors.
 *
 * Every data row ends up in exactly one batch, either as a lead or as a row error with its line
 * number and a human reason; blank lines (and rows whose fields are all blank) are skipped.
 * At least one batch is always yielded for a usable file (possibly empty, for a header-only file).
 *
 * Throws CsvFileError when the file itself is unusable. Problems in the header or at the very
 * start (empty file, binary/UTF-16/Excel file, missing column) throw before the first batch;
 * problems found later (binary data, an unclosed quote, an over-long line) throw from a later
 * `next()`, after earlier batches were already yielded, so the caller should run the import in
 * a transaction (or otherwise be ready to undo it) if a partial import is not acceptable.
 */
export async function* parseLeadCsv(
  input: AsyncIterable<Buffer> | NodeJS.ReadableStream,
  opts: { batchSize?: number } = {},
): AsyncGenerator<CsvBatch> {
  const parser = new LeadCsvParser(Math.max(1, Math.floor(opts.batchSize ?? DEFAULT_BATCH_SIZE)));
  const decoder = new StringDecoder('utf8');
  let first = true;
  for await (const chunk of input as AsyncIterable<Buffer | Uint8Array | string>) {
    if (typeof chunk === 'string') {
      parser.bytesSeen += Buffer.byteLength(chunk);
      first = false;
      parser.append(chunk);
      while (parser.run(false)) yield parser.takeBatch();
      continue;
    }
    const bytes = Buffer.isBuffer(chunk)
      ? chunk
      : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    if (bytes.length === 0) continue;
    if (first) {
      checkSignature(bytes);
      first = false;
    }
    for (let offset = 0; offset < bytes.length; offset += DECODE_SLICE) {
      const slice = bytes.subarray(offset, offset + DECODE_SLICE);
      parser.bytesSeen += slice.length;
      parser.append(decoder.write(slice));
      while (parser.run(false)) yield parser.takeBatch();
    }
  }
  parser.append(decoder.end());
  while (parser.run(true)) yield parser.takeBatch();
  parser.finish();
  const yieldedBefore = parser.yielded;
  const last = parser.takeBatch();
  if (last.leads.length > 0 || last.errors.length > 0 || !yieldedBefore) yield last;
}

/** Recognisable non-CSV files, with a message that says what to do. */
function checkSignature(bytes: Buffer): void {
  const b0 = bytes[0];
  const b1 = bytes[1];
  if ((b0 === 0xff && b1 === 0xfe) || (b0 === 0xfe && b1 === 0xff)) {
    throw new CsvFileError('The file is UTF-16 text; save it as "CSV UTF-8" and upload it again');
  }
  if (b0 === 0x50 && b1 === 0x4b && bytes[2] === 3 && bytes[3] === 4) {
    throw new CsvFileError(
      'The file is a ZIP or Excel workbook, not CSV; export the sheet as "CSV UTF-8" and upload that',
    );
  }
}

class LeadCsvParser {
  bytesSeen = 0;
  rowsSeen = 0;
  yielded = false;

  /** Undecoded text: `buf.slice(pos)` is what is left to parse. */
  private buf = '';
  private pos = 0;
  /** Physical line number of `pos`. */
  private line = 1;
  /** Index of the next `"` at or after `pos` (buf.length if none); recomputed when passed. */
  private nextQuote = -1;
  /** Index of the next `,` at or after `pos` (buf.length if none); recomputed when passed. */
  private nextComma = -1;
  /** Index of the next U+FFFD (a byte that was not valid UTF-8) at or after `pos`. */
  private nextBad = -1;
  private bomChecked = false;

  private leads: ParsedLead[] = [];
  private errors: RowError[] = [];

  // Column positions (-1 when absent); set from the header row.
  private haveHeader = false;
  private width = 0;
  private colExternalId = -1;
  private colFirstName = -1;
  private colLastName = -1;
  private colPhone = -1;
  private colEmail = -1;
  private colCity = -1;
  private colState = -1;
  private colAge = -1;
  private colCategory = -1;

  /** externalId -> line of its first (valid) occurrence. */

  constructor(private readonly batchSize: number) {}

  append(text: string): void {
    if (text.length === 0) return;
    if (!this.bomChecked) {
      this.bomChecked = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    if (text.indexOf('\0') !== -1) {
      throw new CsvFileError(
        this.haveHeader
          ? `The file contains binary data (NUL bytes) near line ${this.line}; it is not a CSV text file`
          : 'The file is not a CSV text file (it contains binary data)',
        this.line,
      );
    }
    this.buf = this.pos < this.buf.length ? this.buf.slice(this.pos) + text : text;
    this.pos = 0;
    this.nextQuote = -1;
    this.nextComma = -1;
    this.nextBad = -1;
  }

  /** The current batch, replaced by a fresh one. */
  takeBatch(): CsvBatch {
    const batch: CsvBatch = {
      leads: this.leads,
      errors: this.errors,
      rowsSeen: this.rowsSeen,
      bytesSeen: this.bytesSeen,
    };
    this.leads = [];
    this.errors = [];
    this.yielded = true;
    return batch;
  }

  /** Called once the whole input was parsed. */
  finish(): void {
    if (!this.haveHeader) {
      throw new CsvFileError(
        'The file is empty: expected a header row naming at least the columns state, city, age and category',
      );
    }
  }

  /**
   * Parse rows from the buffer. Returns true when the batch is full (take it and call again),
   * false when the buffer holds no further complete row (all of it, when `final`).
   */
  run(final: boolean): boolean {
    const buf = this.buf;
    const len = buf.length;
    const batchSize = this.batchSize;
    while (this.leads.length + this.errors.length < batchSize) {
      const pos = this.pos;
      if (pos >= len) return false;
      let eol = buf.indexOf('\n', pos);
      if (eol === -1) {
        if (!final) {
          if (len - pos > MAX_ROW_CHARS) this.tooLong();
          return false;
        }
        eol = len;
      }
      if (eol - pos > MAX_ROW_CHARS) this.tooLong();
      if (this.nextQuote < pos) {
        const q = buf.indexOf('"', pos);
        this.nextQuote = q === -1 ? len : q;
      }
      if (this.nextQuote < eol) {
        // A quoted field: the row may span several lines.
        if (!this.slowRow(final)) return false;
        continue;
      }
      const line = this.line;
      this.line = line + 1;
      this.pos = eol + 1;
      let end = eol;
      if (end > pos && buf.charCodeAt(end - 1) === CR) end--;
      if (end === pos) continue; // empty line
      // No quote in the line: the fields are what lies between commas (faster than split()).
      const fields: string[] = [];
      let comma = this.nextComma;
      for (let from = pos; ; ) {
        if (comma < from) {
          comma = buf.indexOf(',', from);
          if (comma === -1) comma = len;
        }
        if (comma >= end) {
          fields.push(buf.slice(from, end));
          break;
        }
        fields.push(buf.slice(from, comma));
        from = comma + 1;
      }
      this.nextComma = comma;
      this.row(fields, line, this.hasBadBytes(pos, eol), false);
    }
    return true;
  }

  private hasBadBytes(from: number, to: number): boolean {
    if (this.nextBad < from) {
      const i = this.buf.indexOf('\uFFFD', from);
      this.nextBad = i === -1 ? this.buf.length : i;
    }
    return this.nextBad < to;
  }

  private tooLong(): never {
    throw new CsvFileError(
      `Line ${this.line} is longer than ${MAX_ROW_CHARS.toLocaleString('en-US')} characters; check that every quoted field is closed`,
      this.line,
    );
  }

  /**
   * Parse one row that contains a `"`, field by field, following RFC 4180. Returns false (and
   * consumes nothing) when the row is not complete in the buffer yet.
   */
  private slowRow(final: boolean): boolean {
    const buf = this.buf;
    const len = buf.length;
    const start = this.pos;
    const fields: string[] = [];
    let i = start;
    let newlines = 0;
    let malformed = false;
    for (;;) {
      let value: string;
      if (i < len && buf.charCodeAt(i) === QUOTE) {
        // Quoted field: up to the next lone quote; "" is an escaped quote.
        value = '';
        let seg = i + 1;
        for (;;) {
          const q = buf.indexOf('"', seg);
          if (q === -1 || (q + 1 === len && !final)) {
            if (!final) return this.incomplete(start);
            throw new CsvFileError(
              `Line ${this.line}: a quoted field is not closed before the end of the file`,
              this.line,
            );
          }
          value += buf.slice(seg, q);
          if (buf.charCodeAt(q + 1) === QUOTE) {
            value += '"';
            seg = q + 2;
          } else {
            i = q + 1;
            break;
          }
        }
        if (value.indexOf('\n') !== -1) newlines += countNewlines(value);
        // After the closing quote: a separator, a line end or the end of the file.
        if (i < len) {
          const c = buf.charCodeAt(i);
          if (c === CR && i + 1 === len && !final) return this.incomplete(start);
          if (
            c !== COMMA &&
            c !== LF &&
            !(c === CR && (i + 1 === len || buf.charCodeAt(i + 1) === LF))
          ) {
            // Text after the closing quote: keep it, but the row is malformed.
            malformed = true;
            const j = this.nextSeparator(i);
            if (j === -1 && !final) return this.incomplete(start);
            const stop = j === -1 ? len : j;
            value += stripCr(buf.slice(i, stop));
            i = stop;
          }
        }
      } else {
        // Unquoted field (a quote inside it is literal).
        const j = this.nextSeparator(i);
        if (j === -1 && !final) return this.incomplete(start);
        const stop = j === -1 ? len : j;
        value = stripCr(buf.slice(i, stop));
        i = stop;
      }
      fields.push(value);
      if (i - start > MAX_ROW_CHARS) this.tooLong();
      if (i >= len) break; // end of file (final)
      const c = buf.charCodeAt(i);
      if (c === COMMA) {
        i++;
        continue;
      }
      if (c === CR) i++; // CRLF (a CR at the end of the file when final)
      if (i < len) i++; // the LF
      newlines++;
      break;
    }
    const line = this.line;
    this.line = line + newlines;
    this.pos = i;
    this.row(fields, line, this.hasBadBytes(start, i), malformed);
    return true;
  }

  /** Index of the next `,` or `\n` at or after `from` (which only moves forward), or -1. */
  private nextSeparator(from: number): number {
    const buf = this.buf;
    const lf = buf.indexOf('\n', from);
    if (this.nextComma < from) {
      const i = buf.indexOf(',', from);
      this.nextComma = i === -1 ? buf.length : i;
    }
    const comma = this.nextComma === buf.length ? -1 : this.nextComma;
    if (comma === -1) return lf;
    if (lf === -1) return comma;
    return Math.min(comma, lf);
  }

  private incomplete(start: number): false {
    if (this.buf.length - start > MAX_ROW_CHARS) this.tooLong();
    this.nextComma = -1; // the row will be read again from its start
    return false;
  }

  private row(fields: string[], line: number, badBytes: boolean, malformed: boolean): void {
    if (!this.haveHeader) {
      if (isBlank(fields)) return;
      this.header(fields, line);
      return;
    }
    if (fields.length !== this.width) {
      if (isBlank(fields)) return;
      this.rowsSeen++;
      this.errors.push({
        line,
        reason: `Expected ${this.width} field${this.width === 1 ? '' : 's'}, found ${fields.length}`,
      });
      return;
    }

    const city = clean(fields[this.colCity]);
    const stateRaw = clean(fields[this.colState]);
    const ageRaw = clean(fields[this.colAge]);
    const categoryRaw = clean(fields[this.colCategory]);
    if (city === '' && stateRaw === '' && ageRaw === '' && categoryRaw === '' && isBlank(fields)) {
      return;
    }
    this.rowsSeen++;

    let reason = '';
    if (badBytes) reason = 'Contains bytes that are not valid UTF-8 text';
    if (malformed)
      reason = addReason(reason, 'Malformed quoted field (text after the closing quote)');

    const externalId = optional(fields, this.colExternalId);
    const firstName = optional(fields, this.colFirstName);
    const lastName = optional(fields, this.colLastName);
    const phone = optional(fields, this.colPhone);
    const email = optional(fields, this.colEmail);

    if (externalId !== null && externalId.length > MAX_FIELD_LENGTH) {
      reason = addReason(reason, tooLongReason('externalId'));
    }
    if (firstName !== null && firstName.length > MAX_FIELD_LENGTH) {
      reason = addReason(reason, tooLongReason('firstName'));
    }
    if (lastName !== null && lastName.length > MAX_FIELD_LENGTH) {
      reason = addReason(reason, tooLongReason('lastName'));
    }
    if (phone !== null && phone.length > MAX_FIELD_LENGTH) {
      reason = addReason(reason, tooLongReason('phone'));
    }
    if (email !== null) {
      if (email.length > MAX_FIELD_LENGTH) reason = addReason(reason, tooLongReason('email'));
      else if (!EMAIL_RE.test(email)) reason = addReason(reason, `Invalid email: ${show(email)}`);
    }

    if (city === '') reason = addReason(reason, 'Missing city');
    else if (city.length > MAX_FIELD_LENGTH) reason = addReason(reason, tooLongReason('city'));

    const state = parseState(stateRaw);
    if (state === undefined) {
      reason = addReason(
        reason,
        stateRaw === '' ? 'Missing state' : `Invalid state: ${show(stateRaw)}`,
      );
    }

    const age = parseAge(ageRaw);
    if (age === -1) {
      reason = addReason(
        reason,
        ageRaw === ''
          ? 'Missing age'
          : `Age must be an integer from ${MIN_LEAD_AGE} to ${MAX_LEAD_AGE}: ${show(ageRaw)}`,
      );
    }

    const category = parseCategory(categoryRaw);
    if (category === undefined) {
      reason = addReason(
        reason,
        categoryRaw === '' ? 'Missing category' : `Unknown category: ${show(categoryRaw)}`,
      );
    }

    if (reason !== '') {
      this.errors.push({ line, reason });
      return;
    }
    this.leads.push({
      line,
      externalId,
      firstName,
      lastName,
      phone,
      email,
      city,
      state: state as StateCode,
      age,
      category: category as LeadCategory,
    });
  }

  private header(fields: string[], line: number): void {
    if (fields.some((f) => f.includes('\r'))) {
      throw new CsvFileError(
        'The file uses old Mac line endings (CR only); save it as "CSV UTF-8", which ends lines with CRLF or LF',
        line,
      );
    }
    const seen = new Map<Field, string>();
    for (let i = 0; i < fields.length; i++) {
      const name = fields[i].trim();
      const field = HEADER_ALIASES[name.toLowerCase().replace(/[\s_-]+/g, '')];
      if (field === undefined) continue; // unknown columns are ignored
      const earlier = seen.get(field);
      if (earlier !== undefined) {
        throw new CsvFileError(
          `The header names the ${field} column twice ('${earlier}' and '${name}')`,
          line,
        );
      }
      seen.set(field, name);
      switch (field) {
        case 'externalId':
          this.colExternalId = i;
          break;
        case 'firstName':
          this.colFirstName = i;
          break;
        case 'lastName':
          this.colLastName = i;
          break;
        case 'phone':
          this.colPhone = i;
          break;
        case 'email':
          this.colEmail = i;
          break;
        case 'city':
          this.colCity = i;
          break;
        case 'state':
          this.colState = i;
          break;
        case 'age':
          this.colAge = i;
          break;
        case 'category':
          this.colCategory = i;
          break;
      }
    }
    const missing = REQUIRED_FIELDS.filter((f) => !seen.has(f));
    if (missing.length > 0) {
      throw new CsvFileError(
        `Missing required column${missing.length > 1 ? 's' : ''}: ${missing.join(', ')} (the header row must name state, city, age and category)`,
        line,
      );
    }
    this.width = fields.length;
    this.haveHeader = true;
  }
}

/** Drop the CR of a CRLF line end (the LF is not part of the value). */
function stripCr(value: string): string {
  return value.length > 0 && value.charCodeAt(value.length - 1) === CR ? value.slice(0, -1) : value;
}

function countNewlines(s: string): number {
  let n = 0;
  for (let i = s.indexOf('\n'); i !== -1; i = s.indexOf('\n', i + 1)) n++;
  return n;
}

function isBlank(fields: string[]): boolean {
  for (const f of fields) if (f.trim() !== '') return false;
  return true;
}

/** `s.trim()`, without the call in the common case of nothing to trim. */
function clean(s: string): string {
  const n = s.length;
  if (n === 0) return s;
  const a = s.charCodeAt(0);
  const b = s.charCodeAt(n - 1);
  // 33..126 are never white space; anything else may be.
  return a > 32 && a < 127 && b > 32 && b < 127 ? s : s.trim();
}

/** A trimmed optional value, or null when the column is absent or the value empty. */
function optional(fields: string[], col: number): string | null {
  if (col === -1) return null;
  const v = clean(fields[col]);
  return v === '' ? null : v;
}

/** A 2-letter code in any case, or a state name in any case ('new york'). */
function parseState(s: string): StateCode | undefined {
  if (s.length === 2) {
    const c0 = s.charCodeAt(0);
    const c1 = s.charCodeAt(1);
    if (c0 < 128 && c1 < 128) {
      // | 0x20 lower-cases ASCII letters and maps no other character onto a letter.
      const i = STATE_BY_LETTERS[((c0 | 0x20) << 7) | (c1 | 0x20)];
      return i === 0 ? undefined : STATE_CODES[i - 1];
    }
  }
  if (s === '') return undefined;
  return (
    STATE_BY_NAME.get(s) ??
    STATE_BY_NAME.get(s.toLowerCase()) ??
    STATE_BY_NAME.get(s.toLowerCase().replace(/\s+/g, ' '))
  );
}

/** MEDICARE, aca, 'Final Expense', final-expense... */
function parseCategory(s: string): LeadCategory | undefined {
  if (s === 'MEDICARE' || s === 'ACA' || s === 'FINAL_EXPENSE') return s;
  if (s === '') return undefined;
  for (const c of LEAD_CATEGORIES) if (sameCategory(s, c)) return c;
  return CATEGORY_BY_NAME.get(s.toUpperCase().replace(/[\s-]+/g, '_'));
}

/** `s` is `name` ignoring ASCII case, with a space or dash for each underscore (no allocation). */
function sameCategory(s: string, name: string): boolean {
  if (s.length !== name.length) return false;
  for (let i = 0; i < s.length; i++) {
    let c = s.charCodeAt(i);
    if (c >= 97 && c <= 122) c -= 32;
    else if (c === 32 || c === 45) c = 95;
    if (c !== name.charCodeAt(i)) return false;
  }
  return true;
}

/** A trimmed age made only of digits, within bounds; else -1. */
function parseAge(s: string): number {
  const n = s.length;
  if (n === 0) return -1;
  let v = 0;
  for (let i = 0; i < n; i++) {
    const d = s.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -1;
    if (v <= MAX_LEAD_AGE) v = v * 10 + d; // stop growing once out of range
  }
  return v >= MIN_LEAD_AGE && v <= MAX_LEAD_AGE ? v : -1;
}

function addReason(reason: string, more: string): string {
  return reason === '' ? more : `${reason}; ${more}`;
}

function tooLongReason(field: string): string {
  return `${field} is longer than ${MAX_FIELD_LENGTH} characters`;
}

/** A value quoted for a message, cut short if long. */
function show(value: string): string {
  return `'${value.length > 40 ? `${value.slice(0, 40)}…` : value}'`;
}
