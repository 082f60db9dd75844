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
  /** speed to open: leads their agent opened, and the minutes from assignment to that */
  opened: number;
  openMedianMinutes: number | null;
  openP90Minutes: number | null;
}

/**
 * Minutes from assignment to first contact of the leads assigned on business dates from..to
 * (by assigned_on, the quota's date: the leads_assigned_day_idx range), overall, per bucket and per
 * agent in one pass (grouping sets). percentile_cont interpolates and skips leads never contacted,
 * which are counted apart. A contact before the assignment (a lead re-assigned after a first
 * agent's call) counts as 0 minutes. Speed to open the same way, from assignment to the agent's
 * first view of that assignment (`lead_views`, by its key).
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
               percentile_cont(0.9) within group (order by x.m) as "p90Minutes",
               count(x.o)::int as opened,
               percentile_cont(0.5) within group (order by x.o) as "openMedianMinutes",
               percentile_cont(0.9) within group (order by x.o) as "openP90Minutes"
          from (select l.agent_id, ${bucket} as bucket,
                       case when l.first_contact_at is null then null
                            else greatest(0, extract(epoch from l.first_contact_at - l.assigned_at) / 60.0)
                       end as m,
                       case when v.viewed_at is null then null
                            else greatest(0, extract(epoch from v.viewed_at - l.assigned_at) / 60.0)
                       end as o
                  from leads l
                  left join lead_views v
                    on v.lead_id = l.id and v.agent_id = l.agent_id and v.assigned_at = l.assigned_at
                 where l.assigned_on >= ${from}::date and l.assigned_on <= ${to}::date
                   and l.agent_id is not null and l.assigned_at is not null) x
          left join users u on u.id = x.agent_id
         group by grouping sets ((), (x.bucket), (x.agent_id))`,
  );
}
