/**
 * The agency pays its members' packages (docs/domain.md, Agencies, "Paying for members"): the
 * OWNER starts or ends the payment of a member's package. The subscription itself is written by
 * the subscriptions module; the Stripe items by the billing port (AgencySeats).
 */
import type { AgencyMember } from '../../../shared/contracts/agency';
import type { Db } from '../../db/client';
import { badRequest, conflict, notFound } from '../../lib/app-error';
import { findPackageById } from '../packages/packages.service';
import { endAgencyPayment, payForMember } from '../subscriptions/subscriptions.service';
import { lockAgency } from './agencies.repository';
import { memberInScope, membershipOf, ownerOnly, paidStatusOf } from './agencies.service';
import { agencyMember } from './agency-book.service';
import type { AgencySeats } from './agency-seats';

/**
 * The agency pays the member's package from now on: ACTIVE at once (held INACTIVE while the
 * agency is suspended, PAST_DUE while its payment is); the member's own Stripe subscription, if
 * any, is cancelled (the agency pays instead). With Stripe the package's item on the agency's
 * subscription counts one member more, after the commit; when the agency has no live Stripe
 * subscription yet, the answer is the Checkout where the owner pays first, and the member is paid
 * for when Stripe says it went through.
 */
export async function payMemberPackage(
  db: Db,
  seats: AgencySeats,
  timeZone: string,
  userId: number,
  memberId: number,
  packageId: number,
): Promise<AgencyMember | { checkoutUrl: string }> {
  const me = await membershipOf(db, userId);
  ownerOnly(me, "pay for members' packages");
  await memberInScope(db, me, memberId);
  const pkg = await findPackageById(db, packageId);
  if (!pkg) throw notFound('Package');
  if (!pkg.active) throw badRequest('This package is no longer available');
  // a pay-per-lead package is paid lead by lead from the member's own wallet, never by the agency
  if (pkg.pricing === 'PER_LEAD') {
    throw conflict(
      "A pay-per-lead package is paid from the member's own wallet: the agency pays monthly packages only",
    );
  }
  const checkout = await seats.checkout(db, me.agencyId, memberId, packageId);
  if (checkout) return checkout;
  const { own, afterCommit } = await db.transaction(async (tx) => {
    const agency = await lockAgency(tx, me.agencyId);
    if (!agency) throw notFound('Agency');
    const billing = await seats.billingStatus(tx, me.agencyId);
    // the agency's Stripe subscription ended since the check above: Checkout again
    if (seats.billed && billing === 'CANCELED') {
      throw conflict("The agency's payment ended meanwhile: try again");
    }
    const result = await payForMember(tx, {
      userId: memberId,
      packageId,
      agencyId: me.agencyId,
      status: paidStatusOf(agency.status, billing),
    });
    return {
      own: result.ownStripeSubscriptionId,
      afterCommit: await seats.changed(tx, me.agencyId),
    };
  });
  await afterCommit();
  if (own) await seats.cancelOwn(own);
  return agencyMember(db, timeZone, userId, memberId);
}

/** The agency stops paying the member's package: CANCELED; the member may pay it themself. */
export async function endMemberPackage(
  db: Db,
  seats: AgencySeats,
  timeZone: string,
  userId: number,
  memberId: number,
): Promise<AgencyMember> {
  const me = await membershipOf(db, userId);
  ownerOnly(me, "end members' packages");
  await memberInScope(db, me, memberId);
  const afterCommit = await db.transaction(async (tx) => {
    await lockAgency(tx, me.agencyId);
    if (!(await endAgencyPayment(tx, memberId, me.agencyId))) {
      throw notFound('A package the agency pays for this member');
    }
    return seats.changed(tx, me.agencyId);
  });
  await afterCommit();
  return agencyMember(db, timeZone, userId, memberId);
}
