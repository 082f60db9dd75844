import { sql } from 'drizzle-orm';
import { type Db, queryPreparedRows } from '../../db/client';

/**
 * Key of the advisory lock over the day's quotas ('LFAS'). An assignment run holds it exclusively
 * from before it reads the quota used until it commits its write; a manual assignment holds it
 * shared around its own write. So a manual assignment never lands between a run's read of the
 * quotas and its write (the run would then fill a place the admin had just used), while manual
 * assignments still run side by side.
 */
export const QUOTA_LOCK_KEY = 0x4c464153;

/** For a run: waits for every other run and every manual assignment in flight (any process). */
export async function lockQuotasExclusive(tx: Db): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${QUOTA_LOCK_KEY})`);
}

/** The shared lock as an expression, for a caller that takes it with its other locks (the intake). */
export const QUOTAS_SHARED_LOCK_SQL = sql`pg_advisory_xact_lock_shared(${QUOTA_LOCK_KEY})`;

/** For a manual assignment: waits for a run in flight; released when the transaction ends. */
export async function lockQuotasShared(tx: Db): Promise<void> {
  await queryPreparedRows(tx, sql`select ${QUOTAS_SHARED_LOCK_SQL}`);
}
