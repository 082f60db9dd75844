/**
 * Returns and credits (docs/domain.md, Returns and credits; decision 019): the agent
 * asks within the window, an admin decides, an approval credits the quota and runs the engine
 * (trigger RETURN) so the agent gets a replacement at once. Every step is in lead_history.
 */
import type {
  AdminReturn,
  AdminReturnList,
  LeadReturn,
  ReturnRequest,
} from '../../../shared/contracts/returns';
import type { ReturnStatus } from '../../../shared/domain';
import { returnReasonLabel } from '../../../shared/format';
import type { AppConfig } from '../../config/env';
import type { Db } from '../../db/client';
import type { LeadEvents } from '../../events/lead-events';
import { AppError, notFound } from '../../lib/app-error';
import type { EmailSender } from '../../lib/email-sender';
import { runAssignment } from '../assignment/run-assignment.service';
import { recordReturnDenied, recordReturnRequested, returnLead } from '../leads/lead-life.service';
import { notifyReturnDecided } from '../notifications/notifications.service';
import {
  countPending,
  findQueueRow,
  insertReturn,
  isOwnLead,
  latestReturn,
  listReturns,
  lockAgentReturns,
  lockOwnLead,
  lockReturn,
  type QueueRow,
  type ReturnRow,
  recordDecision,
  returnFigures,
} from './returns.repository';

/** The return-rate cap: over the agent's last RATE_DAYS days, at most MAX_RATE returned. */
export const RATE_DAYS = 14;
export const MAX_RATE = 0.3;

export type ReturnsConfig = Pick<
  AppConfig,
  'RETURN_WINDOW_DAYS' | 'BUSINESS_TZ' | 'ENROLLMENT_WINDOWS' | 'MAIL_FROM'
>;

const iso = (v: Date | string | null) => (v === null ? null : new Date(v).toISOString());

function toLeadReturn(row: ReturnRow): LeadReturn {
  return {
    id: row.id,
    leadId: row.leadId,
    reason: row.reason,
    note: row.note,
    status: row.status,
    decisionNote: row.decisionNote,
    decidedAt: iso(row.decidedAt),
    createdAt: new Date(row.createdAt).toISOString(),
  };
}

const conflict = (message: string) => new AppError('CONFLICT', message);

/**
 * The agent's request. Refused (409, in words) for a CONVERTED lead, a lead already returned or
 * with a pending return, past the window, or above the rate cap; another agent's lead is a 404.
 */
export async function requestReturn(
  db: Db,
  config: ReturnsConfig,
  agentId: number,
  leadId: number,
  body: ReturnRequest,
): Promise<LeadReturn> {
  return db.transaction(async (tx) => {
    await lockAgentReturns(tx, agentId);
    const lead = await lockOwnLead(tx, leadId, agentId);
    if (!lead) throw notFound('Lead');
    // a sale is final: setting the lead back to another status does not make it returnable
    if (lead.status === 'CONVERTED' || lead.everConverted)
      throw conflict('A converted lead cannot be returned.');
    const last = await latestReturn(tx, leadId);
    if (lead.returnedAt !== null || last?.status === 'APPROVED') {
      throw conflict('This lead has already been returned.');
    }
    if (last?.status === 'PENDING')
      throw conflict('This lead already has a return waiting for a decision.');
    const days = config.RETURN_WINDOW_DAYS;
    const assignedAt = lead.assignedAt === null ? null : new Date(lead.assignedAt);
    if (assignedAt === null || Date.now() - assignedAt.getTime() > days * 86_400_000) {
      throw conflict(
        `The return window has closed: leads can be returned within ${days} days of assignment.`,
      );
    }
    const { assigned, returns } = await returnFigures(tx, agentId, RATE_DAYS);
    // the first return of the period is always allowed; after it, this one must keep the rate at or under 30%
    const rate = assigned === 0 ? 1 : (returns + 1) / assigned;
    if (returns >= 1 && rate > MAX_RATE) {
      throw conflict(
        `Returning this lead would make ${returns + 1} returns out of ${assigned} leads in the last ${RATE_DAYS} days (${Math.round(rate * 100)}%); the limit is ${Math.round(MAX_RATE * 100)}%.`,
      );
    }
    const row = await insertReturn(tx, {
      leadId,
      agentId,
      reason: body.reason,
      note: body.note?.trim() || null,
    });
    await recordReturnRequested(tx, { leadId, agentId, status: lead.status });
    return toLeadReturn(row);
  });
}

/** The lead's latest return for its agent (the drawer shows its state). */
export async function returnOfLead(
  db: Db,
  agentId: number,
  leadId: number,
): Promise<{ return: LeadReturn | null }> {
  if (!(await isOwnLead(db, leadId, agentId))) throw notFound('Lead');
  const row = await latestReturn(db, leadId, agentId);
  return { return: row ? toLeadReturn(row) : null };
}

function toAdminReturn(row: QueueRow): AdminReturn {
  return {
    ...toLeadReturn(row),
    lead: {
      name: row.leadName,
      phone: row.leadPhone,
      city: row.leadCity,
      state: row.leadState,
      category: row.leadCategory,
      status: row.leadStatus,
      assignedAt: iso(row.leadAssignedAt),
    },
    agent: { id: row.agentId, name: row.agentName, email: row.agentEmail },
    decidedBy: row.decidedBy,
    ageHours: row.ageHours,
  };
}

export async function returnsQueue(
  db: Db,
  status: ReturnStatus,
  limit: number,
): Promise<AdminReturnList> {
  const [rows, pending] = await Promise.all([listReturns(db, status, limit), countPending(db)]);
  return { items: rows.map(toAdminReturn), pending };
}

export interface DecisionOutcome {
  decided: AdminReturn;
  /** the replacement run's error, if it failed (the decision stands) */
  runError: string | null;
}

/**
 * An admin's decision on a PENDING return. Approved: the lead INVALID and returned, the quota
 * credited, then the engine runs (trigger RETURN) so the agent gets a replacement at once. The
 * agent is told in the bell, and by email where SMTP is configured.
 */
export async function decideReturn(
  db: Db,
  config: ReturnsConfig,
  ports: { events: LeadEvents; email: EmailSender | null },
  adminId: number,
  returnId: number,
  decision: { approve: boolean; note?: string | null },
): Promise<DecisionOutcome> {
  const { events } = ports;
  const note = decision.note?.trim() || null;
  await db.transaction(async (tx) => {
    const found = await lockReturn(tx, returnId);
    if (!found) throw notFound('Return');
    if (found.status !== 'PENDING')
      throw conflict(`This return was already ${found.status.toLowerCase()}.`);
    const who = { leadId: found.leadId, agentId: found.agentId, adminId };
    if (decision.approve) {
      if (!(await returnLead(tx, who))) {
        throw conflict(
          'The agent converted this lead since asking: it cannot be approved; deny it.',
        );
      }
    } else await recordReturnDenied(tx, who);
    await recordDecision(tx, { returnId, approve: decision.approve, note, adminId });
    const row = await findQueueRow(tx, returnId);
    const verdict = decision.approve ? 'approved' : 'denied';
    await notifyReturnDecided(tx, {
      agentId: found.agentId,
      leadId: found.leadId,
      title: `Return ${verdict}: ${row?.leadName ?? 'Unnamed lead'}`,
      body: note ?? (decision.approve ? 'A replacement lead is on its way.' : null),
    });
  });
  let runError: string | null = null;
  if (decision.approve) {
    const run = await runAssignment(db, config, { trigger: 'RETURN', events });
    runError = run?.error ?? null;
  }
  const row = await findQueueRow(db, returnId);
  if (!row) throw notFound('Return');
  if (ports.email) await emailDecision(config, ports.email, row);
  return { decided: toAdminReturn(row), runError };
}

async function emailDecision(
  config: ReturnsConfig,
  email: EmailSender,
  row: QueueRow,
): Promise<void> {
  const approved = row.status === 'APPROVED';
  const lines = [
    `Your return of ${row.leadName} (${returnReasonLabel(row.reason)}) was ${approved ? 'approved' : 'denied'}.`,
    approved
      ? 'The lead no longer counts against your quota; a replacement is assigned when one fits.'
      : 'The lead stays in My Leads.',
  ];
  if (row.decisionNote) lines.push('', `Note: ${row.decisionNote}`);
  // best effort: the decision stands when SMTP refuses the notice (the bell has it)
  await email
    .send({
      from: config.MAIL_FROM,
      to: row.agentEmail,
      subject: `Return ${approved ? 'approved' : 'denied'}: ${row.leadName}`,
      text: lines.join('\n'),
    })
    .catch(() => null);
}

export { forgetReturnNotes } from './returns.repository';
