import { sql } from 'drizzle-orm';
import type { Analytics } from '../../../shared/contracts/admin';
import { LEAD_CATEGORIES, type LeadCategory } from '../../../shared/domain';
import { type Db, queryRows } from '../../db/client';
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
    // Every business day of the window, zero-filled. A 15-minute slot lies within one local day
    // in every time zone, so the slots sum into business days exactly.
    queryRows<{ date: string; count: number }>(
      db,
      sql`
        with days as (
          select generate_series(
                   ${today}::date - ${ASSIGNMENT_TREND_DAYS - 1}::int, ${today}::date, '1 day'
                 )::date as day
        ),
        counts as (
          select (slot at time zone ${timeZone})::date as day, sum(n) as n
          from assignment_counts
          where slot >= ((${today}::date - ${ASSIGNMENT_TREND_DAYS - 1}::int)::timestamp
                         at time zone ${timeZone})
          group by 1
        )
        select to_char(days.day, 'YYYY-MM-DD') as date, coalesce(counts.n, 0)::int as count
        from days left join counts on counts.day = days.day
        order by days.day`,
    ),
    queryRows<{ name: string; converted: number }>(
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
