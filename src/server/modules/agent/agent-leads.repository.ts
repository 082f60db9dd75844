import { and, desc, eq } from 'drizzle-orm';
import type { Lead } from '../../../shared/contracts/leads';
import type { AgentSettableStatus, LeadStatus } from '../../../shared/domain';
import type { Db } from '../../db/client';
import { leadHistory, leads } from '../../db/schema';

type LeadRow = typeof leads.$inferSelect;

export function toLead(row: LeadRow): Lead {
  return {
    id: row.id,
    firstName: row.firstName,
    lastName: row.lastName,
    phone: row.phone,
    email: row.email,
    city: row.city,
    state: row.state,
    age: row.age,
    category: row.category,
    status: row.status,
    externalId: row.externalId,
    agentId: row.agentId,
    assignedAt: row.assignedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

/** An agent's own leads, newest first (the leads_agent_idx order). */
export async function listLeadsOfAgent(
  db: Db,
  agentId: number,
  status?: LeadStatus,
): Promise<Lead[]> {
  const rows = await db
    .select()
    .from(leads)
    .where(and(eq(leads.agentId, agentId), status ? eq(leads.status, status) : undefined))
    .orderBy(desc(leads.createdAt), desc(leads.id));
  return rows.map(toLead);
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
