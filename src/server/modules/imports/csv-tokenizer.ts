/**
 * A streaming RFC 4180 tokenizer: bytes (or text) in, records out, each as its fields and the
 * physical line it starts on. It knows nothing of leads: what a record means is its sink's
 * business (lead-csv.ts).
 *
 * Hand-written rather than csv-parse, for speed (docs/decisions/004-csv-parsing.md). Format:
 * comma separator, `"` quoting with `""` escapes, commas and line breaks inside quotes, CRLF or
 * LF line endings, UTF-8 with or without BOM. Empty lines are not records. Memory stays flat: at
 * most one partial record is held, whatever the size of the file.
 */
import { StringDecoder } from 'node:string_decoder';
import { AppError } from '../../lib/app-error';

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

/** A record (all its physical lines) longer than this many characters makes the file unusable. */
export const MAX_ROW_CHARS = 1024 * 1024;

/** Decode at most this many bytes at a time, whatever size the caller's chunks are. */
const DECODE_SLICE = 1024 * 1024;

/** A record held bytes that are not valid UTF-8 (decoded as U+FFFD). */
export const RECORD_BAD_BYTES = 1;
/** A record had text after a closing quote (kept, as part of the field). */
export const RECORD_TEXT_AFTER_QUOTE = 2;

export interface CsvRecordSink {
  /**
   * One record: its fields, the physical line it starts on (the first line is 1) and what was
   * wrong with its text (RECORD_* bits, 0 when nothing). Answers true to pause the tokenizer
   * (its reader yields, so that the caller can take what the sink gathered).
   */
  record(fields: string[], line: number, flags: number): boolean;
}

const QUOTE = 34; // "
const COMMA = 44; // ,
const LF = 10;
const CR = 13;

export class CsvTokenizer {
  /** Bytes read from the input so far. */
  bytesSeen = 0;
  /** Records handed to the sink so far. */
  records = 0;

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

  constructor(private readonly sink: CsvRecordSink) {}

  /**
   * Reads `input` to its end, handing each record to the sink; yields each time the sink asks
   * for a pause. Throws CsvFileError when the file is unusable (recognisably not CSV text, an
   * unclosed quote, a record over MAX_ROW_CHARS), possibly after records were handed over.
   */
  async *read(
    input: AsyncIterable<Buffer> | NodeJS.ReadableStream,
  ): AsyncGenerator<void, void, undefined> {
    const decoder = new StringDecoder('utf8');
    let first = true;
    for await (const chunk of input as AsyncIterable<Buffer | Uint8Array | string>) {
      if (typeof chunk === 'string') {
        this.bytesSeen += Buffer.byteLength(chunk);
        first = false;
        this.append(chunk);
        while (this.run(false)) yield;
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
        this.bytesSeen += slice.length;
        this.append(decoder.write(slice));
        while (this.run(false)) yield;
      }
    }
    this.append(decoder.end());
    while (this.run(true)) yield;
  }

  private append(text: string): void {
    if (text.length === 0) return;
    if (!this.bomChecked) {
      this.bomChecked = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    if (text.indexOf('\0') !== -1) {
      throw new CsvFileError(
        this.records > 0
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

  /**
   * Hands records to the sink. Returns true when the sink asked for a pause (call again after),
   * false when the buffer holds no further complete record (all of it, when `final`).
   */
  private run(final: boolean): boolean {
    const buf = this.buf;
    const len = buf.length;
    for (;;) {
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
        // A quoted field: the record may span several lines.
        const done = this.slowRow(final);
        if (done === INCOMPLETE) return false;
        if (done === PAUSE) return true;
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
      this.records++;
      if (this.sink.record(fields, line, this.hasBadBytes(pos, eol) ? RECORD_BAD_BYTES : 0)) {
        return true;
      }
    }
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
   * Parse one record that contains a `"`, field by field, following RFC 4180. Consumes nothing
   * when the record is not complete in the buffer yet.
   */
  private slowRow(final: boolean): typeof INCOMPLETE | typeof PAUSE | typeof DONE {
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
            // Text after the closing quote: keep it, but the record is malformed.
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
    const flags =
      (this.hasBadBytes(start, i) ? RECORD_BAD_BYTES : 0) |
      (malformed ? RECORD_TEXT_AFTER_QUOTE : 0);
    this.records++;
    return this.sink.record(fields, line, flags) ? PAUSE : DONE;
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

  private incomplete(start: number): typeof INCOMPLETE {
    if (this.buf.length - start > MAX_ROW_CHARS) this.tooLong();
    this.nextComma = -1; // the record will be read again from its start
    return INCOMPLETE;
  }
}

const INCOMPLETE = 0;
const DONE = 1;
const PAUSE = 2;

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

/** Drop the CR of a CRLF line end (the LF is not part of the value). */
function stripCr(value: string): string {
  return value.length > 0 && value.charCodeAt(value.length - 1) === CR ? value.slice(0, -1) : value;
}

function countNewlines(s: string): number {
  let n = 0;
  for (let i = s.indexOf('\n'); i !== -1; i = s.indexOf('\n', i + 1)) n++;
  return n;
}
