import { eq, sql } from 'drizzle-orm';
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
} | null> {
  const [row] = await tx
    .select({
      packageId: subscriptions.packageId,
      status: subscriptions.status,
      statusSetBy: subscriptions.statusSetBy,
      stripeSubscriptionId: subscriptions.stripeSubscriptionId,
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
