import { and, eq, sql } from 'drizzle-orm';
import type { SubscriptionActor, SubscriptionStatus } from '../../../shared/domain';
import type { Db } from '../../db/client';
import { billingCustomers, billingEvents, packages, subscriptions, users } from '../../db/schema';

export interface BillingCustomer {
  stripeCustomerId: string;
  checkoutSessionId: string | null;
  checkoutPackageId: number | null;
  checkoutStartedAt: Date | null;
}

export async function findCustomer(db: Db, userId: number): Promise<BillingCustomer | null> {
  const [row] = await db
    .select({
      stripeCustomerId: billingCustomers.stripeCustomerId,
      checkoutSessionId: billingCustomers.checkoutSessionId,
      checkoutPackageId: billingCustomers.checkoutPackageId,
      checkoutStartedAt: billingCustomers.checkoutStartedAt,
    })
    .from(billingCustomers)
    .where(eq(billingCustomers.userId, userId));
  return row ?? null;
}

/** Records the agent's customer; when another request recorded one first, that one stands. */
export async function insertCustomer(
  db: Db,
  userId: number,
  stripeCustomerId: string,
): Promise<string> {
  await db.insert(billingCustomers).values({ userId, stripeCustomerId }).onConflictDoNothing();
  const found = await findCustomer(db, userId);
  return found?.stripeCustomerId ?? stripeCustomerId;
}

export async function findUserIdByCustomer(db: Db, stripeCustomerId: string) {
  const [row] = await db
    .select({ userId: billingCustomers.userId })
    .from(billingCustomers)
    .where(eq(billingCustomers.stripeCustomerId, stripeCustomerId));
  return row?.userId ?? null;
}

export async function setPendingCheckout(
  db: Db,
  userId: number,
  sessionId: string,
  packageId: number,
): Promise<void> {
  await db
    .update(billingCustomers)
    .set({
      checkoutSessionId: sessionId,
      checkoutPackageId: packageId,
      checkoutStartedAt: sql`now()`,
    })
    .where(eq(billingCustomers.userId, userId));
}

/** Clears the pending Checkout (all of them, or only that session). */
export async function clearPendingCheckout(
  db: Db,
  userId: number,
  sessionId?: string,
): Promise<void> {
  await db
    .update(billingCustomers)
    .set({ checkoutSessionId: null, checkoutPackageId: null, checkoutStartedAt: null })
    .where(
      sessionId === undefined
        ? eq(billingCustomers.userId, userId)
        : and(
            eq(billingCustomers.userId, userId),
            eq(billingCustomers.checkoutSessionId, sessionId),
          ),
    );
}

export interface PackagePrice {
  id: number;
  name: string;
  priceMonthlyCents: number;
  stripeProductId: string | null;
  stripePriceId: string | null;
  stripePriceCents: number | null;
}

/** The package's Stripe product and price, its row locked until the transaction ends. */
export async function lockPackagePrice(tx: Db, packageId: number): Promise<PackagePrice | null> {
  const [row] = await tx
    .select({
      id: packages.id,
      name: packages.name,
      priceMonthlyCents: packages.priceMonthlyCents,
      stripeProductId: packages.stripeProductId,
      stripePriceId: packages.stripePriceId,
      stripePriceCents: packages.stripePriceCents,
    })
    .from(packages)
    .where(eq(packages.id, packageId))
    .for('update');
  return row ?? null;
}

/** The package whose current Stripe price this is (null for an older price or an unknown one). */
export async function findPackageIdByPrice(db: Db, priceId: string): Promise<number | null> {
  const [row] = await db
    .select({ id: packages.id })
    .from(packages)
    .where(eq(packages.stripePriceId, priceId));
  return row?.id ?? null;
}

export async function packageExists(db: Db, packageId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: packages.id })
    .from(packages)
    .where(eq(packages.id, packageId));
  return row !== undefined;
}

/** Marks an event applied; false when it already was (a replay changes nothing). */
export async function recordEvent(
  tx: Db,
  id: string,
  type: string,
  createdAt: Date,
): Promise<boolean> {
  const rows = await tx
    .insert(billingEvents)
    .values({ id, type, eventCreatedAt: createdAt })
    .onConflictDoNothing()
    .returning({ id: billingEvents.id });
  return rows.length > 0;
}

export interface BillingRow {
  userId: number;
  packageId: number;
  status: SubscriptionStatus;
  statusSetBy: SubscriptionActor;
  stripeSubscriptionId: string | null;
  stripePriceId: string | null;
  currentPeriodEnd: Date | null;
  billingEventAt: Date | null;
  lastInvoiceId: string | null;
  lastInvoiceStatus: string | null;
  lastInvoiceAmountCents: number | null;
  lastInvoiceAt: Date | null;
  lastInvoiceUrl: string | null;
}

const billingColumns = {
  userId: subscriptions.userId,
  packageId: subscriptions.packageId,
  status: subscriptions.status,
  statusSetBy: subscriptions.statusSetBy,
  stripeSubscriptionId: subscriptions.stripeSubscriptionId,
  stripePriceId: subscriptions.stripePriceId,
  currentPeriodEnd: subscriptions.currentPeriodEnd,
  billingEventAt: subscriptions.billingEventAt,
  lastInvoiceId: subscriptions.lastInvoiceId,
  lastInvoiceStatus: subscriptions.lastInvoiceStatus,
  lastInvoiceAmountCents: subscriptions.lastInvoiceAmountCents,
  lastInvoiceAt: subscriptions.lastInvoiceAt,
  lastInvoiceUrl: subscriptions.lastInvoiceUrl,
};

/** The agent's subscription with its billing fields (locked when `lock`). */
export async function findBillingRow(db: Db, userId: number, lock = false) {
  const query = db
    .select(billingColumns)
    .from(subscriptions)
    .where(eq(subscriptions.userId, userId));
  const [row] = lock ? await query.for('update') : await query;
  return (row as BillingRow | undefined) ?? null;
}

/** Which agent a Stripe subscription bills, if it is one of ours. */
export async function findUserIdBySubscription(db: Db, stripeSubscriptionId: string) {
  const [row] = await db
    .select({ userId: subscriptions.userId })
    .from(subscriptions)
    .where(eq(subscriptions.stripeSubscriptionId, stripeSubscriptionId));
  return row?.userId ?? null;
}

export async function eventSeen(db: Db, id: string): Promise<boolean> {
  const [row] = await db
    .select({ id: billingEvents.id })
    .from(billingEvents)
    .where(eq(billingEvents.id, id));
  return row !== undefined;
}

export async function findAgentContact(db: Db, userId: number) {
  const [row] = await db
    .select({ email: users.email, name: users.name })
    .from(users)
    .where(and(eq(users.id, userId), eq(users.role, 'AGENT')));
  return row ?? null;
}
