/**
 * The reclaim's reads (docs/domain.md, Agencies: reclaim): the agency leads of an assignment whose
 * agency takes unworked leads back, one such lead as the job checks it, the member who gets it
 * next, and the overdue leads the sweeper looks at. It writes nothing: the lead's move is the
 * leads module's (lead-life), the notices the notifications module's.
 */
import { type SQL, sql } from 'drizzle-orm';
import type { LeadCategory } from '../../../shared/domain';
import { type Db, idsParam, intArrayLiteral, leadsNamed, queryRows } from '../../db/client';
import {
  type FitSqlParams,
  fitsSql,
  periodCapsHoldSql,
  QUOTA_SQL,
} from '../fit/fit-rule-sql.service';

/** An assigned agency lead whose agency has reclaim on, as its job is scheduled. */
export interface ReclaimableLead {
  id: number;
  /** the assignment's instant, to the microsecond: it names the assignment the job is for */
  assignedAt: string;
  timeZone: string | null;
  state: string;
  minutes: number;
}

const ASSIGNED_AT = sql.raw(
  `to_char(l.assigned_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
);

const RECLAIMABLE = sql`l.id::int as id, ${ASSIGNED_AT} as "assignedAt",
  l.time_zone as "timeZone", l.state, g.reclaim_after_minutes as minutes`;

/** Conditions under which a lead may still be taken back (the statement re-checks them). */
const STILL_UNWORKED = sql`l.status = 'ASSIGNED' and l.agent_id is not null
  and l.first_contact_at is null and l.returned_at is null and l.reclaims < 2`;

/** The leads of a run that went to members of agencies with reclaim on. */
export async function reclaimableOfRun(tx: Db, runId: number): Promise<ReclaimableLead[]> {
  return queryRows<ReclaimableLead>(
    tx,
    sql`select ${RECLAIMABLE}
          from leads l
          join agencies g on g.id = l.agency_id and g.reclaim_after_minutes is not null
         where l.agency_id is not null
           and l.assigned_on = (select r.business_date from assignment_runs r where r.id = ${runId})
           and l.assignment_run_id = ${runId} and ${STILL_UNWORKED}`,
  );
}

/**
 * Of these leads, those that went to members of agencies with reclaim on: the `leadsAssigned`
 * handler's read, asked with the other handlers' (events/lead-events.ts).
 */
export function reclaimableOfLeadsSql(leadIds: number[]): SQL {
  return sql`select ${RECLAIMABLE}
          from ${leadsNamed(idsParam(leadIds))} l
          join agencies g on g.id = l.agency_id and g.reclaim_after_minutes is not null
         where ${STILL_UNWORKED}`;
}

/** One agency lead as the reclaim job reads it, locked for the rest of the transaction. */
export interface ReclaimCheck {
  id: number;
  agentId: number;
  agencyId: number;
  assignedAt: string;
  assignedOn: string | null;
  status: string;
  contacted: boolean;
  returnPending: boolean;
  reclaims: number;
  timeZone: string | null;
  state: string;
  city: string;
  age: number;
  category: LeadCategory;
  firstName: string | null;
  lastName: string | null;
  /** the agency's minutes now (null: reclaim turned off) */
  minutes: number | null;
  agencyCap: number | null;
  ownerId: number | null;
}

export async function lockReclaimCheck(tx: Db, leadId: number): Promise<ReclaimCheck | null> {
  const [row] = await queryRows<ReclaimCheck>(
    tx,
    sql`select l.id::int as id, l.agent_id as "agentId", l.agency_id as "agencyId",
               ${ASSIGNED_AT} as "assignedAt", l.assigned_on::text as "assignedOn",
               l.status::text as status, l.first_contact_at is not null as contacted,
               exists (select 1 from lead_returns r
                        where r.lead_id = l.id and r.status = 'PENDING') as "returnPending",
               l.reclaims, l.time_zone as "timeZone", l.state, l.city, l.age,
               l.category::text as category, l.first_name as "firstName",
               l.last_name as "lastName", g.reclaim_after_minutes as minutes,
               g.daily_cap as "agencyCap",
               (select m.user_id from agency_members m
                 where m.agency_id = g.id and m.role = 'OWNER' order by m.user_id limit 1)
                 as "ownerId"
          from leads l
          left join agencies g on g.id = l.agency_id
         where l.id = ${leadId}
         for update of l`,
  );
  return row ?? null;
}

export interface PickedMember {
  id: number;
  quota: number;
  agencyCap: number | null;
}

/**
 * The member of the agency (not `exclude`) who gets a reclaimed lead: every condition of the fit
 * rule holds, quota left today, and, when the lead counts for the agency on a new day, room under
 * its cap; the lowest (a + 1) / q first, as the intake's pick, then the lower id.
 */
export async function pickMember(
  tx: Db,
  input: {
    fit: FitSqlParams;
    agencyId: number;
    exclude: number;
    businessDate: string;
    /** the agency's cap must have room for one more lead today */
    needsCapRoom: boolean;
  },
): Promise<PickedMember | null> {
  const day = input.businessDate;
  const [row] = await queryRows<PickedMember>(
    tx,
    sql`with fit as (
          select u.id, ${QUOTA_SQL} as q
            from agency_members am
            join users u on u.id = am.user_id
            join subscriptions s on s.user_id = u.id and s.status = 'ACTIVE'
            join packages p on p.id = s.package_id
            left join preferences pr on pr.user_id = u.id
           where am.agency_id = ${input.agencyId} and u.id <> ${input.exclude}
             and u.role = 'AGENT' and p.leads_per_day > 0
             and ${fitsSql(input.fit)}),
        counted as (
          select f.id, f.q, (select count(*)::int from leads l
                              where l.assigned_on = ${day}::date and l.agent_id = f.id) as a
            from fit f)
        select id, q as quota,
               (select g.daily_cap from agencies g where g.id = ${input.agencyId}) as "agencyCap"
          from counted
         where a < q
           and ${periodCapsHoldSql(sql`counted.id`, day)}
           and (not ${input.needsCapRoom}::boolean
                or (select g.daily_cap is null
                           or (select count(*) from leads l
                                where l.agency_id = g.id and l.assigned_on = ${day}::date)
                              < g.daily_cap
                      from agencies g where g.id = ${input.agencyId}))
         order by (a + 1)::float8 / q, id
         limit 1`,
  );
  return row ?? null;
}

/**
 * Agency leads still unworked whose reclaim minutes have passed on the clock (a bound: only
 * calling-window minutes count, which the job checks), oldest first: what the sweeper gives a job
 * when none was queued (an assignment by a script without a queue).
 */
export async function overdueReclaimable(
  db: Db,
  now: Date,
  limit: number,
): Promise<ReclaimableLead[]> {
  return queryRows<ReclaimableLead>(
    db,
    sql`select ${RECLAIMABLE}
          from agencies g
          join leads l on l.agency_id = g.id and l.assigned_on is not null
         where g.reclaim_after_minutes is not null and ${STILL_UNWORKED}
           and l.assigned_at
               <= ${now.toISOString()}::timestamptz - make_interval(mins => g.reclaim_after_minutes)
         order by l.assigned_at
         limit ${limit}`,
  );
}

/** Whether the user's email notices are on (their delivery settings; on when never saved). */
export async function emailsOn(
  db: Db,
  userIds: number[],
): Promise<{ id: number; email: string; name: string }[]> {
  if (userIds.length === 0) return [];
  return queryRows<{ id: number; email: string; name: string }>(
    db,
    sql`select u.id, u.email, u.name
          from users u left join delivery_settings d on d.user_id = u.id
         where u.id = any(${intArrayLiteral(userIds, 'int')})
           and u.disabled_at is null and coalesce(d.email_enabled, true)`,
  );
}
