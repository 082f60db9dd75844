/**
 * Phones and emails for test leads. Lead quality (docs/domain.md) refuses a lead whose phone or email matches one
 * received in the last 30 days, and every phone must be a valid number: tests that store many
 * leads take a fresh one each (212 numbers: every exchange 200-999 is valid, 8,000,000 of them).
 */
let next = Math.floor(Math.random() * 1000) * 1000;

/** The n-th test number (n below 8,000,000), as people type it: '212-345-0123'. */
export function phoneAt(n: number): string {
  const k = n % 8_000_000;
  return `212-${200 + Math.floor(k / 10_000)}-${String(k % 10_000).padStart(4, '0')}`;
}

/** A valid US number not handed out before in this process. */
export function uniquePhone(): string {
  return phoneAt(next++);
}

/** The first of `count` numbers nobody else gets: `phoneAt(first + i)`. */
export function reservePhones(count: number): number {
  const first = next;
  next += count;
  return first;
}

/** The same number in E.164, as it is stored and answered: '+12123450123'. */
export function e164(phone: string): string {
  return `+1${phone.replace(/\D/g, '').slice(-10)}`;
}

/** An email not handed out before in this process. */
export function uniqueEmail(prefix = 'lead'): string {
  return `${prefix}-${next++}@example.com`;
}
