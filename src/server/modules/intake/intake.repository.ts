/**
 * The intake's statements (docs/domain.md, Sources and the intake API): store one lead (idempotent per source and externalId),
 * pick the agent that gets it at once, and hand it over under a per-agent lock with the quota
 * checked again (docs/decisions/015-intake-assignment.md).
 */
import { sql } from 'drizzle-orm';
import type { LeadCategory } from '../../../shared/domain';
import { type Db, queryPreparedRows, queryRows } from '../../db/client';
import { type FitSqlParams, fitsSql } from '../fit/fit-rule-sql.service';

export interface IntakeLeadRow {
  externalId: string | null;
  firstName: string | null;
  lastName: string | null;
  phone: string | null;
  email: string | null;
  city: string;
  state: string;
  age: number;
  category: LeadCategory;
  sourceId: number;
  consentAt: string | null;
  consentText: string | null;
  trustedFormCertUrl: string | null;
  jornayaLeadId: string | null;
  consentIp: string | null;
  zip: string | null;
  timeZone: string;
}

/**
 * Inserts the lead and its RECEIVED history row in one statement; null when the source already
 * sent this externalId (the unique index decides, also between concurrent requests: the second
 * waits for the first to commit, then inserts nothing).
 */
export async function insertIntakeLead(tx: Db, lead: IntakeLeadRow): Promise<number | null> {
  const [row] = await queryPreparedRows<{ id: number }>(
    tx,
    sql`with l as (
          insert into leads (external_id, first_name, last_name, phone, email, city, state, age,
                             category, source_id, consent_at, consent_text,
                             trusted_form_cert_url, jornaya_lead_id, consent_ip, zip, time_zone)
          values (${lead.externalId}, ${lead.firstName}, ${lead.lastName}, ${lead.phone},
                  ${lead.email}, ${lead.city}, ${lead.state}, ${lead.age},
                  ${lead.category}::lead_category, ${lead.sourceId}, ${lead.consentAt}::timestamptz,
                  ${lead.consentText}, ${lead.trustedFormCertUrl}, ${lead.jornayaLeadId},
                  ${lead.consentIp}, ${lead.zip}, ${lead.timeZone})
          on conflict ((coalesce(source_id, 0)), external_id) do nothing
          returning id),
        h as (
          insert into lead_history (lead_id, kind, to_status)
          select id, 'RECEIVED', 'NEW' from l)
        select id::int as id from l`,
  );
  return row?.id ?? null;
}

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
}

export interface PickedAgent {
  id: number;
  quota: number;
}

/**
 * The fitting agent with the lowest (a + 1) / q (a: leads today by any trigger, q: the package's
 * leads per day), ties to the agent whose last lead today is oldest (none today counts as
 * oldest), then the lower id. One prepared statement (its plan is kept per connection): the fit
 * is the fit rule's SQL rendering (modules/fit); a per agent by one index-only probe of
 * (assigned_on, agent_id) (at most q entries each), never a scan of today's leads; the time of
 * the last lead (a heap read) only for the agents tied at the lowest ratio.
 */
export async function pickAgent(tx: Db, input: PickInput): Promise<PickedAgent | null> {
  const exclude = `{${input.exclude.join(',')}}`;
  const day = input.businessDate;
  const [row] = await queryPreparedRows<PickedAgent>(
    tx,
    sql`with fit as (
          select u.id, p.leads_per_day as q
            from users u
            join subscriptions s on s.user_id = u.id and s.status = 'ACTIVE'
            join packages p on p.id = s.package_id
            left join preferences pr on pr.user_id = u.id
           where u.role = 'AGENT'
             and p.category = ${input.fit.lead.category}::lead_category
             and p.leads_per_day > 0
             and u.id <> all(${exclude}::int[])
             and ${fitsSql(input.fit)}),
        counted as (
          select f.id, f.q, t.a
            from fit f
            cross join lateral (
              select count(*)::int as a from leads l
               where l.assigned_on = ${day}::date and l.agent_id = f.id) t),
        ranked as (
          select id, q, (a + 1)::float8 / q as r, min((a + 1)::float8 / q) over () as lowest
            from counted
           where a < q)
        select id, q as quota from ranked
         where r = lowest
         order by (select max(l.assigned_at) from leads l
                    where l.assigned_on = ${day}::date and l.agent_id = ranked.id) asc nulls first,
                  id
         limit 1`,
  );
  return row ?? null;
}

/** Namespace of the per-agent intake locks (two-int advisory keys: 'LFIA', agent id). */
const AGENT_LOCK_NAMESPACE = 0x4c464941;

/**
 * Hands the lead to the agent: waits for the agent's lock (held to the end of the transaction),
 * then one conditional UPDATE whose snapshot, taken after the lock, sees every assignment that
 * an earlier holder committed; it re-checks the quota and that the lead is still NEW. Also
 * writes the AUTO_ASSIGNED history row (no run: assignment_run_id null). False when the agent
 * is full by now.
 */
export async function assignToAgent(
  tx: Db,
  input: { leadId: number; agentId: number; quota: number; businessDate: string },
): Promise<boolean> {
  await tx.execute(sql`select pg_advisory_xact_lock(${AGENT_LOCK_NAMESPACE}, ${input.agentId})`);
  const rows = await queryPreparedRows<{ id: number }>(
    tx,
    sql`with a as (
          update leads
             set status = 'ASSIGNED', agent_id = ${input.agentId}, assigned_at = now(),
                 assigned_on = ${input.businessDate}::date, assignment_run_id = null
           where id = ${input.leadId} and status = 'NEW' and agent_id is null
             and (select count(*) from leads l
                   where l.assigned_on = ${input.businessDate}::date
                     and l.agent_id = ${input.agentId}) < ${input.quota}
          returning id),
        h as (
          insert into lead_history (lead_id, kind, from_status, to_status, agent_id)
          select id, 'AUTO_ASSIGNED', 'NEW', 'ASSIGNED', ${input.agentId} from a)
        select id::int as id from a`,
  );
  return rows.length > 0;
}
