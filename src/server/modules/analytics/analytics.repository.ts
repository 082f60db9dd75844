import { sql } from 'drizzle-orm';
import type { Analytics } from '../../../shared/contracts/admin';
import type { LeadCategory } from '../../../shared/domain';
import { type Db, queryPreparedRows, queryRows } from '../../db/client';

/** Days shown by the assignments chart, today included. */
export const ASSIGNMENT_TREND_DAYS = 30;
/** Agents shown by the conversions chart. */
export const TOP_AGENTS = 10;

/**
 * Leads assigned on each business day of the trend window, oldest first, zero-filled: each day
 * sums its own range of 15-minute slots (a slot lies within one local day in every time zone)
 * from the covering index on (slot, n), ~100 index entries a day, instead of converting every
 * slot of the window to a local date.
 */
export function assignmentsPerDay(
  db: Db,
  today: string,
  timeZone: string,
  days = ASSIGNMENT_TREND_DAYS,
): Promise<Analytics['assignmentsOverTime']> {
  return queryPreparedRows<{ date: string; count: number }>(
    db,
    sql`
      select to_char(d.day, 'YYYY-MM-DD') as date,
             coalesce((select sum(c.n) from assignment_counts c
                       where c.slot >= (d.day::timestamp at time zone ${timeZone})
                         and c.slot < ((d.day + 1)::timestamp at time zone ${timeZone})), 0)::int
               as count
      from (select ${today}::date - i as day
            from generate_series(0, ${days - 1}::int) i) d
      order by d.day`,
  );
}

/** The agents with the most converted leads, most first (from the kept per-agent counts). */
export function topConverters(db: Db): Promise<Analytics['conversionsByAgent']> {
  return queryPreparedRows<{ name: string; converted: number }>(
    db,
    sql`
      select u.name, c.converted
      from (select agent_id, sum(n)::int as converted from agent_lead_counts
             where status = 'CONVERTED' group by agent_id having sum(n) > 0) c
      join users u on u.id = c.agent_id
      order by c.converted desc, lower(u.name), u.id
      limit ${TOP_AGENTS}`,
  );
}

/** Leads stored on the business dates from..to, by category (the period's Total Leads and categories). */
export function storedByCategory(
  db: Db,
  from: string,
  to: string,
  timeZone: string,
): Promise<{ category: LeadCategory; n: number }[]> {
  return queryRows<{ category: LeadCategory; n: number }>(
    db,
    sql`select category, count(*)::int as n from leads
         where created_at >= (${from}::date::timestamp at time zone ${timeZone})
           and created_at < ((${to}::date + 1)::timestamp at time zone ${timeZone})
         group by category`,
  );
}

/**
 * Leads assigned on the business dates from..to (their assigned_on, the quota's date: the
 * leads_assigned_day_idx range) that still have their agent, per agent: assigned and converted.
 */
export function assignedByAgent(
  db: Db,
  from: string,
  to: string,
): Promise<{ agentId: number; name: string; assigned: number; converted: number }[]> {
  return queryRows(
    db,
    sql`select c.agent_id as "agentId", u.name, c.assigned, c.converted
          from (select agent_id, count(*)::int as assigned,
                       count(*) filter (where status = 'CONVERTED')::int as converted
                  from leads
                 where assigned_on >= ${from}::date and assigned_on <= ${to}::date
                   and agent_id is not null
                 group by agent_id) c
          join users u on u.id = c.agent_id
         order by c.converted desc, lower(u.name), u.id`,
  );
}
