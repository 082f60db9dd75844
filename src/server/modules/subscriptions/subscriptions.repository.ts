import { and, eq, sql } from 'drizzle-orm';
import type { SubscriptionSummary } from '../../../shared/contracts/agent';
import type { SubscriptionActor, SubscriptionStatus } from '../../../shared/domain';
import { type Db, queryRows } from '../../db/client';
import { packages, subscriptions } from '../../db/schema';

export async function findSubscription(
  db: Db,
  userId: number,
): Promise<SubscriptionSummary | null> {
  const [row] = await db
    .select({
      id: subscriptions.id,
      status: subscriptions.status,
      packageId: subscriptions.packageId,
      package: {
        name: packages.name,
        priceMonthlyCents: packages.priceMonthlyCents,
        category: packages.category,
        leadsPerDay: packages.leadsPerDay,
      },
    })
    .from(subscriptions)
    .innerJoin(packages, eq(packages.id, subscriptions.packageId))
    .where(eq(subscriptions.userId, userId))
    .limit(1);
  return row ?? null;
}

/** The agent's subscription row, locked until the transaction ends; null when there is none. */
export async function lockSubscription(
  tx: Db,
  userId: number,
): Promise<{
  packageId: number;
  status: SubscriptionStatus;
  statusSetBy: SubscriptionActor;
  /** the Stripe subscription that bills it, when billing is on (docs/domain.md, Billing) */
  stripeSubscriptionId: string | null;
  /** the agency that pays it (docs/domain.md, Agencies); null: the agent pays */
  paidByAgencyId: number | null;
} | null> {
  const [row] = await tx
    .select({
      packageId: subscriptions.packageId,
      status: subscriptions.status,
      statusSetBy: subscriptions.statusSetBy,
      stripeSubscriptionId: subscriptions.stripeSubscriptionId,
      paidByAgencyId: subscriptions.paidByAgencyId,
    })
    .from(subscriptions)
    .where(eq(subscriptions.userId, userId))
    .for('update');
  return row ?? null;
}

/**
 * The agent's one subscription, created or set to the package with the given status and who set
 * it. started_at restarts when the package changes or the status does; writing the current
 * package and status again changes nothing but updated_at.
 */
export async function writeSubscription(
  tx: Db,
  userId: number,
  packageId: number,
  status: SubscriptionStatus,
  statusSetBy: SubscriptionActor,
): Promise<void> {
  await tx
    .insert(subscriptions)
    .values({ userId, packageId, status, statusSetBy })
    .onConflictDoUpdate({
      target: subscriptions.userId,
      set: {
        packageId,
        status,
        statusSetBy,
        updatedAt: sql`now()`,
        startedAt: sql`case when ${subscriptions.packageId} <> excluded.package_id
          or ${subscriptions.status} <> excluded.status then now() else ${subscriptions.startedAt} end`,
      },
    });
}

/**
 * Sets the status of an agent's subscription (users of another role have none to change).
 * False when the agent has no subscription.
 */
export async function updateSubscriptionStatus(
  db: Db,
  agentId: number,
  status: SubscriptionStatus,
  setBy: SubscriptionActor,
): Promise<boolean> {
  const rows = await queryRows<{ id: number }>(
    db,
    sql`
      update subscriptions s set status = ${status}, status_set_by = ${setBy}, updated_at = now()
      from users u
      where s.user_id = u.id and u.id = ${agentId} and u.role = 'AGENT'
      returning s.id`,
  );
  return rows.length > 0;
}

/** The subscription's Stripe columns (billing: docs/decisions/017-stripe-billing.md). */
export type BillingFields = Partial<
  Pick<
    typeof subscriptions.$inferSelect,
    | 'stripeSubscriptionId'
    | 'stripePriceId'
    | 'currentPeriodEnd'
    | 'billingEventAt'
    | 'lastInvoiceId'
    | 'lastInvoiceStatus'
    | 'lastInvoiceAmountCents'
    | 'lastInvoiceAt'
    | 'lastInvoiceUrl'
  >
>;

export async function writeBillingFields(
  tx: Db,
  userId: number,
  fields: BillingFields,
): Promise<void> {
  if (Object.keys(fields).length === 0) return;
  const { billingEventAt, ...rest } = fields;
  await tx
    .update(subscriptions)
    .set({
      ...rest,
      // never backwards, even when two events of a subscription first seen race
      ...(billingEventAt
        ? {
            billingEventAt: sql`greatest(coalesce(${subscriptions.billingEventAt}, ${billingEventAt.toISOString()}::timestamptz), ${billingEventAt.toISOString()}::timestamptz)`,
          }
        : {}),
    })
    .where(eq(subscriptions.userId, userId));
}

/**
 * The agency pays the member's package (docs/domain.md, Agencies): created or set to it, with the
 * status the agency's standing gives, recorded as set by AGENCY. A Stripe subscription of the
 * member's own is no longer theirs to bill here (the agency's caller cancels it first).
 */
export async function writeAgencyPaidSubscription(
  tx: Db,
  userId: number,
  packageId: number,
  agencyId: number,
  status: SubscriptionStatus,
): Promise<void> {
  await tx
    .insert(subscriptions)
    .values({ userId, packageId, status, statusSetBy: 'AGENCY', paidByAgencyId: agencyId })
    .onConflictDoUpdate({
      target: subscriptions.userId,
      set: {
        packageId,
        status,
        statusSetBy: 'AGENCY',
        paidByAgencyId: agencyId,
        stripeSubscriptionId: null,
        stripePriceId: null,
        updatedAt: sql`now()`,
        startedAt: sql`case when ${subscriptions.packageId} <> excluded.package_id
          or ${subscriptions.status} <> excluded.status then now() else ${subscriptions.startedAt} end`,
      },
    });
}

/**
 * The agency stops paying the member's package: CANCELED, set by AGENCY, no longer paid by it.
 * False when the agency did not pay it.
 */
export async function endAgencyPaidSubscription(
  tx: Db,
  userId: number,
  agencyId: number,
): Promise<boolean> {
  const rows = await tx
    .update(subscriptions)
    .set({
      status: 'CANCELED',
      statusSetBy: 'AGENCY',
      paidByAgencyId: null,
      updatedAt: sql`now()`,
      startedAt: sql`case when ${subscriptions.status} <> 'CANCELED' then now() else ${subscriptions.startedAt} end`,
    })
    .where(and(eq(subscriptions.userId, userId), eq(subscriptions.paidByAgencyId, agencyId)))
    .returning({ id: subscriptions.id });
  return rows.length > 0;
}

/**
 * Sets the status of every subscription the agency pays, as set by AGENCY, but an admin's hold
 * on one member (INACTIVE or CANCELED set by ADMIN), which only an admin lifts. The members whose
 * status changed.
 */
export async function updateAgencyPaidStatus(
  tx: Db,
  agencyId: number,
  status: SubscriptionStatus,
): Promise<number[]> {
  const rows = await queryRows<{ userId: number }>(
    tx,
    sql`update subscriptions set status = ${status}, status_set_by = 'AGENCY', updated_at = now(),
               started_at = case when status <> ${status} then now() else started_at end
         where paid_by_agency_id = ${agencyId}
           and not (status_set_by = 'ADMIN' and status <> 'ACTIVE')
           and (status <> ${status} or status_set_by <> 'AGENCY')
         returning user_id as "userId"`,
  );
  return rows.map((r) => r.userId);
}
