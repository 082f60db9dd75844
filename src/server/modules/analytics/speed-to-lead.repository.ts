import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/client';

export interface SpeedRow {
  /** 0: the whole period; 1: one bucket (day or week); 2: one agent */
  level: number;
  bucket: string | null;
  agentId: number | null;
  name: string | null;
  assigned: number;
  contacted: number;
  medianMinutes: number | null;
  p90Minutes: number | null;
}

/**
 * Minutes from assignment to first contact of the leads assigned on business dates from..to
 * (by assigned_on, the quota's date: the leads_assigned_day_idx range), overall, per bucket and per
 * agent in one pass (grouping sets). percentile_cont interpolates and skips leads never contacted,
 * which are counted apart. A contact before the assignment (a lead re-assigned after a first
 * agent's call) counts as 0 minutes.
 */
export function speedRows(db: Db, from: string, to: string, week: boolean): Promise<SpeedRow[]> {
  const bucket = week
    ? sql`to_char(date_trunc('week', assigned_on::timestamp), 'YYYY-MM-DD')`
    : sql`to_char(assigned_on, 'YYYY-MM-DD')`;
  return queryRows<SpeedRow>(
    db,
    sql`select (case when grouping(x.bucket) = 0 then 1 when grouping(x.agent_id) = 0 then 2 else 0 end)
                 as level,
               x.bucket, x.agent_id as "agentId", min(u.name) as name,
               count(*)::int as assigned, count(x.m)::int as contacted,
               percentile_cont(0.5) within group (order by x.m) as "medianMinutes",
               percentile_cont(0.9) within group (order by x.m) as "p90Minutes"
          from (select agent_id, ${bucket} as bucket,
                       case when first_contact_at is null then null
                            else greatest(0, extract(epoch from first_contact_at - assigned_at) / 60.0)
                       end as m
                  from leads
                 where assigned_on >= ${from}::date and assigned_on <= ${to}::date
                   and agent_id is not null and assigned_at is not null) x
          left join users u on u.id = x.agent_id
         group by grouping sets ((), (x.bucket), (x.agent_id))`,
  );
}
