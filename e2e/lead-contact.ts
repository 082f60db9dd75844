/**
 * Phones for e2e leads. Lead quality (docs/domain.md) refuses a lead whose phone or email matches one received in
 * the last 30 days, and every phone must be a valid number; the e2e database outlives a run, so
 * each run takes numbers at random among 8,000,000 valid 212 numbers (exchanges 200-999).
 */
let next = Math.floor(Math.random() * 7_000_000);

/** A valid US number, as people type it ('212-345-0123'), not handed out before in this run. */
export function uniquePhone(): string {
  const n = next++ % 8_000_000;
  return `212-${200 + Math.floor(n / 10_000)}-${String(n % 10_000).padStart(4, '0')}`;
}

/** The same number in E.164, as the portal stores and shows it: '+12123450123'. */
export function e164(phone: string): string {
  return `+1${phone.replace(/\D/g, '').slice(-10)}`;
}
