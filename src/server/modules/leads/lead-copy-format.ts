import type { ParsedLead } from './lead-csv';

/** The leads columns an import writes, in the order of the encoded rows. */
export const LEAD_COPY_COLUMNS =
  'external_id, first_name, last_name, phone, email, city, state, age, category, import_id';

/** What COPY's text format gives a meaning to inside a value: escaped, everything else is literal. */
const SPECIAL = /[\\\t\n\r]/;
const SPECIAL_ALL = /[\\\t\n\r]/g;
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/** One value in PostgreSQL's COPY text format: `\N` for null, `\\ \t \n \r` escaped. */
export function copyValue(value: string | null): string {
  if (value === null) return '\\N';
  return SPECIAL.test(value) ? value.replace(SPECIAL_ALL, (c) => ESCAPES[c]) : value;
}

/**
 * A batch of parsed leads as COPY text rows (tab-separated, one line each). Age and category come
 * validated from the parser and state is a 2-letter code, so only the free-text fields can hold
 * a character that needs escaping; one test over all of them keeps the common row on the fast path.
 */
export function encodeLeadRows(batch: readonly ParsedLead[], importId: number): string {
  const tail = `\t${importId}\n`;
  let out = '';
  for (const l of batch) {
    const free = `${l.externalId ?? ''}${l.firstName ?? ''}${l.lastName ?? ''}${l.phone ?? ''}${l.email ?? ''}${l.city}`;
    if (SPECIAL.test(free)) {
      out += `${copyValue(l.externalId)}\t${copyValue(l.firstName)}\t${copyValue(l.lastName)}\t${copyValue(l.phone)}\t${copyValue(l.email)}\t${copyValue(l.city)}\t${l.state}\t${l.age}\t${l.category}${tail}`;
    } else {
      out += `${l.externalId ?? '\\N'}\t${l.firstName ?? '\\N'}\t${l.lastName ?? '\\N'}\t${l.phone ?? '\\N'}\t${l.email ?? '\\N'}\t${l.city}\t${l.state}\t${l.age}\t${l.category}${tail}`;
    }
  }
  return out;
}
