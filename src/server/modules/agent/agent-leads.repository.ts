import { and, eq, sql } from 'drizzle-orm';
import type { Lead, LeadListQuery } from '../../../shared/contracts/leads';
import type { AgentSettableStatus, LeadStatus } from '../../../shared/domain';
import { type Db, queryRows } from '../../db/client';
import { leadHistory, leads } from '../../db/schema';
import {
  type LeadRow,
  leadFromRow,
  leadStatusLiteral,
  likePattern,
  toLead,
} from '../leads/admin-leads.repository';

/** One page of an agent's leads (or all of them), with how many match in all. */
export interface AgentLeadsPage {
  leads: Lead[];
  total: number;
}

/**
 * An agent's own leads, newest first (the leads_agent_idx order), optionally of one status and
 * matching a search of the name, phone or email (ILIKE, over the agent's leads only). Without a
 * limit every lead comes back (the spec's call); with one, a page and the total: from the counts
 * the triggers keep when nothing is searched, else counted.
 */
export async function listLeadsOfAgent(
  db: Db,
  agentId: number,
  query: LeadListQuery,
): Promise<AgentLeadsPage> {
  const status = query.status ? sql`and status = ${leadStatusLiteral(query.status)}` : sql``;
  const pattern = query.q ? likePattern(query.q) : null;
  const search = pattern
    ? sql`and (first_name ilike ${pattern} or last_name ilike ${pattern}
               or phone ilike ${pattern} or email ilike ${pattern})`
    : sql``;
  const where = sql`agent_id = ${agentId} ${status} ${search}`;
  const paged = query.limit !== undefined;
  const [rows, total] = await Promise.all([
    queryRows<LeadRow>(
      db,
      sql`select * from leads where ${where} order by created_at desc, id desc
          ${paged ? sql`limit ${query.limit} offset ${query.offset ?? 0}` : sql``}`,
    ),
    !paged
      ? null
      : pattern
        ? queryRows<{ n: number }>(db, sql`select count(*)::int as n from leads where ${where}`)
        : queryRows<{ n: number }>(
            db,
            sql`select coalesce(sum(n), 0)::int as n from agent_lead_counts
                where agent_id = ${agentId} ${status}`,
          ),
  ]);
  return { leads: rows.map(leadFromRow), total: total ? total[0].n : rows.length };
}

export interface StatusChange {
  lead: Lead;
  from: LeadStatus;
}

/**
 * Sets the status of a lead the agent holds and records the change in its history, in one
 * transaction (the row lock keeps the recorded 'from' exact under concurrent updates).
 * Null when the agent holds no such lead. A status equal to the current one changes nothing.
 */
export async function changeStatusOfAgentLead(
  db: Db,
  agentId: number,
  leadId: number,
  status: AgentSettableStatus,
): Promise<StatusChange | null> {
  return db.transaction(async (tx) => {
    const [current] = await tx
      .select()
      .from(leads)
      .where(and(eq(leads.id, leadId), eq(leads.agentId, agentId)))
      .for('update');
    if (!current) return null;
    if (current.status === status) return { lead: toLead(current), from: current.status };
    const [updated] = await tx
      .update(leads)
      .set({ status })
      .where(eq(leads.id, leadId))
      .returning();
    await tx.insert(leadHistory).values({
      leadId,
      kind: 'STATUS_CHANGED',
      actorId: agentId,
      agentId,
      fromStatus: current.status,
      toStatus: status,
    });
    return { lead: toLead(updated), from: current.status };
  });
}
