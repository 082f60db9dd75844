/** Returns and credits (docs/domain.md, Returns and credits): SQL only. */
import { sql } from 'drizzle-orm';
import type { LeadStatus, ReturnReason, ReturnStatus } from '../../../shared/domain';
import { type Db, intArrayLiteral, queryRows } from '../../db/client';

export interface OwnLead {
  id: number;
  status: LeadStatus;
  assignedAt: Date | string | null;
  returnedAt: Date | string | null;
  /** the lead was CONVERTED at some time, whatever its status now */
  everConverted: boolean;
}

/** Whether the lead is the agent's (a plain read: the drawer asks each time it opens). */
export async function isOwnLead(db: Db, leadId: number, agentId: number): Promise<boolean> {
  const rows = await queryRows<{ id: number }>(
    db,
    sql`select 1 as id from leads where id = ${leadId} and agent_id = ${agentId}`,
  );
  return rows.length > 0;
}

/** The agent's own lead, locked for the request; null when it is not the agent's. */
export async function lockOwnLead(
  tx: Db,
  leadId: number,
  agentId: number,
): Promise<OwnLead | null> {
  const [row] = await queryRows<OwnLead>(
    tx,
    sql`select id::int as id, status::text as status, assigned_at as "assignedAt",
               returned_at as "returnedAt",
               exists (select 1 from lead_history h
                        where h.lead_id = leads.id and h.to_status = 'CONVERTED') as "everConverted"
          from leads where id = ${leadId} and agent_id = ${agentId} for update`,
  );
  return row ?? null;
}

const RETURN_COLUMNS =
  sql.raw(`r.id::int as id, r.lead_id::int as "leadId", r.reason::text as reason,
  r.note, r.status::text as status, r.decision_note as "decisionNote", r.decided_at as "decidedAt",
  r.created_at as "createdAt"`);

export interface ReturnRow {
  id: number;
  leadId: number;
  reason: ReturnReason;
  note: string | null;
  status: ReturnStatus;
  decisionNote: string | null;
  decidedAt: Date | string | null;
  createdAt: Date | string;
}

/** The lead's latest return (any status), optionally of one agent. */
export async function latestReturn(
  db: Db,
  leadId: number,
  agentId?: number,
): Promise<ReturnRow | null> {
  const [row] = await queryRows<ReturnRow>(
    db,
    sql`select ${RETURN_COLUMNS} from lead_returns r
         where r.lead_id = ${leadId}
           ${agentId === undefined ? sql`` : sql`and r.agent_id = ${agentId}`}
         order by r.id desc limit 1`,
  );
  return row ?? null;
}

/** Serializes one agent's return requests, so that two at once cannot both pass the rate cap. */
export async function lockAgentReturns(tx: Db, agentId: number): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${0x4c465254}, ${agentId})`);
}

/**
 * The agent's figures for the return-rate cap over the last `days` days: leads assigned to the
 * agent in that time (returned ones included) and returns asked in that time, pending or approved
 * (denied ones do not count).
 */
export async function returnFigures(
  tx: Db,
  agentId: number,
  days: number,
): Promise<{ assigned: number; returns: number }> {
  const [row] = await queryRows<{ assigned: number; returns: number }>(
    tx,
    sql`select (select count(*) from leads
                 where agent_id = ${agentId}
                   and assigned_at > now() - make_interval(days => ${days}))::int as assigned,
               (select count(*) from lead_returns
                 where agent_id = ${agentId} and status in ('PENDING', 'APPROVED')
                   and created_at > now() - make_interval(days => ${days}))::int as returns`,
  );
  return row ?? { assigned: 0, returns: 0 };
}

/** The agent's request to return the lead. */
export async function insertReturn(
  tx: Db,
  input: {
    leadId: number;
    agentId: number;
    reason: ReturnReason;
    note: string | null;
  },
): Promise<ReturnRow> {
  const [row] = await queryRows<ReturnRow>(
    tx,
    sql`with r as (
          insert into lead_returns (lead_id, agent_id, reason, note)
          values (${input.leadId}, ${input.agentId}, ${input.reason}::return_reason, ${input.note})
          returning *)
        select ${RETURN_COLUMNS} from r`,
  );
  return row;
}

export interface QueueRow extends ReturnRow {
  agentId: number;
  agentName: string;
  agentEmail: string;
  leadName: string;
  leadPhone: string | null;
  leadCity: string;
  leadState: string;
  leadCategory: string;
  leadStatus: string;
  leadAssignedAt: Date | string | null;
  decidedBy: string | null;
  ageHours: number;
}

const QUEUE_SELECT = sql`
  select ${RETURN_COLUMNS}, r.agent_id as "agentId", u.name as "agentName", u.email as "agentEmail",
         coalesce(nullif(btrim(concat_ws(' ', l.first_name, l.last_name)), ''),
                  'Unnamed lead') as "leadName",
         l.phone as "leadPhone", l.city as "leadCity", l.state as "leadState",
         l.category::text as "leadCategory", l.status::text as "leadStatus",
         l.assigned_at as "leadAssignedAt", d.name as "decidedBy",
         floor(extract(epoch from now() - r.created_at) / 3600)::int as "ageHours"
    from lead_returns r
    join users u on u.id = r.agent_id
    join leads l on l.id = r.lead_id
    left join users d on d.id = r.decided_by`;

/** The queue: returns of one status, oldest first for PENDING, newest decided first otherwise. */
export async function listReturns(
  db: Db,
  status: ReturnStatus,
  limit: number,
): Promise<QueueRow[]> {
  return queryRows<QueueRow>(
    db,
    sql`${QUEUE_SELECT}
         where r.status = ${status}::return_status
         order by ${status === 'PENDING' ? sql`r.id asc` : sql`r.decided_at desc, r.id desc`}
         limit ${limit}`,
  );
}

export async function findQueueRow(db: Db, returnId: number): Promise<QueueRow | null> {
  const [row] = await queryRows<QueueRow>(db, sql`${QUEUE_SELECT} where r.id = ${returnId}`);
  return row ?? null;
}

export async function countPending(db: Db): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from lead_returns where status = 'PENDING'`,
  );
  return row?.n ?? 0;
}

/** The return, locked for its decision; null when there is none. */
export async function lockReturn(
  tx: Db,
  returnId: number,
): Promise<{ id: number; leadId: number; agentId: number; status: ReturnStatus } | null> {
  const [row] = await queryRows<{
    id: number;
    leadId: number;
    agentId: number;
    status: ReturnStatus;
  }>(
    tx,
    sql`select id::int as id, lead_id::int as "leadId", agent_id as "agentId", status::text as status
          from lead_returns where id = ${returnId} for update`,
  );
  return row ?? null;
}

export async function recordDecision(
  tx: Db,
  input: { returnId: number; approve: boolean; note: string | null; adminId: number },
): Promise<void> {
  await tx.execute(
    sql`update lead_returns
           set status = ${input.approve ? 'APPROVED' : 'DENIED'}::return_status,
               decided_by = ${input.adminId}, decision_note = ${input.note}, decided_at = now()
         where id = ${input.returnId}`,
  );
}

/** The agent's and the admin's notes on these leads' returns are removed (they may name the consumer). */
export async function forgetReturnNotes(tx: Db, leadIds: number[]): Promise<void> {
  if (leadIds.length === 0) return;
  await tx.execute(
    sql`update lead_returns set note = null, decision_note = null
         where lead_id = any(${intArrayLiteral(leadIds, 'bigint')})
           and (note is not null or decision_note is not null)`,
  );
}
