/**
 * Reading Stripe's events (docs/domain.md, Billing): statuses, ids, times, and the order of
 * events (an older one never undoes a newer), shared by the agents' and the agencies' billing.
 */
import Stripe from 'stripe';
import type { SubscriptionStatus } from '../../../shared/domain';
import { AppError } from '../../lib/app-error';

/** Stripe's subscription status in ours; null: not decided yet (incomplete, paused). */
export function statusOf(stripeStatus: Stripe.Subscription.Status): SubscriptionStatus | null {
  switch (stripeStatus) {
    case 'active':
    case 'trialing':
      return 'ACTIVE';
    case 'past_due':
    case 'unpaid':
      return 'PAST_DUE';
    case 'canceled':
    case 'incomplete_expired':
      return 'CANCELED';
    default:
      return null;
  }
}

export const idOf = (value: string | { id: string } | null | undefined): string | null =>
  value == null ? null : typeof value === 'string' ? value : value.id;

export const fromUnix = (seconds: number | null | undefined): Date | null =>
  typeof seconds === 'number' ? new Date(seconds * 1000) : null;

/** The subscription an invoice bills (its parent in current API versions). */
export function invoiceSubscriptionId(invoice: Stripe.Invoice): string | null {
  const fromParent = idOf(invoice.parent?.subscription_details?.subscription);
  if (fromParent) return fromParent;
  const legacy = (invoice as unknown as { subscription?: string | { id: string } | null })
    .subscription;
  return idOf(legacy);
}

/**
 * Stripe refused or could not be reached: 503 with a message for the agent (the SDK's error, which
 * may name Stripe's objects, stays in `cause` for the log); a webhook answered 503 is retried by
 * Stripe. Anything else (the database, our own refusals) passes unchanged.
 */
export async function viaStripe<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof Stripe.errors.StripeError)) throw error;
    const unavailable = new AppError(
      'SERVICE_UNAVAILABLE',
      'Payments are unavailable right now: please try again in a moment',
    );
    unavailable.cause = error;
    throw unavailable;
  }
}

/** An event as the same-second order reads it. */
export interface EventState {
  created: Date;
  /** the period the event is about (its invoice's, else its subscription's) */
  periodEnd: Date | null;
  status: SubscriptionStatus | null;
  /** a paid invoice: it settles the failures of its period */
  paid: boolean;
  /** about the Stripe subscription already applied (not one that replaces it) */
  sameSubscription: boolean;
}

/**
 * Whether an event is older than the state already applied, so changes no status, package,
 * price or period. Created in an earlier second: older. In the same second (Stripe's `created`
 * has no finer grain, and deliveries come in any order) the objects' own state decides, for
 * the same Stripe subscription: a period that ends earlier is older; within one period a
 * cancellation is final, and a past due subscription becomes active again only by a paid
 * invoice (a subscription update saying "active" in that second is the older state).
 */
export function isBehind(
  event: EventState,
  applied: {
    billingEventAt: Date | null;
    currentPeriodEnd: Date | null;
    status: SubscriptionStatus | null;
  },
): boolean {
  if (applied.billingEventAt == null) return false;
  if (event.created.getTime() !== applied.billingEventAt.getTime()) {
    return event.created < applied.billingEventAt;
  }
  if (!event.sameSubscription || event.status === null) return false;
  if (event.periodEnd && applied.currentPeriodEnd) {
    const diff = event.periodEnd.getTime() - applied.currentPeriodEnd.getTime();
    if (diff !== 0) return diff < 0;
  }
  if (applied.status === 'CANCELED') return event.status !== 'CANCELED';
  if (applied.status === 'PAST_DUE') return event.status === 'ACTIVE' && !event.paid;
  return false;
}
