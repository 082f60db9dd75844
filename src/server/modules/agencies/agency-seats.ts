import type { SubscriptionStatus } from '../../../shared/domain';
import type { Db } from '../../db/client';

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
   * The members the agency pays for changed (in the caller's transaction, after its writes):
   * the Stripe items' quantities follow (no member left on it: the subscription ends).
   */
  changed(tx: Db, agencyId: number): Promise<void>;
  /** What the agency's payment says (PAST_DUE, CANCELED...); null: no word (no Stripe). */
  billingStatus(tx: Db, agencyId: number): Promise<SubscriptionStatus | null>;
  /** A member's own Stripe subscription, which the agency now pays instead, is cancelled. */
  cancelOwn(stripeSubscriptionId: string): Promise<void>;
}

export const NO_SEATS: AgencySeats = {
  billed: false,
  changed: async () => {},
  billingStatus: async () => null,
  cancelOwn: async () => {},
};
