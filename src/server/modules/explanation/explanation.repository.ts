/**
 * The reads behind "why this agent" (docs/domain.md, Analytics that explain): one lead, every agent with what the engine
 * reads of it, the lead's newest assignment, and the NEW leads grouped as the engine groups them.
 */
import { sql } from 'drizzle-orm';
import type { AssignmentTrigger, LeadCategory, LeadStatus } from '../../../shared/domain';
import { type Db, queryPreparedRows, queryRows } from '../../db/client';
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
}

/** Every agent (role AGENT), active or not, with what the fit rule reads of it. */
export interface AgentFacts extends FitAgent {
  name: string;
}

export async function findExplainedLead(db: Db, id: number): Promise<ExplainedLead | null> {
  const [row] = await queryRows<ExplainedLead>(
    db,
    sql`select id::int as id, status::text as status, category::text as category, state, city,
               age, agent_id as "agentId"
          from leads where id = ${id}`,
  );
  return row ?? null;
}

/** Every agent, or the one agent `agentId` ([] when it is not an agent). */
export async function readAllAgents(db: Db, agentId?: number): Promise<AgentFacts[]> {
  return queryRows<AgentFacts>(
    db,
    sql`select ${FIT_AGENT_COLUMNS}, u.name
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

/** Agents grouped by their first reason: the count, and the ids the answer names, by id. */
export interface ReasonIds {
  reason: number | null;
  count: number;
  shown: number[];
}

/**
 * The groups with what the answer shows of each agent they name, read for those ids alone (as
 * agentReasonsForLead reads them): one prepared statement, the ids bound as one array.
 */
export async function showReasonGroups(db: Db, groups: ReasonIds[]): Promise<ReasonGroup[]> {
  const ids = groups.flatMap((g) => g.shown);
  if (!ids.every(Number.isSafeInteger)) throw new Error('agent ids: non-integer value');
  const rows =
    ids.length === 0
      ? []
      : await queryPreparedRows<{ agent: ReasonGroup['agents'][number] }>(
          db,
          sql`select ${SHOWN_AGENT} as agent
                from users u
                ${FIT_JOINS}
               where u.id = any(${`{${ids.join(',')}}`}::int[])`,
        );
  const byId = new Map(rows.map((r) => [r.agent.id, r.agent]));
  return groups.map((g) => ({
    reason: g.reason,
    count: g.count,
    agents: g.shown.flatMap((id) => byId.get(id) ?? []),
  }));
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
