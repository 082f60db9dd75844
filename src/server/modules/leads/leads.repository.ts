import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { leads } from '../../db/schema';

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
