/**
 * Phone numbers as LeadFlow keeps them: E.164 (docs/domain.md, Lead quality), parsed with
 * libphonenumber-js; numbers without a country code are read as US numbers.
 */
import { parsePhoneNumberFromString } from 'libphonenumber-js/min';

/** The number in E.164 ('+13055550123'), or null when it is not a valid phone number. */
export function toE164(raw: string): string | null {
  const text = raw.trim();
  if (text === '') return null;
  const parsed = parsePhoneNumberFromString(text, 'US');
  if (!parsed?.isValid()) return null;
  return parsed.number;
}

/** '+13055550123' as people read it: '(305) 555-0123' for US numbers, else international. */
export function formatPhone(e164: string): string {
  const parsed = parsePhoneNumberFromString(e164);
  if (!parsed) return e164;
  return parsed.country === 'US' ? parsed.formatNational() : parsed.formatInternational();
}
