import { and, eq, sql } from 'drizzle-orm';
import type { Lead, LeadListQuery } from '../../../shared/contracts/leads';
import { type AgentSettableStatus, LEAD_STATUSES, type LeadStatus } from '../../../shared/domain';
import { type Db, enumLiteral, queryPreparedRows } from '../../db/client';
import { leadHistory, leads } from '../../db/schema';
import { leadsJsonPage, likePattern, toLead } from '../leads/admin-leads.repository';

/** One page of an agent's leads (or all of them), with how many match in all. */
export interface AgentLeadsPage {
  /** the page's leads as a JSON array (leadsJsonPage) */
  leadsJson: string;
  total: number;
}

/**
 * The agent's leads, newest first: one page (with the total) when the query has a limit, else
 * all of them. One statement: the page as JSON, and the total from the kept counts (or, for a
 * search, by counting).
 */
export async function listLeadsOfAgent(
  db: Db,
  agentId: number,
  query: LeadListQuery,
): Promise<AgentLeadsPage> {
  const status = query.status
    ? sql`and status = ${enumLiteral(query.status, LEAD_STATUSES)}`
    : sql``;
  const pattern = query.q ? likePattern(query.q) : null;
  const search = pattern
    ? sql`and (first_name ilike ${pattern} or last_name ilike ${pattern}
               or phone ilike ${pattern} or email ilike ${pattern})`
    : sql``;
  const where = sql`agent_id = ${agentId} ${status} ${search}`;
  const paged = query.limit !== undefined;
  const page = leadsJsonPage(
    sql`select * from leads where ${where} order by created_at desc, id desc
        ${paged ? sql`limit ${query.limit} offset ${query.offset ?? 0}` : sql``}`,
    sql`l.created_at desc, l.id desc`,
  );
  const total = !paged
    ? sql`page.n`
    : pattern
      ? sql`(select count(*)::int from leads where ${where})`
      : sql`(select coalesce(sum(n), 0)::int from agent_lead_counts
             where agent_id = ${agentId} ${status})`;
  const [row] = await queryPreparedRows<{ leads: string; total: number }>(
    db,
    sql`select page.leads, ${total} as total from ${page} page`,
  );
  return { leadsJson: row.leads, total: row.total };
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
