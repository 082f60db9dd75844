import { type SQL, sql } from 'drizzle-orm';
import { LEAD_STATUSES, type LeadCategory, type LeadStatus } from '../../../shared/domain';
import { type Db, enumLiteral, queryPreparedRows } from '../../db/client';

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
  const rows = await queryPreparedRows<LeadCountRow & { deltas: number }>(
    db,
    sql`select category, status, has_agent as "hasAgent", sum(n)::float8 as n,
               (select count(*) from lead_counts)::int as deltas
          from lead_counts group by category, status, has_agent
        having sum(n) <> 0`,
  );
  await compactLeadCountsIfNeeded(db, rows[0]?.deltas ?? 0);
  return rows.map(({ deltas: _, ...row }) => row);
}

/**
 * Every lead, or those with one status (the admin list's total), as a subquery of one row: `n`,
 * and `deltas`, the delta rows read, which the caller hands to compactLeadCountsIfNeeded.
 */
export function leadTotalQuery(status?: LeadStatus): SQL {
  return sql`(select coalesce(sum(n), 0)::float8 as n, count(*)::int as deltas from lead_counts
              ${status ? sql`where status = ${enumLiteral(status, LEAD_STATUSES)}` : sql``})`;
}

export async function compactLeadCountsIfNeeded(db: Db, deltas: number): Promise<void> {
  if (deltas > COMPACT_AFTER_ROWS) await compactLeadCounts(db);
}

/** Folds the delta rows of all three counters (safe beside writers and other compactions). */
export async function compactLeadCounts(db: Db): Promise<void> {
  await db.execute(sql`select compact_lead_counts()`);
}
