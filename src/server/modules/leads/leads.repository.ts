import { and, eq, sql } from 'drizzle-orm';
import type { AgentSettableStatus, LeadStatus } from '../../../shared/domain';
import type { Db } from '../../db/client';
import { leadHistory, leads } from '../../db/schema';

export type LeadRow = typeof leads.$inferSelect;

/**
 * The agent's lead, locked for update until the transaction ends (so a status change records
 * an exact 'from' under concurrent updates); null when the agent holds no such lead.
 */
export async function lockLeadOfAgent(
  tx: Db,
  agentId: number,
  leadId: number,
): Promise<LeadRow | null> {
  const [row] = await tx
    .select()
    .from(leads)
    .where(and(eq(leads.id, leadId), eq(leads.agentId, agentId)))
    .for('update');
  return row ?? null;
}

/** Sets a lead's status and records the change (who, from, to) in its history. */
export async function writeStatusChange(
  tx: Db,
  change: { leadId: number; agentId: number; from: LeadStatus; to: AgentSettableStatus },
): Promise<LeadRow> {
  const [updated] = await tx
    .update(leads)
    .set({ status: change.to, firstContactAt: sql`coalesce(${leads.firstContactAt}, now())` })
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
  await tx
    .update(leads)
    .set({ firstContactAt: sql`coalesce(${leads.firstContactAt}, ${at ?? sql`now()`})` })
    .where(eq(leads.id, leadId));
}
