import { MISFIT_LABELS, MISFIT_REASONS } from '../../../shared/contracts/explanation';
import type { Lead } from '../../../shared/contracts/leads';
import { REASSIGNABLE_STATUSES, type ReassignableStatus } from '../../../shared/domain';
import { leadName, leadPlace } from '../../../shared/format';
import type { EnrollmentWindows } from '../../config/env';
import type { Db } from '../../db/client';
import type { LeadEvents } from '../../events/lead-events';
import { badRequest, conflict, notFound } from '../../lib/app-error';
import { businessDate } from '../../lib/business-time';
import { fitLead } from '../fit/fit-rule.service';
import { fitSqlParams } from '../fit/fit-rule-sql.service';
import { assignNewLeadByHand, reassignLead } from '../leads/lead-life.service';
import { leadAnswer } from '../leads/leads.service';
import { notifyLeadReassignedAway } from '../notifications/notifications.service';
import {
  findLeadStatus,
  findLeadToAssign,
  findUserRole,
  firstMisfitOfAgent,
  type LeadToAssign,
} from './manual-assignment.repository';
import { lockQuotasShared } from './quota-lock';

export interface ManualAssignment {
  leadId: number;
  agentId: number;
  /** who the admin saw holding the lead (null: nobody); undefined: not said */
  fromAgentId?: number | null;
  /** the admin who assigns */
  actorId: number;
  timeZone: string;
  windows: EnrollmentWindows;
}

const isReassignable = (status: string): status is ReassignableStatus =>
  (REASSIGNABLE_STATUSES as readonly string[]).includes(status);

/**
 * An admin hands a lead to an agent (docs/domain.md, Assignment, "By hand"). A NEW lead goes to
 * any agent whose account is enabled (the dialog warns of the rest of the fit rule); a lead being
 * worked (REASSIGNABLE_STATUSES) is reassigned, to another agent who fits it. A disabled agent
 * gets no lead either way (409).
 */
export async function assignLeadManually(
  db: Db,
  events: LeadEvents,
  input: ManualAssignment,
): Promise<Lead> {
  const agent = await findUserRole(db, input.agentId);
  if (!agent) throw notFound('Agent');
  if (agent.role !== 'AGENT') throw badRequest('Leads can only be assigned to agents');
  if (agent.disabled) throw conflict(`${agent.name}'s account is disabled`);
  // docs/domain.md, Accounts: an agent an admin has not approved receives no lead
  if (agent.approval !== 'APPROVED') throw badRequest('This agent is not approved yet');

  const lead = await findLeadToAssign(db, input.leadId);
  if (!lead) throw notFound('Lead');
  // the admin assigns a NEW lead: taken meanwhile, it is a 409 (never reassigned by surprise)
  if (input.fromAgentId === null) return assignNew(db, events, input);
  if (input.fromAgentId !== undefined && input.fromAgentId !== lead.agentId) {
    throw conflict('This lead has moved since you looked; reload it and try again');
  }
  if (lead.agentId !== null && isReassignable(lead.status)) {
    return reassign(db, events, input, { ...lead, agentId: lead.agentId });
  }
  return assignNew(db, events, input);
}

/**
 * A NEW lead, by one conditional UPDATE, so a run or another admin that took it first wins and
 * this call answers 409 without changing anything. The admin may exceed the agent's quota: the
 * dialog shows it. It waits for an assignment run in flight (shared quota lock), so a run always
 * counts the manual assignments committed before it and never fills a place one of them has just
 * taken.
 */
async function assignNew(db: Db, events: LeadEvents, input: ManualAssignment): Promise<Lead> {
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
  throw conflict(`This lead is no longer available (its status is ${status})`);
}

/**
 * A lead being worked moves to another agent who fits it (the fit rule, quota aside: an admin may
 * go over a quota), unless a return of it waits for a decision. The new agent receives it as a
 * fresh ASSIGNED lead through the usual delivery (leadsAssigned: bell, live event, email, webhook,
 * follow-ups) and it counts against their quota today, as any assignment by hand; the agent it
 * leaves is told in the bell and no longer sees it.
 */
async function reassign(
  db: Db,
  events: LeadEvents,
  input: ManualAssignment,
  lead: LeadToAssign & { agentId: number },
): Promise<Lead> {
  if (lead.agentId === input.agentId) throw conflict('This lead is already with this agent');
  if (lead.returnPending) {
    throw conflict('A return of this lead is pending; decide it before reassigning the lead');
  }
  const now = new Date();
  const ctx = { now, businessDate: businessDate(input.timeZone, now), windows: input.windows };
  const misfit = await firstMisfitOfAgent(db, input.agentId, fitSqlParams(fitLead(lead), ctx));
  if (misfit !== null) {
    throw conflict(`This agent does not fit this lead: ${MISFIT_LABELS[MISFIT_REASONS[misfit]]}`);
  }
  const updated = await db.transaction(async (tx) => {
    await lockQuotasShared(tx);
    const row = await reassignLead(tx, {
      leadId: input.leadId,
      fromAgentId: lead.agentId,
      toAgentId: input.agentId,
      actorId: input.actorId,
      assignedOn: ctx.businessDate,
    });
    if (!row) return null;
    await events.emit(tx, 'leadsAssigned', { leadIds: [row.id] });
    await notifyLeadReassignedAway(tx, {
      agentId: lead.agentId,
      title: 'Lead reassigned',
      body: `${leadName(lead)} (${leadPlace(lead)}) was reassigned to another agent by an admin.`,
    });
    return row;
  });
  if (!updated) throw conflict('This lead changed meanwhile; reload it and try again');
  return leadAnswer(updated);
}
