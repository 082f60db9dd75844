/**
 * The intake's statements (docs/domain.md, Sources and the intake API): store one lead (idempotent per source and externalId),
 * pick the agent that gets it at once, and hand it over under a per-agent lock with the quota
 * checked again (docs/decisions/015-intake-assignment.md).
 */
import { type SQL, sql } from 'drizzle-orm';
import { type Db, queryPreparedRows, queryRows } from '../../db/client';
import { ROSTER_VERSION_SQL, type RosterAnswer } from '../fit/fit-roster.service';
import {
  type FitSqlParams,
  fitsSql,
  periodCapsHoldSql,
  QUOTA_SQL,
} from '../fit/fit-rule-sql.service';
import { agentLockSql } from '../leads/lead-life.service';

/**
 * The lead a source sent earlier with this externalId, and the status its first answer gave:
 * ASSIGNED when the intake assigned it in that request (an AUTO_ASSIGNED row without a run),
 * NEW otherwise, whatever happened to it since.
 */
export async function findSourceLead(
  db: Db,
  sourceId: number,
  externalId: string,
): Promise<{ id: number; status: 'NEW' | 'ASSIGNED' } | null> {
  const [row] = await queryRows<{ id: number; status: 'NEW' | 'ASSIGNED' }>(
    db,
    sql`select l.id::int as id,
               case when exists (
                 select 1 from lead_history h
                  where h.lead_id = l.id and h.kind = 'AUTO_ASSIGNED'
                    and h.assignment_run_id is null) then 'ASSIGNED' else 'NEW' end as status
          from leads l
         where coalesce(l.source_id, 0) = ${sourceId} and l.external_id = ${externalId}`,
  );
  return row ?? null;
}

export interface PickInput {
  /** the lead and the moment, for the fit rule's SQL rendering */
  fit: FitSqlParams;
  businessDate: string;
  /** agents that already lost a race for this lead */
  exclude: number[];
  /**
   * the agents the lead fits, capacity aside, as this process's copy of their fit columns
   * answered, with its version (decision 043); absent: the statement asks the fit rule's SQL
   * rendering itself
   */
  copy?: RosterAnswer;
  /**
   * a check the pick's statement answers beside it (a boolean expression: the intake's look for a
   * lead an import committed meanwhile); when true, nobody is picked
   */
  refuseIf?: SQL;
}

/**
 * The pick's answer: the agent (locked), none, or "the copy is stale, ask again without it";
 * refused: the input's refuseIf held (nobody picked, stale or not).
 */
export type AgentPick = (
  | { stale: false; agent: PickedAgent | null }
  | { stale: true; agent: null }
) & { refused: boolean };

export interface PickedAgent {
  id: number;
  quota: number;
  /** the agent's agency when it has a daily cap (checked again at the hand-over) */
  agencyId: number | null;
  agencyCap: number | null;
}

/**
 * The fitting agent with the lowest (a + 1) / q (a: leads today by any trigger, q: the package's
 * leads per day), ties to the agent whose last lead today is oldest (none today counts as
 * oldest), then the lower id. One prepared statement (its plan is kept per connection): the fit
 * is the candidates this process's copy of the agents answered, or else the fit rule's SQL
 * rendering (modules/fit); a per agent by one index-only probe of
 * (assigned_on, agent_id) (at most q entries each), never a scan of today's leads; the time of
 * the last lead (a heap read) only for the agents tied at the lowest ratio. A member of an agency
 * whose daily cap is reached is left out (the fit rule's AGENCY_CAP_FULL). The weekly and monthly
 * caps, the budget and the wallet are counted for the agents that have one (from the copy, which
 * knows who does; every agent when the rule's SQL answers). The same statement takes the picked
 * agent's intake lock (agentLockSql), and, given the copy's candidates, checks that the copy is
 * the data it sees (ROSTER_VERSION_SQL): when not, it picks nobody and answers stale.
 */
export async function pickAgent(tx: Db, input: PickInput): Promise<AgentPick> {
  const day = input.businessDate;
  const list = (values: (number | boolean | null)[]) =>
    `{${values.map((v) => (v === null ? 'NULL' : String(v))).join(',')}}`;
  const c = input.copy?.candidates;
  // (id, q, capped, agency_id, daily_cap): capped, the agent has a weekly or monthly cap or pays
  // per lead (those are counted); agency_id, daily_cap: its agency's daily cap, or nulls
  const fit = c
    ? sql`select * from unnest(${list(c.map((a) => a.id))}::int[],
                               ${list(c.map((a) => a.quota))}::int[],
                               ${list(c.map((a) => a.capped))}::boolean[],
                               ${list(c.map((a) => (a.agencyCap === null ? null : a.agencyId)))}::int[],
                               ${list(c.map((a) => (a.agencyId === null ? null : a.agencyCap)))}::int[])
            as f(id, q, capped, agency_id, daily_cap)`
    : fitByRule(input);
  // -1: no copy to check (the version is never negative: a sum of positive weights)
  const version = input.copy?.version ?? -1;
  const [row] = await queryPreparedRows<
    PickedAgent & { current: boolean; refused: boolean; locked: unknown }
  >(
    tx,
    sql`with current as (
          select ${version}::float8 = -1 or ${version}::float8 = ${ROSTER_VERSION_SQL} as current),
        refused as (select ${input.refuseIf ?? sql`false`} as refused),
        fit as (${fit}),
        counted as (
          select f.id, f.q, t.a, f.agency_id, f.daily_cap
            from fit f
            cross join lateral (
              select count(*)::int as a from leads l
               where l.assigned_on = ${day}::date and l.agent_id = f.id) t
           -- the agency's daily cap: its leads of the day (any member) by leads_agency_day_idx
           where (not f.capped or ${periodCapsHoldSql(sql`f.id`, day)})
             and (f.daily_cap is null
              or (select count(*) from leads l
                   where l.agency_id = f.agency_id and l.assigned_on = ${day}::date) < f.daily_cap)),
        ranked as (
          select id, q, agency_id, daily_cap,
                 (a + 1)::float8 / q as r, min((a + 1)::float8 / q) over () as lowest
            from counted
           where a < q),
        chosen as (
          select id, q, agency_id, daily_cap from ranked
           where r = lowest and (select current from current)
             and not (select refused from refused)
           order by (select max(l.assigned_at) from leads l
                      where l.assigned_on = ${day}::date and l.agent_id = ranked.id) asc nulls first,
                    id
           limit 1)
        select (select current from current) as current,
               (select refused from refused) as refused, p.id, p.q as quota,
               p.agency_id as "agencyId", p.daily_cap as "agencyCap", p.locked
          from (select 1) one
          left join lateral (
            select c.*, ${agentLockSql(sql`c.id`)} as locked from chosen c) p on true`,
  );
  const refused = row.refused;
  if (!row.current) return { stale: true, agent: null, refused };
  if (row.id === null) return { stale: false, agent: null, refused };
  return {
    stale: false,
    agent: { id: row.id, quota: row.quota, agencyId: row.agencyId, agencyCap: row.agencyCap },
    refused,
  };
}

/** The fitting agents by the fit rule's SQL rendering: every subscriber of the lead's category. */
function fitByRule(input: PickInput) {
  const exclude = `{${input.exclude.join(',')}}`;
  return sql`select u.id, ${QUOTA_SQL} as q, true as capped, ag.id as agency_id, ag.daily_cap
            from packages p
            join subscriptions s on s.package_id = p.id and s.status = 'ACTIVE'
            left join preferences pr on pr.user_id = s.user_id
            -- each subscriber's account read by its key (offset 0 keeps it so): the packages of
            -- the lead's category and the preferences narrow the agents first, not a pass over
            -- every account
            cross join lateral (select * from users where users.id = s.user_id offset 0) u
            left join agency_members am on am.user_id = u.id
            left join agencies ag on ag.id = am.agency_id and ag.daily_cap is not null
           where p.category = ${input.fit.lead.category}::lead_category
             and p.leads_per_day > 0
             and u.role = 'AGENT'
             and u.id <> all(${exclude}::int[])
             and ${fitsSql(input.fit)}`;
}
