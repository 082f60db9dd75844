import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/client';

export interface SourceRow {
  sourceId: number | null;
  name: string | null;
  costPerLeadCents: number;
  received: number;
  assigned: number;
  returned: number;
  converted: number;
  invalid: number;
  duplicate: number;
  dnc: number;
  suppressed: number;
  consent: number;
}

/**
 * Per source, the leads stored on business dates from..to and what became of them (assigned at some time,
 * returned, converted), and the leads refused in the same period by reason: summed from the
 * refusals' counts per 15-minute slot (refusal_counts), whatever the number of refused requests.
 * Every source is listed, and the leads of no source when there are any.
 */
export function sourceRows(
  db: Db,
  from: string,
  to: string,
  timeZone: string,
): Promise<SourceRow[]> {
  const start = sql`(${from}::date::timestamp at time zone ${timeZone})`;
  const end = sql`((${to}::date + 1)::timestamp at time zone ${timeZone})`;
  return queryRows<SourceRow>(
    db,
    sql`with l as (
          select source_id,
                 count(*)::int as received,
                 count(*) filter (where assigned_at is not null)::int as assigned,
                 count(*) filter (where returned_at is not null)::int as returned,
                 count(*) filter (where status = 'CONVERTED')::int as converted
            from leads
           where created_at >= ${start} and created_at < ${end}
           group by source_id),
        r as (
          select source_id,
                 coalesce(sum(n) filter (where reason = 'INVALID'), 0)::int as invalid,
                 coalesce(sum(n) filter (where reason = 'DUPLICATE'), 0)::int as duplicate,
                 coalesce(sum(n) filter (where reason = 'DNC'), 0)::int as dnc,
                 coalesce(sum(n) filter (where reason = 'SUPPRESSED'), 0)::int as suppressed,
                 coalesce(sum(n) filter (where reason = 'CONSENT'), 0)::int as consent
            from refusal_counts
           where slot >= ${start} and slot < ${end}
           group by source_id),
        k as (
          select id as source_id from sources
          union select source_id from l
          union select source_id from r)
        select k.source_id as "sourceId", s.name,
               coalesce(s.cost_per_lead_cents, 0) as "costPerLeadCents",
               coalesce(l.received, 0) as received, coalesce(l.assigned, 0) as assigned,
               coalesce(l.returned, 0) as returned, coalesce(l.converted, 0) as converted,
               coalesce(r.invalid, 0) as invalid, coalesce(r.duplicate, 0) as duplicate,
               coalesce(r.dnc, 0) as dnc, coalesce(r.suppressed, 0) as suppressed,
               coalesce(r.consent, 0) as consent
          from k
          left join sources s on s.id = k.source_id
          left join l on l.source_id is not distinct from k.source_id
          left join r on r.source_id is not distinct from k.source_id
         order by k.source_id nulls last`,
  );
}
