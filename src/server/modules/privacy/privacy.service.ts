/**
 * Consumer deletion and the retention limit (docs/domain.md, Consumer deletion and retention;
 * decision 038). A deletion anonymizes every lead of the consumer's phone or email in one
 * transaction (each owning module removes its part), keeps only keyed hashes of the contact, which
 * refuse the consumer at import and intake, and leaves tasks for what lies outside the database:
 * a signed `lead.deleted` event to each CRM that received one of the leads, and each call
 * recording removed at the provider. Tasks are jobs, tried until done, and swept when a job is
 * lost. LEAD_RETENTION_DAYS anonymizes older leads the same way, daily, without the hashes or
 * the CRM events.
 */
import type {
  PrivacyDeletion,
  PrivacyDeletionBody,
  PrivacyDeletionList,
  PrivacyDeletionsQuery,
} from '../../../shared/contracts/privacy';
import type { PrivacyTaskKind, PrivacyTaskStatus } from '../../../shared/domain';
import { toE164 } from '../../../shared/phone';
import type { Db } from '../../db/client';
import { badField } from '../../lib/app-error';
import { forgetRecordings, removeRecordingAtProvider } from '../calls/calls.service';
import {
  crmRecipients,
  type DeliveryPorts,
  sendLeadsDeleted,
  skipLeadDeliveries,
} from '../delivery/deliveries.service';
import { forgetLeadMessages } from '../follow-ups/follow-ups.service';
import { lockContacts } from '../intake/intake.service';
import {
  anonymizeLeads,
  consumerLeadIds,
  leadIdsReceivedBefore,
} from '../leads/lead-privacy.service';
import { forgetLeadNotifications } from '../notifications/notifications.service';
import { forgetReturnNotes } from '../returns/returns.service';
import {
  ensurePrivacyKey,
  insertDeletion,
  insertTasks,
  listDeletions,
  type NewTask,
  overdueTasks,
  pendingTask,
  postponeTask,
  settleTask,
  suppressContacts,
  type TaskRow,
} from './privacy.repository';

/** What the privacy module is given: delivery's ports (the config, the queue, the webhook connections). */
export type PrivacyPorts = DeliveryPorts;

/** A task is tried this many times, waiting longer each time (30 s doubled, at most an hour). */
export const TASK_ATTEMPTS = 8;
const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The contact as leads keep it: the phone in E.164, the email lowercased (400 when not one). */
export function consumerContact(body: PrivacyDeletionBody): {
  phone: string | null;
  email: string | null;
} {
  let phone: string | null = null;
  let email: string | null = null;
  if (body.phone) {
    phone = toE164(body.phone);
    if (!phone) throw badField('phone', `Not a phone number: ${body.phone.slice(0, 40)}`);
  }
  if (body.email) {
    if (!EMAIL_RE.test(body.email)) throw badField('email', 'Not an email address');
    email = body.email.toLowerCase();
  }
  if (!phone && !email) throw badField('phone', 'Give the consumer’s phone, email or both');
  return { phone, email };
}

/**
 * Removes the consumer's data from every module, in the caller's transaction: the leads, their
 * messages, bell entries, return notes and waiting deliveries, and the calls' recordings, which
 * are answered as tasks to remove them at the provider.
 */
async function forgetLeads(
  tx: Db,
  ids: number[],
): Promise<{ anonymized: number; recordings: string[] }> {
  const anonymized = await anonymizeLeads(tx, ids);
  const recordings = await forgetRecordings(tx, ids);
  await forgetLeadMessages(tx, ids);
  await forgetLeadNotifications(tx, ids);
  await forgetReturnNotes(tx, ids);
  await skipLeadDeliveries(tx, ids);
  return { anonymized, recordings };
}

const recordingTasks = (sids: string[]): NewTask[] =>
  sids.map((recordingSid) => ({ kind: 'RECORDING', recordingSid }));

async function enqueueTasks(tx: Db, ports: PrivacyPorts, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  await ports.queue.enqueue(
    tx,
    'privacy-task',
    ids.map((taskId) => ({ data: { taskId }, singletonKey: `privacy-task:${taskId}:0` })),
  );
}

/** A consumer's deletion request, by an admin. Answers the request as the list shows it. */
export async function requestDeletion(
  db: Db,
  ports: PrivacyPorts,
  requestedBy: number,
  body: PrivacyDeletionBody,
): Promise<PrivacyDeletion> {
  const contact = consumerContact(body);
  const id = await db.transaction(async (tx) => {
    // an intake request holding the same phone or email finishes first (its lead is then found
    // here), and one that comes after waits for this commit (and finds the hash)
    await lockContacts(tx, contact);
    const key = await ensurePrivacyKey(tx);
    const leadIds = await consumerLeadIds(tx, contact);
    const recipients = await crmRecipients(tx, leadIds);
    const { anonymized, recordings } = await forgetLeads(tx, leadIds);
    const deletion = await insertDeletion(tx, {
      requestedBy,
      byPhone: contact.phone !== null,
      byEmail: contact.email !== null,
      leads: anonymized,
    });
    await suppressContacts(tx, deletion.id, key, contact);
    const taskIds = await insertTasks(tx, deletion.id, [
      ...recipients.map(
        (r): NewTask => ({ kind: 'WEBHOOK', agentId: r.agentId, leadIds: r.leadIds }),
      ),
      ...recordingTasks(recordings),
    ]);
    await enqueueTasks(tx, ports, taskIds);
    return deletion.id;
  });
  const { items } = await listPrivacyDeletions(db, { limit: 1, offset: 0 }, id);
  return items[0] as PrivacyDeletion;
}

const NO_TASKS = () => ({ done: 0, pending: 0, failed: 0, skipped: 0 });

function taskCounts(tasks: { kind: PrivacyTaskKind; status: PrivacyTaskStatus; n: number }[]) {
  const out = { WEBHOOK: NO_TASKS(), RECORDING: NO_TASKS() };
  for (const t of tasks) {
    const counts = out[t.kind];
    counts[t.status.toLowerCase() as keyof typeof counts] += t.n;
  }
  return out;
}

/** The requests, newest first (or the one named), with how far their tasks have come. */
export async function listPrivacyDeletions(
  db: Db,
  query: PrivacyDeletionsQuery,
  onlyId?: number,
): Promise<PrivacyDeletionList> {
  const { total, rows } = await listDeletions(db, query, onlyId);
  return {
    total,
    items: rows.map((r) => {
      const counts = taskCounts(r.tasks);
      return {
        id: r.id,
        createdAt: r.createdAt,
        requestedBy:
          r.requestedById !== null ? { id: r.requestedById, name: r.requestedByName ?? '' } : null,
        byPhone: r.byPhone,
        byEmail: r.byEmail,
        leads: r.leads,
        webhooks: counts.WEBHOOK,
        recordings: counts.RECORDING,
      };
    }),
  };
}

const retryDelayMs = (attempts: number) => Math.min(30_000 * 2 ** attempts, 3_600_000);

/**
 * One task, by its job: the CRM's `lead.deleted` events, or a recording removed at the provider.
 * A failure worth trying again waits (30 s doubled each time) as a new job; after TASK_ATTEMPTS,
 * or a final refusal, the task is FAILED, and the admin's list shows it.
 */
export async function processPrivacyTask(
  db: Db,
  ports: PrivacyPorts,
  taskId: number,
): Promise<void> {
  const task = await pendingTask(db, taskId);
  if (!task) return;
  let outcome: TaskOutcome;
  try {
    outcome = await runTask(db, ports, task);
  } catch (err) {
    outcome = { status: 'RETRY', error: err instanceof Error ? err.message : String(err) };
  }
  await db.transaction(async (tx) => {
    if (outcome.status !== 'RETRY') {
      await settleTask(tx, task, outcome.status, outcome.error);
    } else if (task.attempts + 1 >= TASK_ATTEMPTS) {
      await settleTask(tx, task, 'FAILED', outcome.error);
    } else {
      const at = new Date(Date.now() + retryDelayMs(task.attempts));
      if (!(await postponeTask(tx, task, outcome.error, at))) return;
      await ports.queue.enqueue(tx, 'privacy-task', [
        {
          data: { taskId },
          startAfter: at,
          singletonKey: `privacy-task:${taskId}:${task.attempts + 1}`,
        },
      ]);
    }
  });
}

type TaskOutcome =
  | { status: 'DONE' | 'SKIPPED' | 'FAILED'; error: string | null }
  | { status: 'RETRY'; error: string };

async function runTask(db: Db, ports: PrivacyPorts, task: TaskRow): Promise<TaskOutcome> {
  if (task.kind === 'RECORDING') {
    const removed = await removeRecordingAtProvider(ports.config, task.recordingSid as string);
    return removed === 'REMOVED'
      ? { status: 'DONE', error: null }
      : { status: 'FAILED', error: 'Calling is not configured on this server' };
  }
  const sent = await sendLeadsDeleted(
    db,
    {
      allowPrivate: ports.config.WEBHOOK_ALLOW_PRIVATE,
      runtime: ports.runtime,
      connections: ports.connections,
    },
    task.agentId as number,
    task.leadIds ?? [],
    String(task.id),
    task.createdAt,
  );
  if (sent.kind === 'SENT') return { status: 'DONE', error: null };
  if (sent.kind === 'SKIPPED') return { status: 'SKIPPED', error: sent.reason };
  return sent.retryable
    ? { status: 'RETRY', error: sent.error }
    : { status: 'FAILED', error: sent.error };
}

/** Tasks whose job was lost (a crash, a process without a queue): enqueued again. */
export async function sweepPrivacyTasks(db: Db, ports: PrivacyPorts): Promise<number> {
  const overdue = await overdueTasks(db, 120);
  if (overdue.length === 0) return 0;
  await ports.queue.enqueue(
    db,
    'privacy-task',
    overdue.map((t) => ({
      data: { taskId: t.id },
      singletonKey: `privacy-task:${t.id}:${t.attempts}`,
    })),
  );
  return overdue.length;
}

/** Leads anonymized a transaction by the retention sweep. */
const RETENTION_BATCH = 1000;

/**
 * LEAD_RETENTION_DAYS: every lead received longer ago than that is anonymized (daily), in
 * batches of a thousand, each its own transaction. Answers how many.
 */
export async function anonymizeExpiredLeads(
  db: Db,
  ports: PrivacyPorts,
  now = new Date(),
): Promise<number> {
  const days = ports.config.LEAD_RETENTION_DAYS;
  if (days === undefined) return 0;
  const cutoff = new Date(now.getTime() - days * 86_400_000);
  let total = 0;
  for (;;) {
    const done = await db.transaction(async (tx) => {
      const ids = await leadIdsReceivedBefore(tx, cutoff, RETENTION_BATCH);
      if (ids.length === 0) return 0;
      const { anonymized, recordings } = await forgetLeads(tx, ids);
      await enqueueTasks(tx, ports, await insertTasks(tx, null, recordingTasks(recordings)));
      return Math.max(anonymized, ids.length);
    });
    total += done;
    if (done < RETENTION_BATCH) return total;
  }
}
