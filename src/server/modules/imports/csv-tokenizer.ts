/**
 * A streaming RFC 4180 tokenizer: bytes (or text) in, records out, each as its fields and the
 * physical line it starts on. It knows nothing of leads: what a record means is its sink's
 * business (lead-csv.ts).
 *
 * Hand-written rather than csv-parse, for speed (docs/decisions/004-csv-parsing.md). Format:
 * comma separator, `"` quoting with `""` escapes, commas and line breaks inside quotes, CRLF or
 * LF line endings, UTF-8 with or without BOM. Empty lines are not records. A CR belongs to the
 * line end right before a line feed (or at the end of the file); anywhere else it is text. Memory
 * stays flat: at most one partial record is held, whatever the size of the file.
 */
import { StringDecoder } from 'node:string_decoder';
import { setImmediate } from 'node:timers/promises';
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

/**
 * Bytes decoded and parsed at a time, whatever size the caller's chunks are. The event loop runs
 * after each READ_SLICE bytes parsed: a slice takes under a millisecond of lead rows, tens of
 * milliseconds at worst (a slice of nothing but commas is 32,768 fields). A slice's text is at
 * most 64 KB even when one character of it is not ASCII (V8 then stores two bytes a character),
 * below the size V8 allocates straight into its old generation (128 KB): the text is made young
 * and dies young once its records are taken (docs/decisions/049).
 */
export const READ_SLICE = 32 * 1024;

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

// Where a record in progress stands (it is carried over when the buffer ends inside it).
/** before a field's first character */
const FIELD_START = 0;
/** inside a quoted field */
const QUOTED = 1;
/** just after a quoted field's closing quote */
const AFTER_QUOTE = 2;
/** inside an unquoted field, or in text after a closing quote */
const UNQUOTED = 3;

// What continueRecord found.
/** the buffer ended inside the record: it goes on in the next one */
const INCOMPLETE = 0;
/** the record ended */
const DONE = 1;
/** the record ended and the sink asked for a pause */
const PAUSE = 2;

/**
 * Every character is looked at a bounded number of times, however the input is cut into chunks:
 * the next `"`, `,`, line feed and U+FFFD are each searched for once (their positions are kept),
 * and a record the buffer ends inside is carried over as its fields so far and its state, never
 * read again. Parsing time is linear in the size of the file (issue 13: it was quadratic in the
 * length of a row with a quote in it).
 */
export class CsvTokenizer {
  /** Bytes read from the input so far. */
  bytesSeen = 0;
  /** Records handed to the sink so far. */
  records = 0;

  /** Decoded text not parsed yet: `buf.slice(pos)` (at most a character or two between chunks). */
  private buf = '';
  private pos = 0;
  /** Physical line on which the next record (or the one in progress) starts. */
  private line = 1;
  // Index of the next `"`, `,`, LF and U+FFFD (a byte that was not valid UTF-8) at or after the
  // last search's start, buf.length if none, -1 before the first search in this buffer.
  private nextQuote = -1;
  private nextComma = -1;
  private nextLf = -1;
  private nextBad = -1;
  private bomChecked = false;

  // The record in progress, when a buffer ended inside it.
  private inRecord = false;
  private fields: string[] = [];
  /** the current field's value so far */
  private value = '';
  private state = FIELD_START;
  /** whether a field of the record was quoted (an unquoted empty line is not a record) */
  private quoted = false;
  private flags = 0;
  /** line feeds inside the record so far (within quoted fields, and its own line end) */
  private newlines = 0;
  /** characters of the record in earlier buffers */
  private charsBefore = 0;

  constructor(private readonly sink: CsvRecordSink) {}

  /**
   * Reads `input` to its end, handing each record to the sink; yields each time the sink asks
   * for a pause. Between slices of READ_SLICE bytes it lets the event loop run (one upload must
   * not hold up every other request while it parses). Throws CsvFileError when the file is
   * unusable (recognisably not CSV text, an unclosed quote, a record over MAX_ROW_CHARS),
   * possibly after records were handed over.
   */
  async *read(
    input: AsyncIterable<Buffer> | NodeJS.ReadableStream,
  ): AsyncGenerator<void, void, undefined> {
    const decoder = new StringDecoder('utf8');
    let first = true;
    /** bytes parsed since the event loop last ran */
    let parsed = 0;
    for await (const chunk of input as AsyncIterable<Buffer | Uint8Array | string>) {
      if (typeof chunk === 'string') {
        first = false;
        for (let offset = 0; offset < chunk.length; offset += READ_SLICE) {
          const text = chunk.slice(offset, offset + READ_SLICE);
          this.bytesSeen += Buffer.byteLength(text);
          this.append(text);
          while (this.run(false)) yield;
          parsed += text.length;
          if (parsed >= READ_SLICE) {
            parsed = 0;
            await setImmediate();
          }
        }
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
      for (let offset = 0; offset < bytes.length; offset += READ_SLICE) {
        const slice = bytes.subarray(offset, offset + READ_SLICE);
        this.bytesSeen += slice.length;
        this.append(decoder.write(slice));
        while (this.run(false)) yield;
        parsed += slice.length;
        if (parsed >= READ_SLICE) {
          parsed = 0;
          await setImmediate();
        }
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
    this.nextLf = -1;
    this.nextBad = -1;
  }

  /**
   * Hands records to the sink. Returns true when the sink asked for a pause (call again after),
   * false once the buffer is used up (to its end, when `final`).
   */
  private run(final: boolean): boolean {
    const buf = this.buf;
    const len = buf.length;
    for (;;) {
      if (!this.inRecord) {
        const pos = this.pos;
        if (pos >= len) return false;
        const eol = this.lfFrom(pos);
        if (eol - pos > MAX_ROW_CHARS) this.tooLong();
        if (eol < len && this.quoteFrom(pos) > eol) {
          // The common case: a whole line without a quote, cut at its commas (faster than split).
          if (this.plainLine(pos, eol)) return true;
          continue;
        }
        this.startRecord();
      }
      const ended = this.continueRecord(final);
      if (ended === INCOMPLETE) return false;
      if (ended === PAUSE) return true;
    }
  }

  /** A line from `pos` to the line feed at `eol`, with no quote in it. Answers the sink's pause. */
  private plainLine(pos: number, eol: number): boolean {
    const buf = this.buf;
    const line = this.line;
    this.line = line + 1;
    this.pos = eol + 1;
    let end = eol;
    if (end > pos && buf.charCodeAt(end - 1) === CR) end--;
    if (end === pos) return false; // an empty line
    const fields: string[] = [];
    let comma = this.nextComma;
    for (let from = pos; ; ) {
      if (comma < from) {
        comma = buf.indexOf(',', from);
        if (comma === -1) comma = buf.length;
      }
      if (comma >= end) {
        fields.push(buf.slice(from, end));
        break;
      }
      fields.push(buf.slice(from, comma));
      from = comma + 1;
      // empty fields, without a search each (a row of a million commas must not take seconds)
      while (from < end && buf.charCodeAt(from) === COMMA) {
        fields.push('');
        from++;
      }
    }
    this.nextComma = comma;
    this.records++;
    return this.sink.record(fields, line, this.hasBadBytes(pos, eol) ? RECORD_BAD_BYTES : 0);
  }

  private startRecord(): void {
    this.inRecord = true;
    this.fields = [];
    this.value = '';
    this.state = FIELD_START;
    this.quoted = false;
    this.flags = 0;
    this.newlines = 0;
    this.charsBefore = 0;
  }

  /**
   * Goes on with the record in progress from `pos`, field by field, following RFC 4180, to its
   * end or to the end of the buffer (then it is carried over: nothing is read twice).
   */
  private continueRecord(final: boolean): typeof INCOMPLETE | typeof DONE | typeof PAUSE {
    const buf = this.buf;
    const len = buf.length;
    const fields = this.fields;
    const start = this.pos;
    let i = start;
    let value = this.value;
    let state = this.state;
    for (;;) {
      if (state === FIELD_START) {
        value = '';
        const c = i < len ? buf.charCodeAt(i) : -1;
        if (c === COMMA) {
          fields.push(''); // an empty field: the common case of a long run of commas
          i++;
        } else if (c === QUOTE) {
          this.quoted = true;
          state = QUOTED;
          i++;
        } else if (i < len || final) {
          state = UNQUOTED;
        } else {
          break; // the field starts in the next buffer
        }
      } else if (state === UNQUOTED) {
        // up to the next comma or line feed (a quote in here is literal)
        const sep = this.separatorFrom(i);
        if (sep === len) {
          value += buf.slice(i, len);
          i = len;
          if (!final) break;
          fields.push(stripCr(value));
          return this.endRecord(start, i);
        }
        value += buf.slice(i, sep);
        i = sep + 1;
        if (buf.charCodeAt(sep) === COMMA) {
          fields.push(value);
          state = FIELD_START;
        } else {
          fields.push(stripCr(value)); // a CR before the line feed is the line end's
          this.newlines++;
          return this.endRecord(start, i);
        }
      } else if (state === QUOTED) {
        // up to the next lone quote; "" is an escaped quote
        const from = i;
        let escaped = false;
        for (;;) {
          const q = this.quoteFrom(i);
          if (q === len || (q + 1 === len && !final)) {
            if (q === len && final) {
              throw new CsvFileError(
                `Line ${this.line}: a quoted field is not closed before the end of the file`,
                this.line,
              );
            }
            i = q; // a quote at the very end may be the first of "": it waits for what follows
            break;
          }
          if (buf.charCodeAt(q + 1) === QUOTE) {
            escaped = true;
            i = q + 2;
          } else {
            i = q + 1;
            state = AFTER_QUOTE;
            break;
          }
        }
        const stop = state === AFTER_QUOTE ? i - 1 : i;
        this.countLineFeeds(from, stop);
        const text = buf.slice(from, stop);
        value += escaped ? text.replaceAll('""', '"') : text;
        if (state === QUOTED) break; // the field goes on in the next buffer
      } else {
        // AFTER_QUOTE: a separator, a line end, the end of the file, or stray text
        if (i >= len) {
          if (!final) break;
          fields.push(value);
          return this.endRecord(start, i);
        }
        const c = buf.charCodeAt(i);
        if (c === COMMA) {
          fields.push(value);
          state = FIELD_START;
          i++;
        } else if (c === LF) {
          fields.push(value);
          this.newlines++;
          return this.endRecord(start, i + 1);
        } else if (c === CR && i + 1 === len && !final) {
          break; // CRLF or stray text: the next buffer says
        } else if (c === CR && (i + 1 === len || buf.charCodeAt(i + 1) === LF)) {
          fields.push(value);
          this.newlines++;
          return this.endRecord(start, i + 2);
        } else {
          // text after the closing quote: kept as part of the value, the record is malformed
          this.flags |= RECORD_TEXT_AFTER_QUOTE;
          state = UNQUOTED;
        }
      }
    }
    // the buffer ended inside the record
    this.value = value;
    this.state = state;
    this.pos = i;
    this.charsBefore += i - start;
    if (this.charsBefore > MAX_ROW_CHARS) this.tooLong();
    if (this.hasBadBytes(start, i)) this.flags |= RECORD_BAD_BYTES;
    return INCOMPLETE;
  }

  /** The record in progress ended at `end` (past its line end, if it has one). */
  private endRecord(start: number, end: number): typeof DONE | typeof PAUSE {
    const length = end > this.buf.length ? this.buf.length : end;
    if (this.charsBefore + length - start > MAX_ROW_CHARS) this.tooLong();
    if (this.hasBadBytes(start, length)) this.flags |= RECORD_BAD_BYTES;
    this.pos = length;
    this.inRecord = false;
    this.value = '';
    const line = this.line;
    this.line = line + this.newlines;
    const fields = this.fields;
    if (!this.quoted && fields.length === 1 && fields[0] === '') return DONE; // an empty line
    this.records++;
    return this.sink.record(fields, line, this.flags) ? PAUSE : DONE;
  }

  /** Counts the line feeds in buf[from, to) into the record's. */
  private countLineFeeds(from: number, to: number): void {
    for (let lf = this.lfFrom(from); lf < to; lf = this.lfFrom(lf + 1)) this.newlines++;
  }

  private quoteFrom(from: number): number {
    if (this.nextQuote < from) {
      const i = this.buf.indexOf('"', from);
      this.nextQuote = i === -1 ? this.buf.length : i;
    }
    return this.nextQuote;
  }

  private lfFrom(from: number): number {
    if (this.nextLf < from) {
      const i = this.buf.indexOf('\n', from);
      this.nextLf = i === -1 ? this.buf.length : i;
    }
    return this.nextLf;
  }

  /** Index of the next `,` or line feed at or after `from`, buf.length if none. */
  private separatorFrom(from: number): number {
    if (this.nextComma < from) {
      const i = this.buf.indexOf(',', from);
      this.nextComma = i === -1 ? this.buf.length : i;
    }
    const lf = this.lfFrom(from);
    return this.nextComma < lf ? this.nextComma : lf;
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

/** Drop the CR of a CRLF line end (the LF is not part of the value). */
function stripCr(value: string): string {
  return value.length > 0 && value.charCodeAt(value.length - 1) === CR ? value.slice(0, -1) : value;
}
