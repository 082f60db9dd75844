/**
 * Which numbers LeadFlow's phone account may ring (docs/domain.md, Follow-up messages and calls):
 * a line in a served country (SERVED_COUNTRIES), never a premium-rate, shared-cost, toll-free or
 * other special number. Read with libphonenumber-js's full metadata, which knows each number's
 * type (the web bundle's smaller metadata does not).
 */
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

const LINE_TYPES = new Set(['FIXED_LINE', 'MOBILE', 'FIXED_LINE_OR_MOBILE', 'VOIP']);

/** Null when the E.164 number may be rung, else why not (for the person who gave it). */
export function notCallable(e164: string, servedCountries: readonly string[]): string | null {
  const parsed = parsePhoneNumberFromString(e164);
  if (!parsed?.isValid()) return 'This is not a valid phone number';
  if (!parsed.country || !servedCountries.includes(parsed.country)) {
    return `Only numbers of ${servedCountries.join(', ')} can be called`;
  }
  const type = parsed.getType();
  if (!type || !LINE_TYPES.has(type)) {
    return 'Premium-rate, toll-free and other special numbers cannot be called';
  }
  return null;
}
