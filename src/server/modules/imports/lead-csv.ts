/**
 * A CSV of leads, parsed and validated in batches (pure: bytes in, batches of rows out). The
 * text is cut into records by csv-tokenizer.ts; each record is a lead row checked by the leads'
 * own rules (leads/lead-row.service.ts) against the columns the header names. Duplicates are
 * not this parser's business: the group writer finds them (by phone or email, one statement a
 * group) and the database's unique index skips a repeated externalId (docs/decisions/007, 018).
 */
import {
  isBlankRow,
  type LeadColumns,
  mapLeadHeader,
  type ParsedLead,
  validateLeadRow,
} from '../leads/lead-row.service';
import {
  CsvFileError,
  type CsvRecordSink,
  CsvTokenizer,
  RECORD_BAD_BYTES,
  RECORD_TEXT_AFTER_QUOTE,
} from './csv-tokenizer';

export type { ParsedLead };

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

export const DEFAULT_BATCH_SIZE = 5000;

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
  const rows = new LeadRows(Math.max(1, Math.floor(opts.batchSize ?? DEFAULT_BATCH_SIZE)));
  const tokenizer = new CsvTokenizer(rows);
  for await (const _full of tokenizer.read(input)) yield rows.takeBatch(tokenizer.bytesSeen);
  if (!rows.haveHeader) {
    throw new CsvFileError(
      'The file is empty: expected a header row naming at least the columns state, city, age and category',
    );
  }
  const yieldedBefore = rows.yielded;
  const last = rows.takeBatch(tokenizer.bytesSeen);
  if (last.leads.length > 0 || last.errors.length > 0 || !yieldedBefore) yield last;
}

/** The records of a lead CSV: the first non-blank one is the header, every later one a row. */
class LeadRows implements CsvRecordSink {
  rowsSeen = 0;
  yielded = false;
  haveHeader = false;
  private columns: LeadColumns | null = null;
  private width = 0;
  private leads: ParsedLead[] = [];
  private errors: RowError[] = [];

  constructor(private readonly batchSize: number) {}

  /** The current batch, replaced by a fresh one. */
  takeBatch(bytesSeen: number): CsvBatch {
    const batch: CsvBatch = {
      leads: this.leads,
      errors: this.errors,
      rowsSeen: this.rowsSeen,
      bytesSeen,
    };
    this.leads = [];
    this.errors = [];
    this.yielded = true;
    return batch;
  }

  record(fields: string[], line: number, flags: number): boolean {
    if (isBlankRow(fields)) return false;
    const columns = this.columns;
    if (columns === null) {
      this.header(fields, line);
      return false;
    }
    this.rowsSeen++;
    if (fields.length !== this.width) {
      this.errors.push({
        line,
        reason: `Expected ${this.width} field${this.width === 1 ? '' : 's'}, found ${fields.length}`,
      });
    } else {
      const lead = validateLeadRow(fields, columns);
      if (flags !== 0) {
        const problems = textProblems(flags);
        this.errors.push({
          line,
          reason: typeof lead === 'string' ? `${problems}; ${lead}` : problems,
        });
      } else if (typeof lead === 'string') {
        this.errors.push({ line, reason: lead });
      } else {
        this.leads.push({
          line,
          externalId: lead.externalId,
          firstName: lead.firstName,
          lastName: lead.lastName,
          phone: lead.phone,
          email: lead.email,
          city: lead.city,
          state: lead.state,
          age: lead.age,
          category: lead.category,
          zip: lead.zip,
          timeZone: lead.timeZone,
          consentAt: lead.consentAt,
          consentText: lead.consentText,
          trustedFormCertUrl: lead.trustedFormCertUrl,
          jornayaLeadId: lead.jornayaLeadId,
          consentIp: lead.consentIp,
        });
      }
    }
    return this.leads.length + this.errors.length >= this.batchSize;
  }

  private header(fields: string[], line: number): void {
    if (fields.some((f) => f.includes('\r'))) {
      throw new CsvFileError(
        'The file uses old Mac line endings (CR only); save it as "CSV UTF-8", which ends lines with CRLF or LF',
        line,
      );
    }
    const columns = mapLeadHeader(fields);
    if (typeof columns === 'string') throw new CsvFileError(columns, line);
    this.columns = columns;
    this.width = fields.length;
    this.haveHeader = true;
  }
}

/** What was wrong with a row's text, before its values. */
function textProblems(flags: number): string {
  const problems: string[] = [];
  if (flags & RECORD_BAD_BYTES) problems.push('Contains bytes that are not valid UTF-8 text');
  if (flags & RECORD_TEXT_AFTER_QUOTE) {
    problems.push('Malformed quoted field (text after the closing quote)');
  }
  return problems.join('; ');
}
