/**
 * Reclaim (docs/domain.md, Agencies: reclaim; docs/decisions/028): an agency with
 * `reclaimAfterMinutes` takes back a lead its member has not worked within that many minutes of
 * the lead's calling window, and gives it to another member who fits it, at most twice a lead,
 * never after first contact.
 *
 * - At assignment: a `leadsAssigned` handler (events/handlers.ts) queues an `agency-reclaim` job
 *   (jobs/registry.ts) for each such lead, due when the minutes have passed, in the assignment's
 *   transaction: the job is as durable as the assignment.
 * - When the job runs it checks again (the lead worked, reassigned, returned or released, reclaim
 *   turned off: nothing; not due yet, the minutes changed: queued again for then) and moves the
 *   lead (lead-life's reclaimLead), emits `leadsAssigned` for the new member (bell, live event,
 *   delivery, follow-ups, and the next reclaim's job), and tells the first member and the owner.
 * - A sweeper queues a job for overdue leads that have none (assigned by a script, which has no
 *   queue).
 * No other member fits (or has quota left): the lead stays with its member, and this assignment
 * is not checked again.
 */
import { callingMinutesDueAt } from '../../../shared/calling-window';
import { leadName, leadPlace } from '../../../shared/format';
import type { AppConfig } from '../../config/env';
import type { Db } from '../../db/client';
import type { AssignedLeads, LeadEvents } from '../../events/lead-events';
import type { JobQueue } from '../../jobs/job-queue';
import { businessDate } from '../../lib/business-time';
import type { EmailSender } from '../../lib/email-sender';
import { lockQuotasShared } from '../assignment/quota.service';
import { fitLead } from '../fit/fit-rule.service';
import { fitSqlParams } from '../fit/fit-rule-sql.service';
import { MAX_RECLAIMS, reclaimLead } from '../leads/lead-life.service';
import { notifyLeadReclaimed } from '../notifications/notifications.service';
import {
  emailsOn,
  lockReclaimCheck,
  overdueReclaimable,
  pickMember,
  type ReclaimableLead,
  reclaimableOfLeadsSql,
  reclaimableOfRun,
} from './reclaim.repository';

/** What the reclaim needs from outside: the rule's configuration, the queue, the bus, email. */
export interface ReclaimPorts {
  config: Pick<AppConfig, 'BUSINESS_TZ' | 'ENROLLMENT_WINDOWS' | 'MAIL_FROM'>;
  queue: JobQueue;
  /** the bus the new member's assignment is announced on (set once the bus exists) */
  events: LeadEvents | null;
  email: EmailSender | null;
  /** the clock (tests move it); the queue's own due times are the database's */
  now?: () => Date;
}

/** The job of one assignment of one lead: at most one waits per key. */
export function reclaimJobKey(leadId: number, assignedAt: string, dueAt: Date): string {
  return `reclaim:${leadId}:${assignedAt}:${dueAt.toISOString()}`;
}

function dueOf(lead: Pick<ReclaimableLead, 'timeZone' | 'state' | 'assignedAt'>, minutes: number) {
  return callingMinutesDueAt(lead.timeZone, lead.state, new Date(lead.assignedAt), minutes);
}

async function enqueue(tx: Db, ports: ReclaimPorts, leads: ReclaimableLead[]): Promise<void> {
  if (leads.length === 0) return;
  await ports.queue.enqueue(
    tx,
    'agency-reclaim',
    leads.map((l) => {
      const dueAt = dueOf(l, l.minutes);
      return {
        data: { leadId: l.id, assignedAt: l.assignedAt },
        startAfter: dueAt,
        singletonKey: reclaimJobKey(l.id, l.assignedAt, dueAt),
      };
    }),
  );
}

export type { ReclaimableLead };

/**
 * The `leadsAssigned` handler's read for named leads (asked with the other handlers' reads):
 * those that went to members of agencies with reclaim on. Null for a run (the handler reads the
 * run's itself) and in a process without a queue (the sweeper of a process with one finds them).
 */
export function reclaimableRead(ports: ReclaimPorts, assigned: AssignedLeads) {
  if (!ports.queue.running || !('leadIds' in assigned) || assigned.leadIds.length === 0)
    return null;
  return reclaimableOfLeadsSql(assigned.leadIds);
}

/** The `leadsAssigned` handler: a job for each lead that went to a member of such an agency. */
export async function scheduleReclaims(
  tx: Db,
  ports: ReclaimPorts,
  assigned: AssignedLeads,
  read: ReclaimableLead[] | undefined,
): Promise<void> {
  if (!ports.queue.running) return; // the sweeper of a process with a queue will find them
  const leads = read ?? ('runId' in assigned ? await reclaimableOfRun(tx, assigned.runId) : []);
  await enqueue(tx, ports, leads);
}

export type ReclaimOutcome =
  | { done: 'RECLAIMED'; leadId: number; fromAgentId: number; toAgentId: number }
  | { done: 'NOT_DUE'; dueAt: Date }
  | { done: 'NOTHING'; why: string };

/** The `agency-reclaim` job: one lead, one assignment of it. */
export async function processReclaim(
  db: Db,
  ports: ReclaimPorts,
  job: { leadId: number; assignedAt: string },
): Promise<ReclaimOutcome> {
  const now = ports.now?.() ?? new Date();
  let notices: Notice[] = [];
  const outcome = await db.transaction(async (tx): Promise<ReclaimOutcome> => {
    // after a run in flight, never between its read of the quotas and its write
    await lockQuotasShared(tx);
    const lead = await lockReclaimCheck(tx, job.leadId);
    if (!lead) return { done: 'NOTHING', why: 'no such lead' };
    if (lead.assignedAt !== job.assignedAt || lead.agencyId === null)
      return { done: 'NOTHING', why: 'reassigned, returned or released since' };
    if (lead.status !== 'ASSIGNED' || lead.contacted) return { done: 'NOTHING', why: 'worked' };
    if (lead.returnPending) return { done: 'NOTHING', why: 'a return is pending' };
    if (lead.reclaims >= MAX_RECLAIMS) return { done: 'NOTHING', why: 'reclaimed twice' };
    if (lead.minutes === null) return { done: 'NOTHING', why: 'reclaim is off' };
    const dueAt = dueOf(lead, lead.minutes);
    if (now.getTime() < dueAt.getTime()) {
      // not yet (the agency gave more minutes since): again when it is due
      await ports.queue.enqueue(tx, 'agency-reclaim', [
        {
          data: job,
          startAfter: dueAt,
          singletonKey: reclaimJobKey(lead.id, lead.assignedAt, dueAt),
        },
      ]);
      return { done: 'NOT_DUE', dueAt };
    }
    const day = businessDate(ports.config.BUSINESS_TZ, now);
    const ctx = { now, businessDate: day, windows: ports.config.ENROLLMENT_WINDOWS };
    const member = await pickMember(tx, {
      fit: fitSqlParams(fitLead(lead), ctx),
      agencyId: lead.agencyId,
      exclude: lead.agentId,
      businessDate: day,
      // the lead counts for the agency already today unless it was assigned on another day
      needsCapRoom: lead.assignedOn !== day,
    });
    if (!member) return { done: 'NOTHING', why: 'no other member fits' };
    const moved = await reclaimLead(tx, {
      leadId: lead.id,
      fromAgentId: lead.agentId,
      assignedAt: lead.assignedAt,
      toAgentId: member.id,
      assignedOn: day,
      at: now,
    });
    if (!moved) return { done: 'NOTHING', why: 'moved meanwhile' };
    // the new member: bell, live event, delivery, follow-ups and the next reclaim's job
    await ports.events?.emit(tx, 'leadsAssigned', { leadIds: [lead.id] });
    const named = `${leadName(lead)} (${leadPlace(lead)})`;
    const minutes = `${lead.minutes} minutes`;
    const member_ = {
      title: 'Lead reclaimed by your agency',
      body: `${named} was not worked within ${minutes} of its calling hours and went to another member.`,
    };
    const owner = {
      title: 'Lead reclaimed',
      body: `${named} was not worked within ${minutes} and was given to another member.`,
    };
    await notifyLeadReclaimed(tx, {
      leadId: lead.id,
      fromAgentId: lead.agentId,
      ownerId: lead.ownerId,
      member: member_,
      owner,
    });
    // each by email what their bell says (the owner who held the lead: as its member)
    notices = [
      { to: lead.agentId, subject: member_.title, text: member_.body },
      ...(lead.ownerId !== null && lead.ownerId !== lead.agentId
        ? [{ to: lead.ownerId, subject: owner.title, text: owner.body }]
        : []),
    ];
    return { done: 'RECLAIMED', leadId: lead.id, fromAgentId: lead.agentId, toAgentId: member.id };
  });
  if (notices.length > 0 && ports.email) await emailNotices(db, ports, ports.email, notices);
  return outcome;
}

/** A reclaim's notice to one user: the first member's or the owner's. */
type Notice = { to: number; subject: string; text: string };

/** After the commit: the first member's and the owner's email, where their settings say so. */
async function emailNotices(
  db: Db,
  ports: ReclaimPorts,
  email: EmailSender,
  notices: Notice[],
): Promise<void> {
  const users = await emailsOn(
    db,
    notices.map((n) => n.to),
  );
  for (const user of users) {
    const notice = notices.find((n) => n.to === user.id);
    if (!notice) continue;
    // a notice that cannot be sent is not worth failing the reclaim for (the bell has it)
    await email
      .send({
        from: ports.config.MAIL_FROM,
        to: user.email,
        subject: notice.subject,
        text: `Hello ${user.name},\n\n${notice.text}`,
      })
      .catch(() => null);
  }
}

/** The sweeper: overdue leads with no job (assigned without a queue) get one. */
export async function sweepOverdueReclaims(db: Db, ports: ReclaimPorts): Promise<number> {
  if (!ports.queue.running) return 0;
  const now = ports.now?.() ?? new Date();
  const overdue = await overdueReclaimable(db, now, 500);
  const missing: ReclaimableLead[] = [];
  for (const lead of overdue) {
    const key = reclaimJobKey(lead.id, lead.assignedAt, dueOf(lead, lead.minutes));
    if (!(await ports.queue.hasJob('agency-reclaim', key))) missing.push(lead);
  }
  await db.transaction((tx) => enqueue(tx, ports, missing));
  return missing.length;
}
