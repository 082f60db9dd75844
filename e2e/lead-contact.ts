/**
 * Phones for e2e leads. Lead quality (docs/domain.md) refuses a lead whose phone or email matches
 * one received in the last 30 days, and every phone must be a valid number. The specs' leads take
 * 212 numbers (exchanges 200-999: 8,000,000 valid numbers) from a random start, one after
 * another, never in the 555 exchange the specs' written-out numbers use; the counter is the
 * worker process's, not this module's, so specs loaded apart still never hand out the same
 * number twice. A bulk of leads (the 100,000-row import) takes its own area code, 646, so it can
 * never take a number a spec's lead already has.
 */
const shared = globalThis as { leadflowE2ePhone?: number };

/** The n-th number of an area code's exchanges 200-999, as people type it ('212-345-0123'). */
function numberOf(areaCode: string, n: number): string {
  const k = n % 8_000_000;
  return `${areaCode}-${200 + Math.floor(k / 10_000)}-${String(k % 10_000).padStart(4, '0')}`;
}

/** A valid US number, as people type it ('212-345-0123'), not handed out before in this run. */
export function uniquePhone(): string {
  shared.leadflowE2ePhone ??= Math.floor(Math.random() * 7_000_000);
  for (;;) {
    const phone = numberOf('212', shared.leadflowE2ePhone++);
    // 212-555-xxxx is the specs' written-out numbers' exchange ('212-555-0190')
    if (!phone.startsWith('212-555-')) return phone;
  }
}

/** `count` valid numbers one after another in the 646 area code, none ever a `uniquePhone`. */
export function bulkPhones(count: number): string[] {
  const start = Math.floor(Math.random() * (8_000_000 - count));
  return Array.from({ length: count }, (_, i) => numberOf('646', start + i));
}

/** The same number in E.164, as the portal stores and shows it: '+12123450123'. */
export function e164(phone: string): string {
  return `+1${phone.replace(/\D/g, '').slice(-10)}`;
}
