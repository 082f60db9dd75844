/**
 * What an agency's members see of one another and of the agency's leads (docs/domain.md,
 * Agencies, "Who sees what"): the members' table, the book of business, and moving a lead from
 * one member to another who fits it.
 */
import type { AgencyLead, AgencyLeadPage, AgencyMember } from '../../../shared/contracts/agency';
import { MISFIT_LABELS, MISFIT_REASONS } from '../../../shared/contracts/explanation';
import { REASSIGNABLE_STATUSES, type ReassignableStatus } from '../../../shared/domain';
import { leadName, leadPlace } from '../../../shared/format';
import type { EnrollmentWindows } from '../../config/env';
import type { Db } from '../../db/client';
import type { LeadEvents } from '../../events/lead-events';
import { AppError, conflict, notFound } from '../../lib/app-error';
import { businessDate } from '../../lib/business-time';
import { lockQuotasShared } from '../assignment/quota.service';
import { fitLead } from '../fit/fit-rule.service';
import { fitSqlParams } from '../fit/fit-rule-sql.service';
import { reassignLead } from '../leads/lead-life.service';
import { notifyLeadReassignedAway } from '../notifications/notifications.service';
import { memberInScope, membershipOf } from './agencies.service';
import {
  type BookQuery,
  findBookLead,
  findLeadInScope,
  firstMisfitOfMember,
  listBook,
  listMembers,
} from './agency-book.repository';

/** The members the caller sees, with their figures. */
export async function agencyMembers(
  db: Db,
  timeZone: string,
  userId: number,
): Promise<AgencyMember[]> {
  const me = await membershipOf(db, userId);
  return listMembers(db, me, businessDate(timeZone));
}

/** One member's row, in the caller's scope (404 otherwise). */
export async function agencyMember(
  db: Db,
  timeZone: string,
  userId: number,
  memberId: number,
): Promise<AgencyMember> {
  const me = await membershipOf(db, userId);
  const [row] = await listMembers(db, me, businessDate(timeZone), memberId);
  if (!row) throw notFound('Member');
  return row;
}

/**
 * One member's row as the owner sees it (after the owner changed it: a hand-over leaves the
 * caller a manager who may no longer see the new owner).
 */
export async function agencyMemberAsOwner(
  db: Db,
  timeZone: string,
  agencyId: number,
  memberId: number,
): Promise<AgencyMember> {
  const owner = { userId: 0, agencyId, role: 'OWNER' as const, managerId: null };
  const [row] = await listMembers(db, owner, businessDate(timeZone), memberId);
  if (!row) throw notFound('Member');
  return row;
}

/** A page of the agency's book in the caller's scope; a member out of scope is a 404. */
export async function agencyBook(
  db: Db,
  userId: number,
  query: BookQuery,
): Promise<AgencyLeadPage> {
  const me = await membershipOf(db, userId);
  if (query.memberId !== undefined) await memberInScope(db, me, query.memberId);
  return listBook(db, me, query);
}

const isReassignable = (status: string): status is ReassignableStatus =>
  (REASSIGNABLE_STATUSES as readonly string[]).includes(status);

/**
 * The OWNER or a MANAGER moves a lead of the book that a member in their scope is working to
 * another member in scope who fits it (the fit rule, quota aside, as an admin's reassignment):
 * 409 with the first reason they do not. Another agency's lead or member, or one out of scope,
 * is a 404. Through the lead's life (REASSIGNED, naming who did it), with the usual delivery to
 * the new member and a bell notice to the one it leaves.
 */
export async function reassignAgencyLead(
  db: Db,
  events: LeadEvents,
  config: { timeZone: string; windows: EnrollmentWindows },
  userId: number,
  leadId: number,
  toUserId: number,
): Promise<AgencyLead> {
  const me = await membershipOf(db, userId);
  if (me.role === 'AGENT') {
    throw new AppError('FORBIDDEN', "Only the agency's owner or a manager can reassign leads");
  }
  const lead = await findLeadInScope(db, me, leadId);
  if (!lead) throw notFound('Lead');
  await memberInScope(db, me, toUserId);
  if (lead.agentId === null || !isReassignable(lead.status)) {
    throw conflict(
      `Only a lead a member is working can be reassigned (its status is ${lead.status})`,
    );
  }
  if (lead.agentId === toUserId) throw conflict('This lead is already with this member');
  if (lead.returnPending) {
    throw conflict('A return of this lead is pending: it cannot be reassigned until it is decided');
  }
  const now = new Date();
  const ctx = { now, businessDate: businessDate(config.timeZone, now), windows: config.windows };
  const misfit = await firstMisfitOfMember(db, toUserId, fitSqlParams(fitLead(lead), ctx));
  if (misfit !== null) {
    throw conflict(`This member does not fit this lead: ${MISFIT_LABELS[MISFIT_REASONS[misfit]]}`);
  }
  const fromAgentId = lead.agentId;
  const moved = await db.transaction(async (tx) => {
    await lockQuotasShared(tx);
    const row = await reassignLead(tx, {
      leadId,
      fromAgentId,
      toAgentId: toUserId,
      actorId: userId,
      assignedOn: ctx.businessDate,
    });
    if (!row) return null;
    await events.emit(tx, 'leadsAssigned', { leadIds: [row.id] });
    await notifyLeadReassignedAway(tx, {
      agentId: fromAgentId,
      title: 'Lead reassigned',
      body: `${leadName(lead)} (${leadPlace(lead)}) was reassigned to another member of your agency.`,
    });
    return row;
  });
  if (!moved) throw conflict('This lead changed meanwhile; reload it and try again');
  const answer = await findBookLead(db, leadId);
  if (!answer) throw notFound('Lead');
  return answer;
}
