import type { AdminAgent } from '../../../shared/contracts/admin';
import type { SubscriptionSummary } from '../../../shared/contracts/agent';
import type { SubscriptionActor, SubscriptionStatus } from '../../../shared/domain';
import type { Db } from '../../db/client';
import { AppError, badRequest, conflict, notFound } from '../../lib/app-error';
import { findAgent } from '../agents/agents.service';
import { endLiveStreamsOf } from '../notifications/notifications.service';
import { findPackageById } from '../packages/packages.service';
import {
  endAgencyPaidSubscription,
  findSubscription,
  lockSubscription,
  updateAgencyPaidStatus,
  updateSubscriptionStatus,
  writeAgencyPaidSubscription,
  writeSubscription,
} from './subscriptions.repository';

/** Billing's writes of the subscription's Stripe columns. */
/** The demo seed's subscriptions, written as they are. */
export {
  type BillingFields,
  writeBillingFields,
  writeSubscription,
} from './subscriptions.repository';

/** The agent's subscription with its package, or null when they never subscribed. */
export function findAgentSubscription(
  db: Db,
  agentId: number,
): Promise<SubscriptionSummary | null> {
  return findSubscription(db, agentId);
}

/**
 * Subscribes the agent to a package, or switches their subscription to it (docs/domain.md,
 * Subscriptions). Without a payment provider a new subscription is ACTIVE at once, and so is one
 * the agent cancelled themself. Any other status stays as it is whatever package the agent
 * switches to: an agent never lifts a PAST_DUE or INACTIVE, nor a cancellation by an admin.
 * Only an active package can be chosen.
 */
export async function subscribe(
  db: Db,
  agentId: number,
  packageId: number,
  billing?: SubscriptionBilling | null,
): Promise<SubscriptionSummary | CheckoutStarted> {
  const pkg = await findPackageById(db, packageId);
  if (!pkg) throw notFound('Package');
  if (!pkg.active) throw badRequest('This package is no longer available');
  await refuseAgencyPaid(db, agentId);
  // a pay-per-lead package has no monthly price: its leads are paid from the wallet
  // (docs/domain.md, Pay per lead), so it starts at once, Stripe or not
  if (billing && pkg.pricing === 'SUBSCRIPTION') {
    return subscribeThroughBilling(db, agentId, packageId, billing);
  }
  await db.transaction(async (tx) => {
    const current = await lockSubscription(tx, agentId);
    if (current?.paidByAgencyId != null) throw conflict(AGENCY_PAYS);
    if (current?.stripeSubscriptionId && current.status !== 'CANCELED') {
      throw conflict(
        'Your monthly package is paid by card: cancel it first, then choose a pay-per-lead package',
      );
    }
    if (!current || current.status === 'ACTIVE' || ownCancellation(current)) {
      await writeSubscription(tx, agentId, packageId, 'ACTIVE', 'AGENT');
    } else {
      await writeSubscription(tx, agentId, packageId, current.status, current.statusSetBy);
    }
  });
  return mustFind(db, agentId);
}

/** A status the agent may not lift, nor overwrite with their own cancellation. */
function onHold(s: { status: SubscriptionStatus; statusSetBy: SubscriptionActor }): boolean {
  return (
    s.status === 'PAST_DUE' ||
    s.status === 'INACTIVE' ||
    (s.status === 'CANCELED' && !ownCancellation(s))
  );
}

/**
 * A cancellation the agent may undo by subscribing again: their own, or the end of an agency's
 * paying (they pay themselves from then on).
 */
function ownCancellation(s: { status: SubscriptionStatus; statusSetBy: SubscriptionActor }) {
  return s.status === 'CANCELED' && (s.statusSetBy === 'AGENT' || s.statusSetBy === 'AGENCY');
}

export const AGENCY_PAYS = 'Your agency pays for your package: only its owner can change or end it';

/** A member cannot change or cancel what the agency pays (docs/domain.md, Agencies): 409. */
async function refuseAgencyPaid(db: Db, agentId: number): Promise<void> {
  const current = await db.transaction((tx) => lockSubscription(tx, agentId));
  if (current?.paidByAgencyId != null) throw conflict(AGENCY_PAYS);
}

/** What subscribing answers when the agent must pay first: Stripe Checkout's page. */
export interface CheckoutStarted {
  checkoutUrl: string;
}

/**
 * The payment provider as subscribing needs it (billing.service implements it; passed in, so
 * that this module does not depend on billing, which depends on it).
 */
export interface SubscriptionBilling {
  /** Starts Stripe Checkout for the package's current monthly price. */
  startCheckout(agentId: number, packageId: number): Promise<CheckoutStarted>;
  /**
   * Moves a live Stripe subscription to the package's current price (no new Checkout), invoicing
   * the difference at once; the move holds only once that invoice is paid. Null when it holds now
   * (paid from the card on file, or a cheaper package); else the invoice's page, to pay it.
   */
  switchPrice(
    agentId: number,
    stripeSubscriptionId: string,
    packageId: number,
  ): Promise<CheckoutStarted | null>;
  /** Cancels a Stripe subscription now, invoicing what is still owed. */
  cancel(stripeSubscriptionId: string): Promise<void>;
}

/**
 * Subscribing with Stripe Billing on (docs/domain.md, Billing). A live Stripe subscription
 * (ACTIVE or PAST_DUE) is moved to the new package's price, the difference invoiced at once, and
 * the switch recorded (its status kept) once that invoice is paid; an invoice the card on file
 * did not pay is answered as the page to pay it, the package unchanged until then. A status the agent may not lift (PAST_DUE, INACTIVE, an admin's CANCELED) stays, the
 * switch recorded, as without Stripe. Otherwise (none yet, their own or Stripe's cancellation,
 * or ACTIVE without a Stripe subscription) the agent pays first: Stripe Checkout, and the status
 * changes only when its webhooks say the payment went through.
 */
async function subscribeThroughBilling(
  db: Db,
  agentId: number,
  packageId: number,
  billing: SubscriptionBilling,
): Promise<SubscriptionSummary | CheckoutStarted> {
  const current = await db.transaction((tx) => lockSubscription(tx, agentId));
  const live = current?.status === 'ACTIVE' || current?.status === 'PAST_DUE';
  if (current?.stripeSubscriptionId && live) {
    // a bigger package is the agent's once its payment went through: until then the package,
    // the quota with it, stays (the webhook of the paid invoice's subscription switches it)
    const unpaid = await billing.switchPrice(agentId, current.stripeSubscriptionId, packageId);
    if (unpaid) return unpaid;
    await keepStatusSwitchPackage(db, agentId, packageId);
    return mustFind(db, agentId);
  }
  if (current && !payable(current)) {
    await keepStatusSwitchPackage(db, agentId, packageId);
    return mustFind(db, agentId);
  }
  return billing.startCheckout(agentId, packageId);
}

/** Whether a payment through Checkout may (re)start the subscription: no hold on it. */
function payable(s: { status: SubscriptionStatus; statusSetBy: SubscriptionActor }): boolean {
  if (s.status === 'ACTIVE') return true;
  return s.status === 'CANCELED' && s.statusSetBy !== 'ADMIN';
}

/**
 * The agency pays the member's package from now on (docs/domain.md, Agencies), in the caller's
 * transaction: the subscription is set to the package with `status` (the agency's standing:
 * ACTIVE, or its hold), recorded as set by AGENCY. An admin's hold on the member (any status but
 * ACTIVE set by an admin) stays: only an admin lifts it. The member's own Stripe subscription, if
 * any, is answered so that the caller cancels it (the member no longer pays it).
 */
export async function payForMember(
  tx: Db,
  input: { userId: number; packageId: number; agencyId: number; status: SubscriptionStatus },
): Promise<{ ownStripeSubscriptionId: string | null }> {
  const current = await lockSubscription(tx, input.userId);
  const adminHold = current?.statusSetBy === 'ADMIN' && current.status !== 'ACTIVE';
  const ownStripe =
    current?.paidByAgencyId == null && current?.status !== 'CANCELED'
      ? (current?.stripeSubscriptionId ?? null)
      : null;
  if (adminHold && current) {
    await writeAgencyPaidSubscription(
      tx,
      input.userId,
      input.packageId,
      input.agencyId,
      current.status,
    );
    await updateSubscriptionStatus(tx, input.userId, current.status, 'ADMIN');
  } else {
    await writeAgencyPaidSubscription(
      tx,
      input.userId,
      input.packageId,
      input.agencyId,
      input.status,
    );
  }
  return { ownStripeSubscriptionId: ownStripe };
}

/**
 * The agency stops paying the member's package (its owner ends it, or the member leaves): the
 * subscription is CANCELED, set by AGENCY, and the member may subscribe on their own again. False
 * when the agency did not pay it.
 */
export function endAgencyPayment(tx: Db, userId: number, agencyId: number): Promise<boolean> {
  return endAgencyPaidSubscription(tx, userId, agencyId);
}

/**
 * The agency's standing given to every package it pays (its suspension, its payment falling past
 * due, either lifted), as set by AGENCY; an admin's hold on one member stays. Each member whose
 * status changed has their live streams ended, as an admin's change does.
 */
export async function setAgencyPaidStatus(
  tx: Db,
  agencyId: number,
  status: SubscriptionStatus,
): Promise<number[]> {
  const changed = await updateAgencyPaidStatus(tx, agencyId, status);
  for (const userId of changed) await endLiveStreamsOf(tx, userId);
  return changed;
}

async function keepStatusSwitchPackage(db: Db, agentId: number, packageId: number) {
  await db.transaction(async (tx) => {
    const current = await lockSubscription(tx, agentId);
    if (current) {
      await writeSubscription(tx, agentId, packageId, current.status, current.statusSetBy);
    }
  });
}

/**
 * The payment provider's word on an agent's subscription (billing.service, in its transaction):
 * creates it (the first payment) or sets its package and status, recorded as set by BILLING. An
 * admin's INACTIVE or CANCELED is a hold that no payment lifts: it stays, and so does the
 * package. A null status changes nothing but the package (Stripe has not decided yet).
 */
export async function applyBillingStatus(
  tx: Db,
  agentId: number,
  packageId: number,
  status: SubscriptionStatus | null,
): Promise<void> {
  const current = await lockSubscription(tx, agentId);
  if (!current) {
    if (status) await writeSubscription(tx, agentId, packageId, status, 'BILLING');
    return;
  }
  const adminHold =
    current.statusSetBy === 'ADMIN' &&
    (current.status === 'INACTIVE' || current.status === 'CANCELED');
  if (adminHold) return;
  if (status === null) {
    if (current.packageId !== packageId) {
      await writeSubscription(tx, agentId, packageId, current.status, current.statusSetBy);
    }
    return;
  }
  if (current.packageId !== packageId || current.status !== status) {
    await writeSubscription(tx, agentId, packageId, status, 'BILLING');
  } else if (current.statusSetBy !== 'BILLING') {
    await setSubscriptionStatus(tx, agentId, status, 'BILLING');
  }
}

/**
 * Cancels the agent's subscription: status CANCELED; the package stays on record. With Stripe
 * Billing on, a Stripe subscription is cancelled in Stripe too (no further invoices).
 */
export async function cancelSubscription(
  db: Db,
  agentId: number,
  billing?: SubscriptionBilling | null,
): Promise<SubscriptionSummary> {
  const current = await db.transaction((tx) => lockSubscription(tx, agentId));
  if (current?.paidByAgencyId != null) throw conflict(AGENCY_PAYS);
  // a hold (PAST_DUE, INACTIVE, a cancellation by an admin or the payment provider) is not the
  // agent's to replace with their own cancellation: that would make it theirs to undo
  if (current && onHold(current)) {
    const held =
      current.status === 'CANCELED'
        ? 'cancelled by LeadFlow'
        : current.status === 'PAST_DUE'
          ? 'past due'
          : 'inactive';
    throw new AppError(
      'CONFLICT',
      `Your subscription is ${held}: it stays as it is until an admin or a payment settles it.`,
    );
  }
  if (billing && current?.stripeSubscriptionId && current.status !== 'CANCELED') {
    await billing.cancel(current.stripeSubscriptionId);
  }
  if (!(await setSubscriptionStatus(db, agentId, 'CANCELED', 'AGENT'))) {
    throw notFound('Subscription');
  }
  return mustFind(db, agentId);
}

/**
 * Sets an agent's subscription status, whoever asks (the agent's cancel, an admin, the payment
 * provider), recording who: where a status changes alone (a change of package writes its status
 * with it, in writeSubscription). False when the user is no agent or has no subscription.
 */
export function setSubscriptionStatus(
  db: Db,
  agentId: number,
  status: SubscriptionStatus,
  setBy: SubscriptionActor,
): Promise<boolean> {
  return updateSubscriptionStatus(db, agentId, status, setBy);
}

/**
 * An admin's change of an agent's subscription status (a suspension: INACTIVE, CANCELED); answers
 * the agent's row. The agent's open live streams end at once, in every process: a stream opened
 * again passes the checks of the new status.
 */
export async function setAgentSubscriptionStatus(
  db: Db,
  timeZone: string,
  agentId: number,
  status: SubscriptionStatus,
): Promise<AdminAgent> {
  const changed = await setSubscriptionStatus(db, agentId, status, 'ADMIN');
  if (changed) await endLiveStreamsOf(db, agentId);
  const agent = await findAgent(db, timeZone, agentId);
  if (!agent) throw notFound('Agent');
  if (!changed) throw new AppError('NOT_FOUND', 'This agent has no subscription');
  return agent;
}

async function mustFind(db: Db, agentId: number): Promise<SubscriptionSummary> {
  const subscription = await findSubscription(db, agentId);
  if (!subscription) throw notFound('Subscription');
  return subscription;
}
