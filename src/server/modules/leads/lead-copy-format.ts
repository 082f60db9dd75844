import type { ParsedLead } from './lead-row.service';

/** The leads columns an import writes, in the order of the encoded rows. */
export const LEAD_COPY_COLUMNS =
  'external_id, first_name, last_name, phone, email, city, state, age, category, zip, time_zone, ' +
  'consent_at, consent_text, trusted_form_cert_url, jornaya_lead_id, consent_ip, ' +
  'consent_outcome, consent_verified_at, consent_expires_at, import_id, source_id, import_line';

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
 * a character that needs escaping; a row without one takes the fast path (a test per field, no
 * intermediate strings: this runs a million times per large import).
 */
export function encodeLeadRows(
  batch: readonly ParsedLead[],
  importId: number,
  sourceId: number | null = null,
): string {
  const encode = leadRowEncoder(importId, sourceId);
  let out = '';
  for (const l of batch) out += encode(l);
  return out;
}

/** One parsed lead as one COPY text row (its newline included), for the import `importId`. */
export function leadRowEncoder(
  importId: number,
  sourceId: number | null = null,
): (lead: ParsedLead) => string {
  const origin = `\t${importId}\t${sourceId ?? '\\N'}\t`;
  const unchecked = `\t\\N\t\\N\t\\N${origin}`;
  return (l) => {
    // the consent check's outcome (an enum value) and its ISO times never need escaping
    const tail =
      l.consentOutcome == null
        ? `${unchecked}${l.line}\n`
        : `\t${l.consentOutcome}\t${l.consentVerifiedAt ?? '\\N'}\t${l.consentExpiresAt ?? '\\N'}${origin}${l.line}\n`;
    const { externalId: x, firstName: f, lastName: s, phone: p, email: e, city: c } = l;
    // zip (digits), time zone (an IANA name) and consentAt (ISO) never need escaping
    const quality =
      l.consentAt === null &&
      l.consentText === null &&
      l.trustedFormCertUrl === null &&
      l.jornayaLeadId === null &&
      l.consentIp === null
        ? `\t${l.zip ?? '\\N'}\t${l.timeZone}\t\\N\t\\N\t\\N\t\\N\t\\N`
        : `\t${l.zip ?? '\\N'}\t${l.timeZone}\t${l.consentAt ?? '\\N'}\t${copyValue(l.consentText)}\t${copyValue(l.trustedFormCertUrl)}\t${copyValue(l.jornayaLeadId)}\t${copyValue(l.consentIp)}`;
    if (
      (x !== null && SPECIAL.test(x)) ||
      (f !== null && SPECIAL.test(f)) ||
      (s !== null && SPECIAL.test(s)) ||
      (p !== null && SPECIAL.test(p)) ||
      (e !== null && SPECIAL.test(e)) ||
      SPECIAL.test(c)
    ) {
      return `${copyValue(x)}\t${copyValue(f)}\t${copyValue(s)}\t${copyValue(p)}\t${copyValue(e)}\t${copyValue(c)}\t${l.state}\t${l.age}\t${l.category}${quality}${tail}`;
    }
    return `${x ?? '\\N'}\t${f ?? '\\N'}\t${s ?? '\\N'}\t${p ?? '\\N'}\t${e ?? '\\N'}\t${c}\t${l.state}\t${l.age}\t${l.category}${quality}${tail}`;
  };
}
