import type { LeadStatus } from '../../../shared/domain';
import type { Db } from '../../db/client';
import { readExportBatch } from './lead-search.repository';

/**
 * The import's columns plus status and createdAt, then who holds the lead and since when, then
 * its ZIP, time zone and consent (docs/domain.md, Lists, search and export; the import reads the ZIP and the consent columns
 * and works the time zone out itself): an export can be imported again as it is (the import
 * ignores the columns it does not know).
 */
export const LEAD_EXPORT_COLUMNS = [
  'firstName',
  'lastName',
  'phone',
  'email',
  'city',
  'state',
  'age',
  'category',
  'status',
  'externalId',
  'createdAt',
  'agentName',
  'agentEmail',
  'assignedAt',
  'zip',
  'timeZone',
  'consentAt',
  'consentText',
  'trustedFormCertUrl',
  'jornayaLeadId',
  'consentIp',
] as const;

export interface LeadExportFilter {
  status?: LeadStatus;
  q?: string;
}

/** Rows read per query: memory holds one batch whatever the number of leads. */
export const EXPORT_BATCH_SIZE = 2000;

/**
 * A spreadsheet runs a cell that starts with one of these as a formula (`=HYPERLINK(...)`,
 * `+cmd|...`, `@SUM(...)`), and tab / CR can hide such a start. OWASP's advice: prefix a quote.
 */
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/**
 * One RFC 4180 cell. A text that a spreadsheet would read as a formula gets a leading `'` and is
 * quoted; a text holding a comma, quote or line break is quoted with `""` escapes. Numbers are
 * ours (age), never neutralised; null is an empty cell.
 */
export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return String(value);
  if (FORMULA_START.test(value)) return `"'${value.replaceAll('"', '""')}"`;
  if (NEEDS_QUOTES.test(value)) return `"${value.replaceAll('"', '""')}"`;
  return value;
}

/** One CSV record with its CRLF line break (RFC 4180). */
export function csvRow(values: readonly (string | number | null | undefined)[]): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}

/**
 * The leads matching the filter, newest (highest id) first as on the leads page, as CSV text: one
 * chunk per batch, the first one with the header (so a failure of the first query happens before
 * the caller has sent anything and can still be answered with an error status). Keyset
 * pagination on the primary key (`id < last id of the previous batch`, the status index when a
 * status is chosen): each batch is one short query that resumes where the last stopped, so no
 * connection or transaction is held between batches, memory stays at one batch, and the same
 * code runs on PGlite and PostgreSQL. A lead that changes while the export runs shows its old or
 * its new state (and may leave or join the filter meanwhile); each lead appears at most once.
 */
export async function* exportLeadsCsv(
  db: Db,
  filter: LeadExportFilter,
  batchSize = EXPORT_BATCH_SIZE,
): AsyncGenerator<string> {
  let chunk = csvRow(LEAD_EXPORT_COLUMNS);
  let lastId: number | null = null;
  for (;;) {
    const rows = await readExportBatch(db, filter, lastId, batchSize);
    for (const r of rows) {
      chunk += csvRow([
        r.firstName,
        r.lastName,
        r.phone,
        r.email,
        r.city,
        r.state,
        r.age,
        r.category,
        r.status,
        r.externalId,
        r.createdAt.toISOString(),
        r.agentName,
        r.agentEmail,
        r.assignedAt?.toISOString() ?? null,
        r.zip,
        r.timeZone,
        r.consentAt?.toISOString() ?? null,
        r.consentText,
        r.trustedFormCertUrl,
        r.jornayaLeadId,
        r.consentIp,
      ]);
    }
    if (chunk !== '') yield chunk;
    chunk = '';
    if (rows.length < batchSize) return;
    lastId = rows[rows.length - 1].id;
  }
}
