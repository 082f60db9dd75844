import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Lead } from '../../../shared/contracts/leads';
import type { Db } from '../../db/client';
import { leadHistory, leads, users } from '../../db/schema';
import { badRequest, conflict, notFound } from '../../lib/app-error';
import { businessDate } from '../../lib/business-time';
import { toLead } from '../leads/lead-search.repository';
import { lockQuotasShared } from './quota-lock';

export interface ManualAssignment {
  leadId: number;
  agentId: number;
  /** the admin who assigns */
  actorId: number;
  timeZone: string;
}

/**
 * An admin hands a NEW lead to an agent. The lead changes hands only through one conditional
 * UPDATE, so a run or another admin that took it first wins and this call answers 409 without
 * changing anything. The admin may exceed the agent's quota: the dialog shows it. It waits for an
 * assignment run in flight (shared quota lock), so a run always counts the manual assignments
 * committed before it and never fills a place one of them has just taken.
 */
export async function assignLeadManually(db: Db, input: ManualAssignment): Promise<Lead> {
  const [agent] = await db
    .select({ id: users.id, role: users.role })
    .from(users)
    .where(eq(users.id, input.agentId))
    .limit(1);
  if (!agent) throw notFound('Agent');
  if (agent.role !== 'AGENT') throw badRequest('Leads can only be assigned to agents');

  const assignedOn = businessDate(input.timeZone);
  const updated = await db.transaction(async (tx) => {
    // after a run in flight, never between its read of the quotas and its write
    await lockQuotasShared(tx);
    const [row] = await tx
      .update(leads)
      .set({
        status: 'ASSIGNED',
        agentId: input.agentId,
        assignedAt: sql`now()`,
        assignedOn,
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
  });
  if (updated) return toLead(updated);

  const [existing] = await db
    .select({ status: leads.status })
    .from(leads)
    .where(eq(leads.id, input.leadId))
    .limit(1);
  if (!existing) throw notFound('Lead');
  throw conflict(
    `This lead is no longer available (its status is ${existing.status}); only NEW leads can be assigned`,
  );
}
