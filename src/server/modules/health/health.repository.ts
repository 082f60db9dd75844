import { desc, sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/client';
import { assignmentRuns } from '../../db/schema';

/** One round trip to the database (throws when it is down). */
export async function pingDatabase(db: Db): Promise<void> {
  await db.execute(sql`select 1`);
}

export async function findNewestRun(db: Db) {
  const [run] = await db.select().from(assignmentRuns).orderBy(desc(assignmentRuns.id)).limit(1);
  return run ?? null;
}

/**
 * The newest migration applied to this database (its journal time, as drizzle records it), or
 * null when none is (or drizzle's table is missing).
 */
export async function newestAppliedMigration(db: Db): Promise<number | null> {
  const [row] = await queryRows<{ newest: string | number | null; present: boolean }>(
    db,
    sql`select to_regclass('drizzle.__drizzle_migrations') is not null as present`,
  );
  if (!row?.present) return null;
  const [applied] = await queryRows<{ newest: string | number | null }>(
    db,
    sql`select max(created_at) as newest from drizzle.__drizzle_migrations`,
  );
  return applied?.newest == null ? null : Number(applied.newest);
}

/**
 * The job queue's backlog, per queue (pg-boss's `pgboss.job`): jobs waiting (created, or failed
 * and waiting for a retry) and how long the oldest due one has waited. Empty when the queue was
 * never started on this database.
 */
export async function queueBacklog(
  db: Db,
): Promise<{ queue: string; depth: number; oldestSeconds: number }[]> {
  const [present] = await queryRows<{ present: boolean }>(
    db,
    sql`select to_regclass('pgboss.job') is not null as present`,
  );
  if (!present?.present) return [];
  const rows = await queryRows<{ queue: string; depth: number; oldest: number | null }>(
    db,
    sql`select name as queue, count(*)::int as depth,
               extract(epoch from now() - min(start_after) filter (where start_after <= now()))::float8
                 as oldest
          from pgboss.job where state in ('created', 'retry') group by name`,
  );
  return rows.map((r) => ({
    queue: r.queue,
    depth: Number(r.depth),
    oldestSeconds: Math.max(0, Number(r.oldest ?? 0)),
  }));
}
