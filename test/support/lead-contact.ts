/**
 * Phones and emails for test leads. Design 10 refuses a lead whose phone or email matches one
 * received in the last 30 days, and every phone must be a valid number: tests that store many
 * leads take a fresh one each (212 numbers: every exchange 200-999 is valid).
 */
let next = Math.floor(Math.random() * 1000) * 1000;

/** A valid US number not handed out before in this process, as people type it: '212-345-0123'. */
export function uniquePhone(): string {
  const n = next++ % 8_000_000;
  return `212-${200 + Math.floor(n / 10_000)}-${String(n % 10_000).padStart(4, '0')}`;
}

/** The same number in E.164, as it is stored and answered: '+12123450123'. */
export function e164(phone: string): string {
  return `+1${phone.replace(/\D/g, '').slice(-10)}`;
}

/** An email not handed out before in this process. */
export function uniqueEmail(prefix = 'lead'): string {
  return `${prefix}-${next++}@example.com`;
}
