import { sql } from 'drizzle-orm';
import type { LeadCategory, LeadStatus } from '../../../shared/domain';
import { type Db, queryRows } from '../../db/client';

/**
 * The counters kept by the triggers of the `scale` migration are signed delta rows (one insert
 * per statement that touched leads); readers sum them. Past this many rows a reader folds them
 * into one row per key, which keeps every read a few dozen rows.
 */
const COMPACT_AFTER_ROWS = 200;

export interface LeadCountRow {
  category: LeadCategory;
  status: LeadStatus;
  hasAgent: boolean;
  n: number;
}

/** Leads by (category, status, has an agent), exact, without reading the leads table. */
export async function readLeadCounts(db: Db): Promise<LeadCountRow[]> {
  const rows = await queryRows<LeadCountRow & { deltas: number }>(
    db,
    sql`select category, status, has_agent as "hasAgent", sum(n)::float8 as n,
               (select count(*) from lead_counts)::int as deltas
          from lead_counts group by category, status, has_agent
        having sum(n) <> 0`,
  );
  await compactIfNeeded(db, rows[0]?.deltas ?? 0);
  return rows.map(({ deltas: _, ...row }) => row);
}

/** Every lead, or those with one status (the admin list's total). */
export async function leadTotal(db: Db, status?: LeadStatus): Promise<number> {
  const [row] = await queryRows<{ n: number; deltas: number }>(
    db,
    sql`select coalesce(sum(n), 0)::float8 as n, count(*)::int as deltas from lead_counts
        ${status ? sql`where status = ${sql.raw(`'${status}'`)}` : sql``}`,
  );
  await compactIfNeeded(db, row.deltas);
  return row.n;
}

async function compactIfNeeded(db: Db, deltas: number): Promise<void> {
  if (deltas > COMPACT_AFTER_ROWS) await compactLeadCounts(db);
}

/** Folds the delta rows of all three counters (safe beside writers and other compactions). */
export async function compactLeadCounts(db: Db): Promise<void> {
  await db.execute(sql`select compact_lead_counts()`);
}
