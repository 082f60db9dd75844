import { sql } from 'drizzle-orm';
import type { Analytics } from '../../../shared/contracts/admin';
import { type Db, queryPreparedRows } from '../../db/client';

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
            from generate_series(0, ${sql.raw(String(ASSIGNMENT_TREND_DAYS - 1))}) i) d
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
