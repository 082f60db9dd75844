/** Display helpers used by the screens; pure so both sides can test them. */

/** Prices are stored in cents and shown as USD with no decimals. */
export function formatPrice(cents: number): string {
  return new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency: 'USD',
    maximumFractionDigits: 0,
    minimumFractionDigits: 0,
  }).format(cents / 100);
}

/** Dollars typed in a form (step 0.01) to whole cents, rounded. */
export function dollarsToCents(dollars: number): number {
  return Math.round(dollars * 100);
}

/** converted / total as a percentage with one decimal; '0' when total is 0. */
export function conversionRate(converted: number, total: number): string {
  if (total === 0) return '0';
  return ((converted / total) * 100).toFixed(1);
}

/** MEDICARE -> MEDICARE, FINAL_EXPENSE -> FINAL EXPENSE */
export function categoryLabel(category: string): string {
  return category.replaceAll('_', ' ');
}

/** A lead status as the screens show it: IN_PROGRESS -> In Progress. */
export function leadStatusLabel(status: string): string {
  return status
    .toLowerCase()
    .split('_')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');
}

/** A lead as every screen names it: first and last name, or 'Unnamed lead' when it has neither. */
export function leadName(lead: { firstName: string | null; lastName: string | null }): string {
  return [lead.firstName, lead.lastName].filter(Boolean).join(' ') || 'Unnamed lead';
}

/** A lead's place as the screens show it: 'Austin, TX'. */
export function leadPlace(lead: { city: string; state: string }): string {
  return `${lead.city}, ${lead.state}`;
}
