import { and, eq, isNull, sql } from 'drizzle-orm';
import type { LeadStatus, UserRole } from '../../../shared/domain';
import type { Db } from '../../db/client';
import { leadHistory, leads, users } from '../../db/schema';

export type LeadRow = typeof leads.$inferSelect;

export async function findUserRole(db: Db, userId: number): Promise<UserRole | null> {
  const [row] = await db
    .select({ role: users.role })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return row?.role ?? null;
}

/**
 * Hands a lead to an agent by the one conditional UPDATE (only while it is NEW and has no agent)
 * and records it in the lead's history; null when the lead was not NEW (or does not exist).
 */
export async function assignNewLead(
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
  return row;
}

export async function findLeadStatus(db: Db, leadId: number): Promise<LeadStatus | null> {
  const [row] = await db
    .select({ status: leads.status })
    .from(leads)
    .where(eq(leads.id, leadId))
    .limit(1);
  return row?.status ?? null;
}
