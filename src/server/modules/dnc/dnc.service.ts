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
import { notifyLeadsOnDnc } from '../notifications/notifications.service';
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

/** The numbers of an upload, read one at a time: `size` places, each a number or nothing. */
interface EntrySource {
  size: number;
  /** the number at place i; null for a line without one to read (a header, a blank line) */
  entryAt(i: number): Entry | null;
  errors: Entry[];
}

/**
 * The numbers of a CSV: the `phone` column when the first line is a header naming one
 * (`phone`, `Phone Number`, `phone_number`...), else the first field of each line. A first line
 * of words without a phone column is a header we cannot use: nothing is read. Blank lines are
 * skipped; lines are numbered as in the file. Each line is split into fields only when read.
 */
function csvEntries(text: string): EntrySource {
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\n|\r/);
  const first = csvFields(lines[0] ?? '').map((h) => h.toLowerCase().replace(/[\s_-]/g, ''));
  let column = first.findIndex((h) => h === 'phone' || h === 'phonenumber');
  if (column < 0) column = first.findIndex((h) => h.includes('phone'));
  const wordsOnly = /[a-z]/.test(first.join('')) && !/\d/.test(first.join(''));
  if (column < 0 && wordsOnly) {
    return {
      size: 0,
      entryAt: () => null,
      errors: [{ line: 1, raw: 'The header has no phone column' }],
    };
  }
  const firstNumberLine = column >= 0 ? 1 : 0;
  return {
    size: lines.length,
    entryAt: (i) =>
      i < firstNumberLine || lines[i].trim() === ''
        ? null
        : { line: i + 1, raw: csvFields(lines[i])[Math.max(column, 0)] ?? '' },
    errors: [],
  };
}

/** A JSON `{phones}` list: each number's line is its 1-based position. */
function listEntries(phones: string[]): EntrySource {
  return { size: phones.length, entryAt: (i) => ({ line: i + 1, raw: phones[i] }), errors: [] };
}

/**
 * Numbers read and normalized between two turns of the event loop: a few milliseconds of work,
 * so that an upload at the size limit (about 150,000 numbers, seconds of parsing) never keeps
 * other requests waiting longer than that.
 */
const NUMBERS_PER_SLICE = 1000;

const nextTurnOfEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

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
  const source = typeof input === 'string' ? csvEntries(input) : listEntries(input.phones);
  const reasons = source.errors.map((e) => ({ line: e.line, reason: e.raw }));
  const phones = new Set<string>();
  let valid = 0;
  for (let i = 0; i < source.size; i++) {
    if (i > 0 && i % NUMBERS_PER_SLICE === 0) await nextTurnOfEventLoop();
    const entry = source.entryAt(i);
    if (!entry) continue;
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
  // the numbers and the notices to the agents of the leads still being worked, together
  const added = await db.transaction(async (tx) => {
    const listed = await addToDnc(tx, [...phones], addedBy);
    await notifyLeadsOnDnc(tx, listed);
    return listed.length;
  });
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
