/**
 * The reads behind "why this agent" (docs/domain.md, Analytics that explain): one lead, every agent with what the engine
 * reads of it, the lead's newest assignment, and the NEW leads grouped as the engine groups them.
 */
import { sql } from 'drizzle-orm';
import type { AssignmentTrigger, LeadCategory, LeadStatus } from '../../../shared/domain';
import { type Db, idsParam, queryPreparedRows, queryRows } from '../../db/client';
import { assignedBetweenSql } from '../assignment/quota.service';
import { ROSTER_VERSION_SQL } from '../fit/fit-roster.service';
import type { FitAgent, PerLead } from '../fit/fit-rule.service';
import {
  FIT_AGENT_COLUMNS,
  FIT_JOINS,
  type FitSqlParams,
  firstMisfitSql,
  PER_LEAD_SQL,
  QUOTA_SQL,
} from '../fit/fit-rule-sql.service';

export interface ExplainedLead {
  id: number;
  status: LeadStatus;
  category: LeadCategory;
  state: string;
  city: string;
  age: number;
  agentId: number | null;
  /** the version of the agents' fit data (decision 043) the statement saw */
  rosterVersion: number;
}

/** Every agent (role AGENT), active or not, with what the fit rule reads of it. */
export interface AgentFacts extends FitAgent {
  name: string;
}

export async function findExplainedLead(db: Db, id: number): Promise<ExplainedLead | null> {
  const [row] = await queryRows<ExplainedLead>(
    db,
    sql`select id::int as id, status::text as status, category::text as category, state, city,
               age, agent_id as "agentId", ${ROSTER_VERSION_SQL} as "rosterVersion"
          from leads where id = ${id}`,
  );
  return row ?? null;
}

/**
 * Every agent, or the one agent `agentId` ([] when it is not an agent); `names: false` leaves the
 * names out (the process's copy of the agents keeps only what the fit rule reads).
 */
export async function readAllAgents(
  db: Db,
  agentId?: number,
  { names = true }: { names?: boolean } = {},
): Promise<AgentFacts[]> {
  return queryRows<AgentFacts>(
    db,
    sql`select ${FIT_AGENT_COLUMNS}${names ? sql`, u.name` : sql``}
          from users u
          ${FIT_JOINS}
         where u.role = 'AGENT' ${agentId === undefined ? sql`` : sql`and u.id = ${agentId}`}
         order by u.id`,
  );
}

/** The reasons' codes: indexes into MISFIT_REASONS (DISABLED 0, NOT_APPROVED 1, NOT_ACTIVE 2 ... AGE 9); null: fits. */
export interface ReasonGroup {
  reason: number | null;
  count: number;
  /** the group's agents, by id: the first `named` of them, or all when the agent fits */
  agents: {
    id: number;
    name: string;
    quota: number;
    agencyId: number | null;
    agencyCap: number | null;
    weeklyCap: number | null;
    monthlyCap: number | null;
    perLead: PerLead | null;
  }[];
}

/** What the answer shows of an agent it names (ReasonGroup's agents), over FIT_JOINS' aliases. */
const SHOWN_AGENT = sql`json_build_object('id', u.id, 'name', u.name, 'quota', ${QUOTA_SQL},
  'agencyId', fa.agency_id, 'agencyCap', fa.daily_cap,
  'weeklyCap', (select c.weekly from agent_caps c where c.user_id = u.id),
  'monthlyCap', (select c.monthly from agent_caps c where c.user_id = u.id),
  'perLead', ${PER_LEAD_SQL})`;

/**
 * Every agent's first reason not to take this lead, the fit rule's SQL rendering checked in the
 * database up to AGE (the quota is the caller's: it needs today's counts of the few agents left),
 * grouped by reason: counts, and the first `named` agents of each (every agent that fits). One
 * statement over the agents, instead of 10,000 rows sent to be checked one by one; prepared (its
 * text never varies), so repeated explanations skip parsing and planning. The pass over every
 * agent reads only what the reason needs; what the answer shows of an agent (name, quota, caps,
 * per-lead price) is read for the agents it names alone, a few hundred rows (decision 041). The
 * pass is materialized as (id, reason) pairs, so the grouping sorts those and not the wide rows
 * the reasons were read from.
 */
export async function agentReasonsForLead(
  db: Db,
  params: FitSqlParams,
  named: number,
): Promise<ReasonGroup[]> {
  return queryPreparedRows<ReasonGroup>(
    db,
    sql`with a as materialized (
          select u.id, ${firstMisfitSql(params)} as reason
            from users u
            ${FIT_JOINS}
           where u.role = 'AGENT'),
        g as (
          select reason, count(*)::int as count,
                 case when reason is null then array_agg(id order by id)
                      else (array_agg(id order by id))[1:${named}] end as shown
            from a
           group by reason)
        select g.reason, g.count,
               coalesce((
                 select json_agg(${SHOWN_AGENT} order by u.id)
                   from users u
                   ${FIT_JOINS}
                  where u.id = any(g.shown)), '[]') as agents
          from g`,
  );
}

/**
 * What the copy of the agents (decision 043) does not hold at its version, for the agents an
 * answer names: the name (renaming an account moves no version) and what pays per lead (each
 * charge and top-up moves the wallet, and a package's price list moves the highest price: none
 * moves the version), as PER_LEAD_SQL renders it; and for the agents that fit but for capacity,
 * the leads they were given today (`counted`), and this week and month (`capped`: those with a
 * weekly or monthly cap). One prepared statement, the ids bound as arrays.
 */
export interface NamedAgent {
  id: number;
  name: string;
  perLead: PerLead | null;
  /** null: not counted */
  today: number | null;
  week: number | null;
  month: number | null;
}

export async function readNamedAgents(
  db: Db,
  ids: number[],
  counts: {
    counted: number[];
    capped: number[];
    businessDate: string;
    weekStart: string;
    monthStart: string;
  },
): Promise<Map<number, NamedAgent>> {
  if (ids.length === 0) return new Map();
  const { businessDate: date } = counts;
  const capped = idsParam(counts.capped, 'int');
  const rows = await queryPreparedRows<NamedAgent>(
    db,
    sql`select u.id, u.name, ${PER_LEAD_SQL} as "perLead",
               case when u.id = any(${idsParam(counts.counted, 'int')})
                    then ${assignedBetweenSql(sql`u.id`, date, date)} end as today,
               case when u.id = any(${capped})
                    then ${assignedBetweenSql(sql`u.id`, counts.weekStart, date)} end as week,
               case when u.id = any(${capped})
                    then ${assignedBetweenSql(sql`u.id`, counts.monthStart, date)} end as month
          from users u
          left join subscriptions s on s.user_id = u.id and s.status = 'ACTIVE'
          left join packages p on p.id = s.package_id
         where u.id = any(${idsParam(ids, 'int')})`,
  );
  return new Map(rows.map((r) => [r.id, r]));
}

export interface AssignmentFact {
  kind: 'AUTO_ASSIGNED' | 'MANUAL_ASSIGNED' | 'REASSIGNED';
  at: string;
  agentId: number | null;
  agentName: string | null;
  actorId: number | null;
  actorName: string | null;
  runId: number | null;
  runTrigger: AssignmentTrigger | null;
  runAt: string | null;
}

/** The lead's newest assignment in its history (a reassignment included), with the run or the admin behind it. */
export async function findLastAssignment(db: Db, leadId: number): Promise<AssignmentFact | null> {
  const [row] = await queryRows<AssignmentFact>(
    db,
    sql`select h.kind::text as kind, to_char(h.created_at at time zone 'UTC',
                 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as at,
               h.agent_id as "agentId", ag.name as "agentName",
               h.actor_id as "actorId", ac.name as "actorName",
               r.id as "runId", r.trigger::text as "runTrigger",
               to_char(r.started_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "runAt"
          from lead_history h
          left join users ag on ag.id = h.agent_id
          left join users ac on ac.id = h.actor_id
          left join assignment_runs r on r.id = h.assignment_run_id
         where h.lead_id = ${leadId} and h.kind in ('AUTO_ASSIGNED', 'MANUAL_ASSIGNED', 'REASSIGNED')
         order by h.id desc
         limit 1`,
  );
  return row ?? null;
}

export interface NewLeadGroup {
  category: LeadCategory;
  state: string;
  city: string;
  age: number;
  n: number;
}

/** NEW, unassigned leads grouped by what the engine can tell apart (as a run reads them). */
export async function readNewLeadGroups(db: Db): Promise<NewLeadGroup[]> {
  return queryRows<NewLeadGroup>(
    db,
    sql`select category::text as category, state, city, age, count(*)::int as n
          from leads
         where status = 'NEW' and agent_id is null
         group by category, state, city, age`,
  );
}
