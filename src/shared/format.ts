/** Display helpers used by the screens; pure so both sides can test them. */

import type { SubscriptionStatus } from './domain';

/** Prices are stored in cents and shown as USD with no decimals. */
export function formatPrice(cents: number): string {
  return new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency: 'USD',
    maximumFractionDigits: 0,
    minimumFractionDigits: 0,
  }).format(cents / 100);
}

/**
 * A price to the cent, for what an agent agrees to pay (a confirmation): $49.99 is not "$50".
 */
export function formatPriceExact(cents: number): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(cents / 100);
}

/** Dollars typed in a form (step 0.01) to whole cents, rounded. */
export function dollarsToCents(dollars: number): number {
  return Math.round(dollars * 100);
}

/** Every rate on every screen reads the same: one decimal and a percent sign ('0.0%', '12.5%'). */
export function formatPercent(percent: number): string {
  return `${(Number.isFinite(percent) ? percent : 0).toFixed(1)}%`;
}

/** converted / total as a rate ('25.0%'); '0.0%' when there is nothing to convert yet. */
export function formatConversionRate(converted: number, total: number): string {
  return formatPercent(total === 0 ? 0 : (converted / total) * 100);
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

const SUBSCRIPTION_STATUS_LABELS: Record<SubscriptionStatus, string> = {
  ACTIVE: 'Active',
  PAST_DUE: 'Past due',
  CANCELED: 'Canceled',
  INACTIVE: 'Inactive',
};

/** A subscription status in words: PAST_DUE -> Past due (never the enum on a screen). */
export function subscriptionStatusLabel(status: SubscriptionStatus): string {
  return SUBSCRIPTION_STATUS_LABELS[status] ?? leadStatusLabel(status);
}

/**
 * Today's quota as the agent's card and the admin's table show it. A quota exists only while
 * the subscription is ACTIVE (docs/domain.md, Quota): otherwise it reads N/A, with the reason,
 * and with the leads an admin assigned by hand today, if any (they still count).
 */
export function quotaSummary(
  quota: { assigned: number; limit: number } | null,
  status: SubscriptionStatus | null | undefined,
): { value: string; note: string; percent: number | null } {
  const assigned = quota?.assigned ?? 0;
  if (status !== 'ACTIVE' || !quota) {
    const reason = status
      ? `Subscription ${subscriptionStatusLabel(status).toLowerCase()}`
      : 'No active subscription';
    const extra =
      assigned > 0 ? ` · ${assigned} ${assigned === 1 ? 'lead' : 'leads'} assigned today` : '';
    return { value: 'N/A', note: `${reason}${extra}`, percent: null };
  }
  const { limit } = quota;
  const remaining = Math.max(0, limit - assigned);
  const note =
    limit > 0 && assigned >= limit
      ? 'Quota reached'
      : `${remaining} ${remaining === 1 ? 'lead' : 'leads'} remaining today`;
  const percent = limit > 0 ? Math.min(100, (assigned / limit) * 100) : 0;
  return { value: `${assigned} / ${limit}`, note, percent };
}

/** The business day's zone when the server names none: BUSINESS_TZ's default (docs/domain.md). */
export const DEFAULT_BUSINESS_TIME_ZONE = 'America/New_York';

const timeFormats = new Map<string, Intl.DateTimeFormat>();
function timeFormat(timeZone: string): Intl.DateTimeFormat {
  let format = timeFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      month: 'numeric',
      day: 'numeric',
      year: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
      // "ET", not "EST"/"EDT": the zone a reader knows, whatever the season
      timeZoneName: 'shortGeneric',
    });
    timeFormats.set(timeZone, format);
  }
  return format;
}

/**
 * A moment in the business time zone, labelled with it: '11/23/2026, 2:43 AM ET'. Every
 * time on a screen reads in the zone that decides "today" (the quota, the daily run), never in
 * the browser's. An unknown zone falls back to the default; an unreadable time stays as given.
 */
export function formatBusinessTime(iso: string, timeZone = DEFAULT_BUSINESS_TIME_ZONE): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  try {
    return timeFormat(timeZone).format(date);
  } catch {
    return timeFormat(DEFAULT_BUSINESS_TIME_ZONE).format(date);
  }
}

const RETURN_REASON_LABELS: Record<string, string> = {
  WRONG_NUMBER: 'Wrong number',
  DUPLICATE: 'Duplicate',
  OUT_OF_AREA: 'Out of area',
  FAKE_INFO: 'Fake information',
  CONSUMER_DENIES: 'Consumer denies request',
  LANGUAGE_BARRIER: 'Language barrier',
  UNDER_AGE: 'Under age',
};

/** A return reason (docs/domain.md, Returns and credits) in words: WRONG_NUMBER -> Wrong number. */
export function returnReasonLabel(reason: string): string {
  return RETURN_REASON_LABELS[reason] ?? leadStatusLabel(reason);
}

/** A lead's price (pay per lead, a wallet's amounts): '$25', or to the cent when it has cents ('$12.50'). */
export function formatLeadPrice(cents: number): string {
  return cents % 100 === 0 ? formatPrice(cents) : formatPriceExact(cents);
}

/**
 * A package's price as the cards say it: '$299/month' for a subscription; for pay per lead the
 * least a lead costs, by its price list or its price per lead ('from $12.50 per lead').
 */
export function packagePriceLabel(pkg: {
  pricing: 'SUBSCRIPTION' | 'PER_LEAD';
  priceMonthlyCents: number;
  perLeadCents: number | null;
  fromPerLeadCents: number | null;
}): string {
  if (pkg.pricing !== 'PER_LEAD') return `${formatPrice(pkg.priceMonthlyCents)}/month`;
  const from = pkg.fromPerLeadCents ?? pkg.perLeadCents ?? 0;
  return `from ${formatLeadPrice(from)} per lead`;
}
