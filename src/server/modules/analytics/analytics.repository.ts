import { sql } from 'drizzle-orm';
import type { Analytics } from '../../../shared/contracts/admin';
import { LEAD_CATEGORIES, type LeadCategory } from '../../../shared/domain';
import { type Db, queryPreparedRows } from '../../db/client';
import { readLeadCounts } from '../leads/lead-counts.repository';

/** Days shown by the assignments chart, today included. */
export const ASSIGNMENT_TREND_DAYS = 30;
/** Agents shown by the conversions chart. */
export const TOP_AGENTS = 10;

/**
 * The analytics screen's figures, from the counts the triggers keep (lead_counts,
 * agent_lead_counts, assignment_counts): none of them reads the leads or history tables.
 */
export async function analytics(db: Db, today: string, timeZone: string): Promise<Analytics> {
  const [counts, assignmentsOverTime, conversionsByAgent] = await Promise.all([
    readLeadCounts(db),
    // Every business day of the window, zero-filled: each day sums its own range of 15-minute
    // slots (a slot lies within one local day in every time zone) from the covering index on
    // (slot, n), ~100 index entries a day, instead of converting every slot of the window to a
    // local date.
    queryPreparedRows<{ date: string; count: number }>(
      db,
      sql`
        select to_char(d.day, 'YYYY-MM-DD') as date,
               coalesce((select sum(c.n) from assignment_counts c
                         where c.slot >= (d.day::timestamp at time zone ${timeZone})
                           and c.slot < ((d.day + 1)::timestamp at time zone ${timeZone})), 0)::int
                 as count
        from (select ${today}::date - i as day
              from generate_series(0, ${sql.raw(String(ASSIGNMENT_TREND_DAYS - 1))}) i) d
        order by d.day`,
    ),
    queryPreparedRows<{ name: string; converted: number }>(
      db,
      sql`
        select u.name, c.converted
        from (select agent_id, sum(n)::int as converted from agent_lead_counts
               where status = 'CONVERTED' group by agent_id having sum(n) > 0) c
        join users u on u.id = c.agent_id
        order by c.converted desc, lower(u.name), u.id
        limit ${TOP_AGENTS}`,
    ),
  ]);

  let totalLeads = 0;
  let assignedLeads = 0;
  let convertedLeads = 0;
  const byCategory = new Map<LeadCategory, number>();
  for (const c of counts) {
    totalLeads += c.n;
    if (c.hasAgent) assignedLeads += c.n;
    if (c.status === 'CONVERTED') convertedLeads += c.n;
    byCategory.set(c.category, (byCategory.get(c.category) ?? 0) + c.n);
  }
  const categoryDistribution = LEAD_CATEGORIES.filter((c) => (byCategory.get(c) ?? 0) > 0).map(
    (category) => ({ category, count: byCategory.get(category) ?? 0 }),
  );
  return {
    totalLeads,
    assignedLeads,
    convertedLeads,
    assignmentsOverTime,
    conversionsByAgent,
    categoryDistribution,
  };
}
