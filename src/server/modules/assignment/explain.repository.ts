/**
 * The reads behind "why this agent" (design 12): one lead, every agent with what the engine
 * reads of it, the lead's newest assignment, and the NEW leads grouped as the engine groups them.
 */
import { sql } from 'drizzle-orm';
import type { AssignmentTrigger, LeadCategory, LeadStatus } from '../../../shared/domain';
import { type Db, queryRows } from '../../db/client';

export interface ExplainedLead {
  id: number;
  status: LeadStatus;
  category: LeadCategory;
  state: string;
  city: string;
  age: number;
  agentId: number | null;
}

/** Every agent (role AGENT), active or not, with what the engine reads of an active one. */
export interface AgentFacts {
  id: number;
  name: string;
  /** an ACTIVE subscription to a package */
  active: boolean;
  category: LeadCategory | null;
  quota: number;
  enrollmentOnly: boolean;
  states: string[];
  cities: string[];
  ageMin: number | null;
  ageMax: number | null;
  categories: string[];
  licensedStates: string[];
  paused: boolean;
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

/** Paused at `now`: docs/domain.md, Pause (the shared meaning). */
export async function readAllAgents(db: Db, now: Date): Promise<AgentFacts[]> {
  return queryRows<AgentFacts>(
    db,
    sql`select u.id, u.name,
               (s.status is not null) as active,
               p.category::text as category,
               coalesce(p.leads_per_day, 0) as quota,
               coalesce(p.enrollment_only, false) as "enrollmentOnly",
               coalesce(pr.states, '{}')::text[] as states,
               coalesce(pr.cities, '{}')::text[] as cities,
               pr.age_min as "ageMin",
               pr.age_max as "ageMax",
               coalesce(pr.categories, '{}')::text[] as categories,
               u.licensed_states::text[] as "licensedStates",
               (u.paused_at is not null
                and (u.paused_until is null or u.paused_until > ${now.toISOString()}::timestamptz))
                 as paused
          from users u
          left join subscriptions s on s.user_id = u.id and s.status = 'ACTIVE'
          left join packages p on p.id = s.package_id
          left join preferences pr on pr.user_id = u.id
         where u.role = 'AGENT'
         order by u.id`,
  );
}

export interface AssignmentFact {
  kind: 'AUTO_ASSIGNED' | 'MANUAL_ASSIGNED';
  at: string;
  agentId: number | null;
  agentName: string | null;
  actorId: number | null;
  actorName: string | null;
  runId: number | null;
  runTrigger: AssignmentTrigger | null;
  runAt: string | null;
}

/** The lead's newest assignment in its history, with the run or the admin behind it. */
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
         where h.lead_id = ${leadId} and h.kind in ('AUTO_ASSIGNED', 'MANUAL_ASSIGNED')
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
