import { and, eq, isNull, sql } from 'drizzle-orm';
import type { AgencyStatus, SubscriptionStatus } from '../../../shared/domain';
import { type Db, queryRows } from '../../db/client';
import { agencies } from '../../db/schema';

/** The agency's Stripe side (docs/domain.md, Agencies, "Paying with Stripe"). */
export interface AgencyBilling {
  id: number;
  name: string;
  status: AgencyStatus;
  stripeCustomerId: string | null;
  stripeSubscriptionId: string | null;
  billingStatus: SubscriptionStatus | null;
  billingEventAt: Date | null;
  seatsVersion: number;
  seatsSyncedVersion: number;
}

const columns = {
  id: agencies.id,
  name: agencies.name,
  status: agencies.status,
  stripeCustomerId: agencies.stripeCustomerId,
  stripeSubscriptionId: agencies.stripeSubscriptionId,
  billingStatus: agencies.billingStatus,
  billingEventAt: agencies.billingEventAt,
  seatsVersion: agencies.seatsVersion,
  seatsSyncedVersion: agencies.seatsSyncedVersion,
};

/** The agency's billing row (locked until the transaction ends when `lock`). */
export async function findAgencyBilling(
  db: Db,
  agencyId: number,
  lock = false,
): Promise<AgencyBilling | null> {
  const query = db.select(columns).from(agencies).where(eq(agencies.id, agencyId));
  const [row] = lock ? await query.for('update') : await query;
  return row ?? null;
}

/** The agency a Stripe subscription or customer bills, if it is one of ours. */
export async function findAgencyIdByStripe(
  db: Db,
  by: { subscriptionId?: string | null; customerId?: string | null },
): Promise<number | null> {
  if (by.subscriptionId) {
    const [row] = await db
      .select({ id: agencies.id })
      .from(agencies)
      .where(eq(agencies.stripeSubscriptionId, by.subscriptionId));
    if (row) return row.id;
  }
  if (by.customerId) {
    const [row] = await db
      .select({ id: agencies.id })
      .from(agencies)
      .where(eq(agencies.stripeCustomerId, by.customerId));
    if (row) return row.id;
  }
  return null;
}

/** Records the agency's Stripe customer; when one was recorded first, that one stands. */
export async function saveAgencyCustomer(
  db: Db,
  agencyId: number,
  stripeCustomerId: string,
): Promise<string | null> {
  await db
    .update(agencies)
    .set({ stripeCustomerId })
    .where(and(eq(agencies.id, agencyId), isNull(agencies.stripeCustomerId)));
  const row = await findAgencyBilling(db, agencyId);
  return row?.stripeCustomerId ?? null;
}

export async function writeAgencyBilling(
  tx: Db,
  agencyId: number,
  fields: Partial<Pick<AgencyBilling, 'stripeSubscriptionId' | 'billingStatus' | 'billingEventAt'>>,
): Promise<void> {
  if (Object.keys(fields).length === 0) return;
  await tx
    .update(agencies)
    .set({ ...fields, updatedAt: sql`now()` })
    .where(eq(agencies.id, agencyId));
}

/** The members the agency pays changed: Stripe is to be brought in step with a new version. */
export async function bumpSeatsVersion(tx: Db, agencyId: number): Promise<void> {
  await tx
    .update(agencies)
    .set({ seatsVersion: sql`${agencies.seatsVersion} + 1` })
    .where(eq(agencies.id, agencyId));
}

/** Stripe holds the seats of `version` (never going backwards). */
export async function markSeatsSynced(tx: Db, agencyId: number, version: number): Promise<void> {
  await tx
    .update(agencies)
    .set({ seatsSyncedVersion: sql`greatest(${agencies.seatsSyncedVersion}, ${version})` })
    .where(eq(agencies.id, agencyId));
}

/** The agencies whose Stripe items lag behind their members (a failed or interrupted sync). */
export async function findAgenciesBehindOnSeats(db: Db): Promise<number[]> {
  const rows = await queryRows<{ id: number }>(
    db,
    sql`select id from agencies where seats_version > seats_synced_version order by id`,
  );
  return rows.map((r) => r.id);
}

/** The members the agency pays, counted by package: the quantities of its Stripe items. */
export async function countAgencySeats(db: Db, agencyId: number): Promise<Map<number, number>> {
  const rows = await queryRows<{ packageId: number; n: number }>(
    db,
    sql`select package_id as "packageId", count(*)::int as n from subscriptions
         where paid_by_agency_id = ${agencyId} group by package_id order by package_id`,
  );
  return new Map(rows.map((r) => [r.packageId, r.n]));
}
