/**
 * The agency's payment as Stripe tells it (docs/domain.md, Agencies, "Paying with Stripe"),
 * asked by the billing module, which handles Stripe's webhook and keeps the agency's items in
 * step: this module keeps its own table and the subscriptions' rules (through their service).
 */
import type { SubscriptionStatus } from '../../../shared/domain';
import type { Db } from '../../db/client';
import { findPackageById } from '../packages/packages.service';
import {
  endAgencyPayment,
  payForMember,
  setAgencyPaidStatus,
} from '../subscriptions/subscriptions.service';
import { findAgencyPaidUserIds, findMembership } from './agencies.repository';
import { paidStatusOf } from './agencies.service';
import {
  type AgencyBilling,
  findAgencyBilling,
  writeAgencyBilling,
} from './agency-billing.repository';

export {
  type AgencyBilling,
  bumpSeatsVersion,
  countAgencySeats,
  findAgenciesBehindOnSeats,
  findAgencyBilling,
  findAgencyIdByStripe,
  markSeatsSynced,
  saveAgencyCustomer,
} from './agency-billing.repository';

/** A Stripe subscription that still bills the agency (so it has a payment method on file). */
export function billsLive(agency: AgencyBilling | null): boolean {
  return agency?.stripeSubscriptionId != null && agency.billingStatus !== 'CANCELED';
}

/**
 * Stripe's word on the agency's payment, in the webhook's transaction (the agency's row locked):
 * recorded with the event's time and subscription, then given to every package the agency pays:
 * PAST_DUE holds them (as set by AGENCY: a member cannot lift it), ACTIVE lifts the hold (a
 * suspension's INACTIVE stays, an admin's hold on one member too); CANCELED (the subscription
 * ended) ends every package the agency paid.
 */
export async function applyAgencyPayment(
  tx: Db,
  agency: AgencyBilling,
  input: { status: SubscriptionStatus; eventAt: Date; stripeSubscriptionId: string },
): Promise<void> {
  await writeAgencyBilling(tx, agency.id, {
    billingStatus: input.status,
    billingEventAt: input.eventAt,
    stripeSubscriptionId: input.stripeSubscriptionId,
  });
  if (input.status === 'CANCELED') {
    for (const userId of await findAgencyPaidUserIds(tx, agency.id)) {
      await endAgencyPayment(tx, userId, agency.id);
    }
    return;
  }
  await setAgencyPaidStatus(tx, agency.id, paidStatusOf(agency.status, input.status));
}

/** Only the event's time moves (an event that changes no status). */
export function recordAgencyEventTime(tx: Db, agencyId: number, eventAt: Date) {
  return writeAgencyBilling(tx, agencyId, { billingEventAt: eventAt });
}

/**
 * The owner's Checkout completed: the agency pays the member's package from now on, with the
 * status its standing gives. Nothing when the member left the agency or the package was withdrawn
 * meanwhile (the next change of seats brings Stripe in step). Answers the member's own Stripe
 * subscription to cancel, and whether anything changed.
 */
export async function payForMemberAfterCheckout(
  tx: Db,
  agencyId: number,
  memberId: number,
  packageId: number,
): Promise<{ paid: boolean; ownStripeSubscriptionId: string | null }> {
  const [member, pkg, agency] = await Promise.all([
    findMembership(tx, memberId),
    findPackageById(tx, packageId),
    findAgencyBilling(tx, agencyId),
  ]);
  if (!agency || member?.agencyId !== agencyId || !pkg?.active) {
    return { paid: false, ownStripeSubscriptionId: null };
  }
  const result = await payForMember(tx, {
    userId: memberId,
    packageId,
    agencyId,
    status: paidStatusOf(agency.status, agency.billingStatus),
  });
  return { paid: true, ownStripeSubscriptionId: result.ownStripeSubscriptionId };
}
