import { sql } from 'drizzle-orm';
import type { Analytics } from '../../../shared/contracts/admin';
import type { LeadCategory } from '../../../shared/domain';
import { type Db, queryRows } from '../../db/client';

/** Days shown by the assignments chart, today included. */
export const ASSIGNMENT_TREND_DAYS = 30;
/** Agents shown by the conversions chart. */
export const TOP_AGENTS = 10;

/** The analytics screen's figures, each computed in SQL. */
export async function analytics(db: Db, today: string, timeZone: string): Promise<Analytics> {
  const [totals] = await queryRows<{
    totalLeads: number;
    assignedLeads: number;
    convertedLeads: number;
  }>(
    db,
    sql`
      select count(*)::int as "totalLeads",
             count(*) filter (where agent_id is not null)::int as "assignedLeads",
             count(*) filter (where status = 'CONVERTED')::int as "convertedLeads"
      from leads`,
  );

  // Every business day of the window, zero-filled, from the assignment rows of the history.
  const assignmentsOverTime = await queryRows<{ date: string; count: number }>(
    db,
    sql`
      with days as (
        select generate_series(
                 ${today}::date - ${ASSIGNMENT_TREND_DAYS - 1}::int, ${today}::date, '1 day'
               )::date as day
      ),
      counts as (
        select (created_at at time zone ${timeZone})::date as day, count(*)::int as n
        from lead_history
        where kind in ('AUTO_ASSIGNED', 'MANUAL_ASSIGNED')
          and created_at >= ((${today}::date - ${ASSIGNMENT_TREND_DAYS - 1}::int)::timestamp
                             at time zone ${timeZone})
        group by 1
      )
      select to_char(days.day, 'YYYY-MM-DD') as date, coalesce(counts.n, 0)::int as count
      from days left join counts on counts.day = days.day
      order by days.day`,
  );

  const conversionsByAgent = await queryRows<{ name: string; converted: number }>(
    db,
    sql`
      select u.name, count(*)::int as converted
      from leads l join users u on u.id = l.agent_id
      where l.status = 'CONVERTED'
      group by u.id, u.name
      order by converted desc, lower(u.name), u.id
      limit ${TOP_AGENTS}`,
  );

  const categoryDistribution = await queryRows<{ category: LeadCategory; count: number }>(
    db,
    sql`select category, count(*)::int as count from leads group by category order by category`,
  );

  return { ...totals, assignmentsOverTime, conversionsByAgent, categoryDistribution };
}
