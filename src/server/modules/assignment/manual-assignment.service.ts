import type { Lead } from '../../../shared/contracts/leads';
import type { Db } from '../../db/client';
import type { LeadEvents } from '../../events/lead-events';
import { badRequest, conflict, notFound } from '../../lib/app-error';
import { businessDate } from '../../lib/business-time';
import { assignNewLeadByHand } from '../leads/lead-life.service';
import { leadAnswer } from '../leads/leads.service';
import { findLeadStatus, findUserRole } from './manual-assignment.repository';
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
export async function assignLeadManually(
  db: Db,
  events: LeadEvents,
  input: ManualAssignment,
): Promise<Lead> {
  const agent = await findUserRole(db, input.agentId);
  if (!agent) throw notFound('Agent');
  if (agent.role !== 'AGENT') throw badRequest('Leads can only be assigned to agents');
  // docs/domain.md, Accounts: an agent an admin has not approved receives no lead
  if (agent.approval !== 'APPROVED') throw badRequest('This agent is not approved yet');

  const assignedOn = businessDate(input.timeZone);
  const updated = await db.transaction(async (tx) => {
    // after a run in flight, never between its read of the quotas and its write
    await lockQuotasShared(tx);
    const row = await assignNewLeadByHand(tx, { ...input, assignedOn });
    // leadsAssigned: notifications, deliveries, follow-ups, in this transaction
    if (row) await events.emit(tx, 'leadsAssigned', { leadIds: [row.id] });
    return row;
  });
  if (updated) return leadAnswer(updated);

  const status = await findLeadStatus(db, input.leadId);
  if (!status) throw notFound('Lead');
  throw conflict(
    `This lead is no longer available (its status is ${status}); only NEW leads can be assigned`,
  );
}
