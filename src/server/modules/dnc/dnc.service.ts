/**
 * The admins' do-not-call list (docs/domain.md "Do-not-call list and consent"):
 * uploads of numbers (a CSV or JSON), normalized to E.164; bad lines reported by line, good
 * ones kept.
 */
import {
  DNC_MAX_ERRORS_LISTED,
  type DncList,
  type DncListQuery,
  type DncUploadResult,
} from '../../../shared/contracts/dnc';
import { toE164 } from '../../../shared/phone';
import type { Db } from '../../db/client';
import { AppError, badRequest } from '../../lib/app-error';
import { addToDnc, listDnc, removeFromDnc } from './dnc.repository';

/** One number to add, with where it came from (file line, or position in `phones`). */
interface Entry {
  line: number;
  raw: string;
}

/** Splits one CSV line into fields ("..." quoting with "" for a quote). */
function csvFields(line: string): string[] {
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',' || c === ';' || c === '\t') {
      fields.push(field);
      field = '';
    } else field += c;
  }
  fields.push(field);
  return fields.map((f) => f.trim());
}

/**
 * The numbers of a CSV: the `phone` column when the first line is a header naming one
 * (`phone`, `Phone Number`, `phone_number`...), else the first field of each line. A first line
 * of words without a phone column is a header we cannot use: nothing is read. Blank lines are
 * skipped; lines are numbered as in the file.
 */
export function entriesOfCsv(text: string): { entries: Entry[]; errors: Entry[] } {
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\n|\r/);
  const first = csvFields(lines[0] ?? '').map((h) => h.toLowerCase().replace(/[\s_-]/g, ''));
  let column = first.findIndex((h) => h === 'phone' || h === 'phonenumber');
  if (column < 0) column = first.findIndex((h) => h.includes('phone'));
  const wordsOnly = /[a-z]/.test(first.join('')) && !/\d/.test(first.join(''));
  if (column < 0 && wordsOnly) {
    return { entries: [], errors: [{ line: 1, raw: 'The header has no phone column' }] };
  }
  const entries: Entry[] = [];
  lines.forEach((line, index) => {
    if (column >= 0 && index === 0) return;
    if (line.trim() === '') return;
    entries.push({ line: index + 1, raw: csvFields(line)[Math.max(column, 0)] ?? '' });
  });
  return { entries, errors: [] };
}

/** What a bad value looks like in its error: printable, short. */
function shown(raw: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: they are what must not be echoed
  const clean = raw.replace(/[\u0000-\u001f\u007f]/g, '');
  return clean.length > 40 ? `${clean.slice(0, 40)}…` : clean;
}

/** Adds the numbers of a CSV text or of a `{phones}` list; bad ones are reported, not fatal. */
export async function uploadDnc(
  db: Db,
  input: string | { phones: string[] },
  addedBy: number,
): Promise<DncUploadResult> {
  const reasons: { line: number; reason: string }[] = [];
  let entries: Entry[];
  if (typeof input === 'string') {
    const parsed = entriesOfCsv(input);
    entries = parsed.entries;
    for (const e of parsed.errors) reasons.push({ line: e.line, reason: e.raw });
  } else {
    entries = input.phones.map((raw, i) => ({ line: i + 1, raw }));
  }
  const phones = new Set<string>();
  let valid = 0;
  for (const entry of entries) {
    const phone = toE164(entry.raw);
    if (!phone) {
      reasons.push({
        line: entry.line,
        reason:
          entry.raw.trim() === ''
            ? 'no phone number'
            : `'${shown(entry.raw)}' is not a valid phone number`,
      });
      continue;
    }
    valid += 1;
    phones.add(phone);
  }
  reasons.sort((a, b) => a.line - b.line);
  const added = await addToDnc(db, [...phones], addedBy);
  return {
    added,
    alreadyListed: valid - added,
    errors: reasons.slice(0, DNC_MAX_ERRORS_LISTED),
    errorCount: reasons.length,
  };
}

/** A page of the list; the search matches the digits of a number anywhere in it. */
export async function listDncNumbers(db: Db, query: DncListQuery): Promise<DncList> {
  const digits = (query.q ?? '').replace(/\D/g, '');
  if (query.q && digits === '') throw badRequest('Search by the digits of a phone number');
  const { count, total, rows } = await listDnc(db, {
    digits: digits === '' ? null : digits,
    limit: query.limit,
    offset: query.offset,
  });
  return {
    count,
    total,
    items: rows.map((r) => ({
      phone: r.phone,
      addedAt: new Date(r.added_at).toISOString(),
      addedBy: r.added_by_id !== null ? { id: r.added_by_id, name: r.added_by_name ?? '' } : null,
    })),
  };
}

/** Takes a number off the list (as written, or in E.164); 404 when it is not listed. */
export async function removeDncNumber(db: Db, raw: string): Promise<{ phone: string }> {
  const phone = toE164(raw);
  if (!phone) throw badRequest(`'${shown(raw)}' is not a valid phone number`);
  if (!(await removeFromDnc(db, phone))) {
    throw new AppError('NOT_FOUND', `${phone} is not on the do-not-call list`);
  }
  return { phone };
}
