/**
 * Every write of a lead's status and history (docs/domain.md, "Lead statuses and history"): the
 * statements behind lead-life.service.ts, whatever triggered the change (a run, an admin, the
 * intake, the agent, a return, a call, a message). No other module writes `leads` or
 * `lead_history` (test/table-owners.test.ts).
 */

import { and, eq, isNull, type SQL, sql } from 'drizzle-orm';
import type {
  AgentSettableStatus,
  ConsentOutcome,
  LeadCategory,
  LeadStatus,
  RefusalReason,
} from '../../../shared/domain';
import { REASSIGNABLE_STATUSES } from '../../../shared/domain';
import {
  type Db,
  enumLiteral,
  intArrayLiteral,
  queryPreparedRows,
  queryRows,
} from '../../db/client';
import { leadHistory, leads } from '../../db/schema';
import { speedToLead } from '../../lib/metrics';
import { paysPerLeadSql, periodCapsHoldSql } from '../fit/fit-rule-sql.service';
import { chargeAssignedLeads, creditLeadBack } from '../wallet/wallet.service';
import { type BulkSession, IMPORT_GATE_LOCK } from './lead-group-writer';
import type { LeadRow } from './leads.repository';

export type { LeadRow };

// ---- received

/** A lead the intake received, as stored. */
export interface ReceivedLead {
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
  /** the consent check's outcome and the certificate's expiry, when it was checked */
  consentOutcome?: ConsentOutcome | null;
  consentVerifiedAt?: string | null;
  consentExpiresAt?: string | null;
}

/**
 * Inserts the lead and its RECEIVED history row in one statement; null when the source already
 * sent this externalId (the unique index decides, also between concurrent requests: the second
 * waits for the first to commit, then inserts nothing). The same statement then takes the import
 * gate shared (IMPORT_GATE_LOCK, held to the commit): after the insert, never before it, since
 * the insert may wait for an import's uncommitted row with the same externalId, and an import
 * waits for the gate at its end (decision 025).
 */
export async function insertReceivedLead(tx: Db, lead: ReceivedLead): Promise<number | null> {
  const [row] = await queryPreparedRows<{ id: number }>(
    tx,
    sql`with l as (
          insert into leads (external_id, first_name, last_name, phone, email, city, state, age,
                             category, source_id, consent_at, consent_text,
                             trusted_form_cert_url, jornaya_lead_id, consent_ip, zip, time_zone,
                             consent_outcome, consent_verified_at, consent_expires_at)
          values (${lead.externalId}, ${lead.firstName}, ${lead.lastName}, ${lead.phone},
                  ${lead.email}, ${lead.city}, ${lead.state}, ${lead.age},
                  ${lead.category}::lead_category, ${lead.sourceId}, ${lead.consentAt}::timestamptz,
                  ${lead.consentText}, ${lead.trustedFormCertUrl}, ${lead.jornayaLeadId},
                  ${lead.consentIp}, ${lead.zip}, ${lead.timeZone},
                  ${lead.consentOutcome ?? null}::consent_outcome,
                  ${lead.consentVerifiedAt ?? null}::timestamptz,
                  ${lead.consentExpiresAt ?? null}::timestamptz)
          on conflict ((coalesce(source_id, 0)), external_id) do nothing
          returning id),
        h as (
          insert into lead_history (lead_id, kind, to_status)
          select id, 'RECEIVED', 'NEW' from l)
        select id::int as id, pg_advisory_xact_lock_shared(${IMPORT_GATE_LOCK}::int) as gate
          from l`,
  );
  return row?.id ?? null;
}

/** Leads stored as they are, NEW (the demo seed's two weeks of leads). */
export async function insertLeads(db: Db, rows: (typeof leads.$inferInsert)[]): Promise<void> {
  if (rows.length > 0) await db.insert(leads).values(rows);
}

// ---- refused (counted per source and reason: the sources' analytics)

/** One refused intake request, counted for its source. */
export async function recordIntakeRefusal(
  db: Db,
  sourceId: number,
  reason: RefusalReason,
): Promise<void> {
  await db.execute(
    sql`insert into lead_refusals (source_id, reason, n) values (${sourceId}, ${reason}::refusal_reason, 1)`,
  );
}

/** An import's refusals by reason, one row per reason with a count, in the import's transaction. */
export async function recordImportRefusals(
  session: Pick<BulkSession, 'run'>,
  r: {
    importId: number;
    sourceId: number | null;
    invalid: number;
    duplicates: number;
    dnc: number;
    suppressed: number;
    consent: number;
  },
): Promise<void> {
  await session.run(
    `insert into lead_refusals (source_id, import_id, reason, n)
     select $1::int, $2::int, reason::refusal_reason, n
       from (values ('INVALID', $3::int), ('DUPLICATE', $4::int), ('DNC', $5::int),
                    ('SUPPRESSED', $6::int), ('CONSENT', $7::int)) v(reason, n)
      where n > 0`,
    [r.sourceId, r.importId, r.invalid, r.duplicates, r.dnc, r.suppressed, r.consent],
  );
}

// ---- assigned

export interface WriteOutcome {
  assigned: number;
  agents: number;
}

/** The agency an agent belongs to now, as a lead assigned to them records it (leads.agency_id). */
const agencyOfAgent = (agentId: number) =>
  sql`(select m.agency_id from agency_members m where m.user_id = ${agentId})`;

/**
 * One statement: the leads still NEW and without an agent go to their agents (a lead taken
 * meanwhile, by a manual assignment, is skipped), and each change is written to lead_history.
 * Every assignment records the agent's agency, if any (leads.agency_id: the agency's book and
 * its daily cap).
 */
export async function assignLeadsOfRun(
  tx: Db,
  run: { id: number; businessDate: string; at: Date },
  leadIds: number[],
  agentIds: number[],
): Promise<WriteOutcome> {
  if (leadIds.length === 0) return { assigned: 0, agents: 0 };
  // By lead id: the table is written in its physical order. The update names the leads again as
  // a constant array: PostgreSQL then filters the pool by a hashed lookup and hashes the chosen
  // leads only, not every NEW lead (bench/README.md, where the daily run's write goes).
  const order = leadIds.map((_, i) => i).sort((a, b) => leadIds[a] - leadIds[b]);
  const ids = intArrayLiteral(
    order.map((i) => leadIds[i]),
    'bigint',
  );
  const agents = intArrayLiteral(
    order.map((i) => agentIds[i]),
    'int',
  );
  const [row] = await queryRows<WriteOutcome>(
    tx,
    sql`with chosen as (
          select c.*, m.agency_id
            from unnest(${ids}, ${agents}) as c(lead_id, agent_id)
            left join agency_members m on m.user_id = c.agent_id
        ), updated as (
          update leads l
             set status = 'ASSIGNED', agent_id = c.agent_id, assigned_at = ${run.at.toISOString()},
                 assigned_on = ${run.businessDate}, assignment_run_id = ${run.id},
                 agency_id = c.agency_id
            from chosen c
           where l.id = c.lead_id and l.id = any(${ids}) and l.status = 'NEW' and l.agent_id is null
          returning l.id, l.agent_id
        ), logged as (
          insert into lead_history (lead_id, kind, from_status, to_status, agent_id,
                                    assignment_run_id, created_at)
          select id, 'AUTO_ASSIGNED', 'NEW', 'ASSIGNED', agent_id, ${run.id}, ${run.at.toISOString()}
            from updated
          returning agent_id
        )
        select count(*)::int as "assigned", count(distinct agent_id)::int as "agents" from logged`,
  );
  // each lead of an agent who pays per lead is paid for in the run's transaction
  await chargeAssignedLeads(tx, leadIds, run.businessDate);
  return row;
}

/**
 * Hands a lead to an agent by the one conditional UPDATE (only while it is NEW and has no agent)
 * and records it in the lead's history; null when the lead was not NEW (or does not exist).
 */
export async function assignNewLeadByHand(
  tx: Db,
  input: { leadId: number; agentId: number; actorId: number; assignedOn: string },
): Promise<LeadRow | null> {
  const [row] = await tx
    .update(leads)
    .set({
      status: 'ASSIGNED',
      agentId: input.agentId,
      assignedAt: sql`now()`,
      assignedOn: input.assignedOn,
      assignmentRunId: null,
      agencyId: agencyOfAgent(input.agentId),
    })
    .where(and(eq(leads.id, input.leadId), eq(leads.status, 'NEW'), isNull(leads.agentId)))
    .returning();
  if (!row) return null;
  await tx.insert(leadHistory).values({
    leadId: row.id,
    kind: 'MANUAL_ASSIGNED',
    actorId: input.actorId,
    fromStatus: 'NEW',
    toStatus: 'ASSIGNED',
    agentId: input.agentId,
  });
  await chargeAssignedLeads(tx, [row.id], input.assignedOn);
  return row;
}

/**
 * Moves a lead being worked from one agent to another (an admin), by one conditional UPDATE: only
 * while `fromAgentId` still holds it, in a reassignable status, not returned. The new agent
 * receives it as ASSIGNED now (their own uncontacted lead, counted against their quota today);
 * the REASSIGNED history row names the admin and both agents. Null when the lead moved meanwhile.
 */
export async function reassignLead(
  tx: Db,
  input: {
    leadId: number;
    fromAgentId: number;
    toAgentId: number;
    actorId: number;
    assignedOn: string;
  },
): Promise<LeadRow | null> {
  const reassignable = sql.join(
    REASSIGNABLE_STATUSES.map((s) => enumLiteral(s, REASSIGNABLE_STATUSES)),
    sql`, `,
  );
  const [before] = await queryRows<{ status: LeadStatus }>(
    tx,
    sql`select status::text as status from leads
         where id = ${input.leadId} and agent_id = ${input.fromAgentId}
           and status in (${reassignable}) and returned_at is null
         for update`,
  );
  if (!before) return null;
  const [row] = await tx
    .update(leads)
    .set({
      status: 'ASSIGNED',
      agentId: input.toAgentId,
      assignedAt: sql`now()`,
      assignedOn: input.assignedOn,
      assignmentRunId: null,
      agencyId: agencyOfAgent(input.toAgentId),
    })
    .where(eq(leads.id, input.leadId))
    .returning();
  await tx.insert(leadHistory).values({
    leadId: row.id,
    kind: 'REASSIGNED',
    actorId: input.actorId,
    fromStatus: before.status,
    toStatus: 'ASSIGNED',
    agentId: input.toAgentId,
    fromAgentId: input.fromAgentId,
  });
  // the agent it was taken from gets back what it paid; the agent it goes to pays
  await creditLeadBack(tx, {
    leadId: row.id,
    agentId: input.fromAgentId,
    kind: 'RECLAIM_CREDIT',
  });
  await chargeAssignedLeads(tx, [row.id], input.assignedOn);
  return row;
}

/** Namespace of the per-agent intake locks (two-int advisory keys: 'LFIA', agent id). */
const AGENT_LOCK_NAMESPACE = 0x4c464941;
/** Namespace of the per-agency cap locks (two-int advisory keys: 'LFAG', agency id). */
const AGENCY_LOCK_NAMESPACE = 0x4c464147;

/**
 * The agent's intake lock as an expression (void), for a caller that takes it inside the
 * statement that picks the agent (the intake's pick): the hand-over below then needs no
 * statement of its own for it.
 */
export function agentLockSql(agentId: SQL): SQL {
  return sql`pg_advisory_xact_lock(${AGENT_LOCK_NAMESPACE}::int, ${agentId})`;
}

/**
 * Hands the lead to the agent: waits for the agent's lock (held to the end of the transaction;
 * `agentLocked`: the caller's pick took it, agentLockSql), then one conditional UPDATE whose
 * snapshot, taken after the lock, sees every assignment that an earlier holder committed; it
 * re-checks the quota and that the lead is still NEW. Also writes the AUTO_ASSIGNED history row
 * (no run: assignment_run_id null). An agent of an agency with a daily cap also waits for the
 * agency's lock, and the agency's leads of the day are counted again under it. The lead is
 * charged when the agent pays per lead, as the UPDATE's snapshot says. False when the agent (or
 * the agency) is full by now.
 */
export async function assignReceivedLead(
  tx: Db,
  input: {
    leadId: number;
    agentId: number;
    quota: number;
    businessDate: string;
    /** the agent's agency and its daily cap, when it has one */
    agencyCap?: { agencyId: number; cap: number } | null;
    /** the caller holds the agent's lock already (agentLockSql in its pick) */
    agentLocked?: boolean;
  },
): Promise<boolean> {
  if (!input.agentLocked)
    await queryPreparedRows(tx, sql`select ${agentLockSql(sql`${input.agentId}::int`)}`);
  const cap = input.agencyCap ?? null;
  if (cap) {
    await tx.execute(sql`select pg_advisory_xact_lock(${AGENCY_LOCK_NAMESPACE}, ${cap.agencyId})`);
  }
  // -1: no agency cap to check (the statement stays one prepared text)
  const capAgency = cap?.agencyId ?? -1;
  const capLimit = cap?.cap ?? 0;
  const rows = await queryPreparedRows<{ id: number; paysPerLead: boolean }>(
    tx,
    sql`with a as (
          update leads
             set status = 'ASSIGNED', agent_id = ${input.agentId}, assigned_at = now(),
                 assigned_on = ${input.businessDate}::date, assignment_run_id = null,
                 agency_id = (select m.agency_id from agency_members m
                               where m.user_id = ${input.agentId})
           where id = ${input.leadId} and status = 'NEW' and agent_id is null
             and (select count(*) from leads l
                   where l.assigned_on = ${input.businessDate}::date
                     and l.agent_id = ${input.agentId}) < ${input.quota}
             and ${periodCapsHoldSql(sql`${input.agentId}::int`, input.businessDate)}
             and (${capAgency}::int = -1
                  or (select count(*) from leads l
                       where l.agency_id = ${capAgency}::int
                         and l.assigned_on = ${input.businessDate}::date) < ${capLimit}::int)
          returning id),
        h as (
          insert into lead_history (lead_id, kind, from_status, to_status, agent_id)
          select id, 'AUTO_ASSIGNED', 'NEW', 'ASSIGNED', ${input.agentId} from a)
        select id::int as id, ${paysPerLeadSql(sql`${input.agentId}::int`)} as "paysPerLead"
          from a`,
  );
  if (rows.length === 0) return false;
  // a subscription's lead costs nothing: no charge statement
  if (rows[0].paysPerLead) await chargeAssignedLeads(tx, [input.leadId], input.businessDate);
  return true;
}
// ---- worked by the agent

/** Sets a lead's status (the agent's first contact, if none came earlier) and records the change (who, from, to) in its history. */
export async function writeStatusChange(
  tx: Db,
  change: { leadId: number; agentId: number; from: LeadStatus; to: AgentSettableStatus },
): Promise<LeadRow> {
  // the agent working the lead is a contact: the first one, if none came earlier
  await markFirstContact(tx, change.leadId);
  const [updated] = await tx
    .update(leads)
    .set({ status: change.to })
    .where(eq(leads.id, change.leadId))
    .returning();
  await tx.insert(leadHistory).values({
    leadId: change.leadId,
    kind: 'STATUS_CHANGED',
    actorId: change.agentId,
    agentId: change.agentId,
    fromStatus: change.from,
    toStatus: change.to,
  });
  return updated;
}

/**
 * The agent's first contact with the lead (docs/domain.md, Analytics that explain): kept once, the earliest of
 * a status change, a connected call or a follow-up message sent.
 */
export async function markFirstContact(tx: Db, leadId: number, at?: Date): Promise<void> {
  const when = at ? sql`${at.toISOString()}::timestamptz` : sql`now()`;
  const [first] = await queryRows<{ seconds: number | null }>(
    tx,
    sql`update leads set first_contact_at = ${when}
         where id = ${leadId} and first_contact_at is null
     returning extract(epoch from first_contact_at - assigned_at)::float8 as seconds`,
  );
  // GET /metrics: speed to lead, from the assignment to this first contact
  if (first?.seconds != null) speedToLead.observe(Math.max(0, Number(first.seconds)));
}

/**
 * A connected call on a lead still ASSIGNED moves it to CONTACTED (history STATUS_CHANGED by
 * the agent), and the call's start is the first contact if none came earlier.
 */
export async function markContactedByCall(
  tx: Db,
  call: { leadId: number; agentId: number; connectedAt: Date },
): Promise<void> {
  await tx.execute(sql`with l as (
      update leads set status = 'CONTACTED'
      where id = ${call.leadId} and agent_id = ${call.agentId} and status = 'ASSIGNED'
      returning id, agent_id)
    insert into lead_history (lead_id, kind, actor_id, from_status, to_status, agent_id)
    select id, 'STATUS_CHANGED', agent_id, 'ASSIGNED', 'CONTACTED', agent_id from l`);
  await markFirstContact(tx, call.leadId, call.connectedAt);
}

/** Every lead with this phone opted out for good, each with its OPTED_OUT history row. */
export async function optOutPhone(tx: Db, phone: string): Promise<void> {
  await tx.execute(sql`with o as (
      update leads set opted_out_at = now()
      where phone = ${phone} and opted_out_at is null
      returning id, agent_id, status)
    insert into lead_history (lead_id, kind, actor_id, from_status, to_status, agent_id)
    select id, 'OPTED_OUT', null, status, status, agent_id from o`);
}

// ---- returned

/** The agent asked to return the lead: a RETURN_REQUESTED history row (the status unchanged). */
export async function recordReturnRequested(
  tx: Db,
  input: { leadId: number; agentId: number; status: LeadStatus },
): Promise<void> {
  await tx.execute(
    sql`insert into lead_history (lead_id, kind, actor_id, from_status, to_status, agent_id)
        values (${input.leadId}, 'RETURN_REQUESTED', ${input.agentId},
                ${input.status}::lead_status, ${input.status}::lead_status, ${input.agentId})`,
  );
}

/**
 * Approved: the lead becomes INVALID and returned, and assigned_on is cleared: quotas count a
 * day's leads by assigned_on, so this is the credit (agent_id and assigned_at stay for history and
 * analytics). With its RETURN_APPROVED history row. False when the agent converted the lead since
 * the request (nothing changes).
 */
export async function returnLead(
  tx: Db,
  input: { leadId: number; agentId: number; adminId: number },
): Promise<boolean> {
  const [lead] = await queryRows<{ status: LeadStatus; everConverted: boolean }>(
    tx,
    sql`select status::text as status,
               exists (select 1 from lead_history h
                        where h.lead_id = leads.id and h.to_status = 'CONVERTED') as "everConverted"
          from leads where id = ${input.leadId} for update`,
  );
  if (!lead || lead.status === 'CONVERTED' || lead.everConverted) return false;
  await tx.execute(
    sql`with l as (
          update leads set status = 'INVALID', returned_at = now(), assigned_on = null
           where id = ${input.leadId} returning id)
        insert into lead_history (lead_id, kind, actor_id, from_status, to_status, agent_id)
        select l.id, 'RETURN_APPROVED', ${input.adminId}, ${lead.status}::lead_status, 'INVALID',
               ${input.agentId}
          from l`,
  );
  await creditLeadBack(tx, { leadId: input.leadId, agentId: input.agentId, kind: 'RETURN_CREDIT' });
  return true;
}

/** Denied: the lead unchanged, a RETURN_DENIED history row. */
export async function recordReturnDenied(
  tx: Db,
  input: { leadId: number; agentId: number; adminId: number },
): Promise<void> {
  await tx.execute(
    sql`insert into lead_history (lead_id, kind, actor_id, from_status, to_status, agent_id)
        select id, 'RETURN_DENIED', ${input.adminId}, status, status, ${input.agentId}
          from leads where id = ${input.leadId}`,
  );
}

// ---- taken back by an agency (docs/domain.md, Agencies: reclaim and leaving)

/** A lead an agency took back: who had it and what it is (for the notices and the next owner). */
export interface TakenBackLead {
  id: number;
  fromAgentId: number;
  agencyId: number;
}

/**
 * A member leaves the agency (or is removed): their agency leads not yet contacted (ASSIGNED,
 * no first contact) go back to NEW with no agent, so the engine gives them to the agency's other
 * members. assigned_on is cleared: the member's quota (and the agency's cap) of that day is
 * credited, as for a return. One RECLAIMED history row each (from the member, by `actorId`).
 * Worked leads stay with the member. The caller runs the engine after committing.
 */
export async function releaseMemberLeads(
  tx: Db,
  input: { userId: number; agencyId: number; actorId?: number | null },
): Promise<TakenBackLead[]> {
  const released = await queryRows<TakenBackLead>(
    tx,
    sql`with l as (
          update leads
             set status = 'NEW', agent_id = null, agency_id = null, assigned_on = null,
                 assigned_at = null, assignment_run_id = null
           where agent_id = ${input.userId} and agency_id = ${input.agencyId}
             and status = 'ASSIGNED' and first_contact_at is null and returned_at is null
             and not exists (select 1 from lead_returns r
                              where r.lead_id = leads.id and r.status = 'PENDING')
          returning id),
        h as (
          insert into lead_history (lead_id, kind, actor_id, from_status, to_status, from_agent_id)
          select id, 'RECLAIMED', ${input.actorId ?? null}::int, 'ASSIGNED', 'NEW', ${input.userId}::int
            from l)
        select id::int as id, ${input.userId}::int as "fromAgentId",
               ${input.agencyId}::int as "agencyId"
          from l order by id`,
  );
  for (const lead of released) {
    await creditLeadBack(tx, { leadId: lead.id, agentId: input.userId, kind: 'RECLAIM_CREDIT' });
  }
  return released;
}

/** How many times an agency may take one lead back from members who did not work it. */
export const MAX_RECLAIMS = 2;

/**
 * An agency takes back a lead its member did not work in time and gives it to another member, by
 * one conditional UPDATE: only while `fromAgentId` still holds it as assigned at `assignedAt`
 * (not reassigned, returned or released since), ASSIGNED, never contacted, no return pending, and
 * reclaimed fewer than MAX_RECLAIMS times. The new member receives it as ASSIGNED now, counted on
 * `assignedOn` (the first member's quota no longer counts it). Two history rows: RECLAIMED (from
 * the first member, back to NEW) and AUTO_ASSIGNED (to the new one). False when the lead moved.
 */
export async function reclaimLead(
  tx: Db,
  input: {
    leadId: number;
    fromAgentId: number;
    assignedAt: string;
    toAgentId: number;
    assignedOn: string;
    at: Date;
  },
): Promise<boolean> {
  const at = input.at.toISOString();
  const rows = await queryRows<{ id: number }>(
    tx,
    sql`with l as (
          update leads
             set agent_id = ${input.toAgentId}, assigned_at = ${at}::timestamptz,
                 assigned_on = ${input.assignedOn}::date, assignment_run_id = null,
                 reclaims = reclaims + 1,
                 agency_id = (select m.agency_id from agency_members m
                               where m.user_id = ${input.toAgentId})
           where id = ${input.leadId} and agent_id = ${input.fromAgentId}
             and assigned_at = ${input.assignedAt}::timestamptz
             and status = 'ASSIGNED' and first_contact_at is null and returned_at is null
             and reclaims < ${MAX_RECLAIMS}
             and not exists (select 1 from lead_returns r
                              where r.lead_id = leads.id and r.status = 'PENDING')
          returning id),
        h as (
          -- one insert, the two rows in their order (RECLAIMED first)
          insert into lead_history (lead_id, kind, from_status, to_status, from_agent_id, agent_id,
                                    created_at)
          select id, kind::lead_history_kind, from_s::lead_status, to_s::lead_status, from_a, to_a, at
            from (select id, 1 as o, 'RECLAIMED' as kind, 'ASSIGNED' as from_s, 'NEW' as to_s,
                         ${input.fromAgentId}::int as from_a, null::int as to_a,
                         ${at}::timestamptz as at
                    from l
                  union all
                  select id, 2, 'AUTO_ASSIGNED', 'NEW', 'ASSIGNED', null::int,
                         ${input.toAgentId}::int, ${at}::timestamptz + interval '1 microsecond'
                    from l) rows
           order by o)
        select id::int as id from l`,
  );
  if (rows.length === 0) return false;
  await creditLeadBack(tx, {
    leadId: input.leadId,
    agentId: input.fromAgentId,
    kind: 'RECLAIM_CREDIT',
  });
  await chargeAssignedLeads(tx, [input.leadId], input.assignedOn);
  return true;
}
