import type { SubscriptionStatus } from '../../../shared/domain';
import type { Db } from '../../db/client';

/** Work to run once the caller's transaction has committed (a call to Stripe). */
export type AfterCommit = () => Promise<void>;

const NOTHING: AfterCommit = async () => {};

/**
 * How the packages an agency pays are billed (docs/domain.md, Agencies, "Paying for members"):
 * without Stripe nothing is billed here (NO_SEATS); with Stripe the billing module keeps the
 * agency's one subscription in step, one item per package whose quantity is the members on it.
 * A port handed in by app.ts, so that this module does not depend on billing.
 */
export interface AgencySeats {
  /** whether paying for a member goes through Stripe */
  readonly billed: boolean;
  /**
   * Before paying for a member: the page where the owner pays first when the agency has no live
   * Stripe subscription (no payment method yet); null when the payment can go ahead.
   */
  checkout(
    db: Db,
    agencyId: number,
    memberId: number,
    packageId: number,
  ): Promise<{ checkoutUrl: string } | null>;
  /**
   * The members the agency pays for changed (in the caller's transaction, after its writes).
   * Answers what the caller runs after its commit: Stripe's items brought in step with the
   * members then paid for (recomputed from them, never counted up or down).
   */
  changed(tx: Db, agencyId: number): Promise<AfterCommit>;
  /** What the agency's payment says (PAST_DUE, CANCELED...); null: no word (no Stripe). */
  billingStatus(tx: Db, agencyId: number): Promise<SubscriptionStatus | null>;
  /** A member's own Stripe subscription, which the agency now pays instead, is cancelled. */
  cancelOwn(stripeSubscriptionId: string): Promise<void>;
}

export const NO_SEATS: AgencySeats = {
  billed: false,
  checkout: async () => null,
  changed: async () => NOTHING,
  billingStatus: async () => null,
  cancelOwn: async () => {},
};
