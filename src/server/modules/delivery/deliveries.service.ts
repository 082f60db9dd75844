/**
 * Delivery of assigned leads (docs/domain.md, Delivery of assigned leads): what an assignment records,
 * what a queue job does, retries and the webhook's switch-off. The queue itself (pg-boss) lives in
 * jobs/delivery-queue.ts and attaches here; without one (a command-line run) the deliveries are
 * still recorded and the sweeper of a process that runs the queue sends them.
 */

import type { DeliveryChannel } from '../../../shared/domain';
import type { AppConfig } from '../../config/env';
import type { Db } from '../../db/client';
import { notifyWebhookDisabled } from '../notifications/notifications.service';
import {
  agentTarget,
  anyWebhookOn,
  type ChannelAgents,
  claimDeliveries,
  countWebhookFailures,
  type DeliveryBatch,
  emailOffAgentIds,
  insertDeliveries,
  leadsForDelivery,
  markScheduled,
  recentRunIds,
  recordAttempts,
  skipPendingWebhooks,
  strandedDeliveries,
  webhookAgentIds,
} from './deliveries.repository';
import { attemptEmails, attemptWebhooks, type Outcome, settle } from './delivery-attempts';
import { DEFAULT_RUNTIME, type DeliveryRuntime } from './delivery-runtime';
import type { AssignedLeads, DeliveryConfig } from './lead-assigned.service';

/** The pooled SMTP transport of SMTP_URL, which the follow-up emails share (docs/domain.md, Follow-up messages and calls). */
export { transportFor as emailTransport } from './email-channel';

/** A batch job: the first attempt of a batch, or the next attempt of named deliveries. */
export type BatchJob = { agentId: number; channel: DeliveryChannel } & (
  | { fromId: number; toId: number }
  | { ids: number[]; attempts: number }
);
/** A queue job: a run to fan out into deliveries, or a batch. */
export type DeliveryJob = { runId: number } | BatchJob;

export interface QueuedJob {
  data: DeliveryJob;
  startAfter?: Date;
  /** one job per key while it waits (a run's fan-out) */
  singletonKey?: string;
}

/** What the queue offers this module. */
export interface DeliveryQueuePort {
  /** enqueues jobs in the caller's transaction */
  enqueue(tx: Db, jobs: QueuedJob[]): Promise<void>;
  /** whether a job with this key was ever enqueued (kept a week after it ran) */
  hasJob(singletonKey: string): Promise<boolean>;
}

const fanOutKey = (runId: number) => `run:${runId}`;

interface Attached {
  port: DeliveryQueuePort;
  runtime: DeliveryRuntime;
  config: AppConfig;
}
const attached: Attached[] = [];

/** The queue of this process (the last one started) and its timings. */
export function attachDeliveryQueue(entry: Attached): () => void {
  attached.push(entry);
  return () => {
    const at = attached.indexOf(entry);
    if (at >= 0) attached.splice(at, 1);
  };
}

function current(): Attached | undefined {
  return attached[attached.length - 1];
}

export function deliveryRuntime(): DeliveryRuntime {
  return current()?.runtime ?? DEFAULT_RUNTIME;
}

/**
 * Enqueues the deliveries of newly assigned leads in the caller's transaction: nothing is sent
 * for an assignment that rolls back, nothing is lost for one that commits.
 *
 * Named leads (manual, intake: a few): their deliveries are recorded here, one INSERT ... SELECT
 * for every lead and channel, and one job per (agent, channel) by one pg-boss insert.
 * A run (up to a million leads): one fan-out job, which records the run's deliveries and their
 * batch jobs in its own transaction a moment later, so the run's transaction does not write a
 * row per lead and channel (bench:assign). Where no queue runs (a command-line run), the sweeper
 * of a process that runs one fans the run out (decision 016).
 */
export async function enqueueLeadDeliveries(
  tx: Db,
  config: DeliveryConfig,
  assigned: AssignedLeads,
): Promise<void> {
  const queue = current();
  if ('runId' in assigned) {
    await queue?.port.enqueue(tx, [
      { data: { runId: assigned.runId }, singletonKey: fanOutKey(assigned.runId) },
    ]);
    return;
  }
  await recordDeliveries(tx, config, assigned);
}

/** One INSERT ... SELECT of the deliveries, then one job per (agent, channel) batch. */
async function recordDeliveries(
  tx: Db,
  config: DeliveryConfig,
  assigned: AssignedLeads,
): Promise<void> {
  const email = Boolean(config.SMTP_URL);
  let agents: ChannelAgents = { lookup: true };
  if ('runId' in assigned) {
    const webhookAgents = await webhookAgentIds(tx);
    if (!email && webhookAgents.length === 0) return;
    agents = { webhookAgents, emailOffAgents: email ? await emailOffAgentIds(tx) : [] };
  }
  const queue = current();
  const batches = await insertDeliveries(tx, assigned, { email, agents, queued: Boolean(queue) });
  if (queue && batches.length > 0)
    await queue.port.enqueue(
      tx,
      batches.map((b: DeliveryBatch) => ({
        data: { agentId: b.agentId, channel: b.channel, fromId: b.fromId, toId: b.toId },
      })),
    );
}

/** The fan-out job of a run: its deliveries and batch jobs, in one transaction. */
async function fanOutRun(db: Db, config: DeliveryConfig, runId: number): Promise<void> {
  await db.transaction((tx) => recordDeliveries(tx, config, { runId }));
}

/** Enqueues the next attempt of deliveries (admin retry, sweeper). */
async function enqueueAttempt(tx: Db, jobs: QueuedJob[]): Promise<void> {
  const queue = current();
  if (!queue || jobs.length === 0) return;
  await queue.port.enqueue(tx, jobs);
}

/** Runs one queue job: takes its deliveries, attempts them, records every attempt. */
export async function processDeliveryJob(db: Db, job: DeliveryJob): Promise<void> {
  const entry = current();
  const config = entry?.config;
  if (!config) throw new Error('delivery queue not attached');
  if ('runId' in job) return fanOutRun(db, config, job.runId);
  const runtime = entry.runtime;
  const claimed = await claimDeliveries(db, job);
  if (claimed.length === 0) return;
  const target = await agentTarget(db, job.agentId);
  const leads = new Map(
    (
      await leadsForDelivery(
        db,
        claimed.map((c) => c.leadId),
      )
    ).map((l) => [l.id, l]),
  );

  let outcomes: Outcome[];
  if (job.channel === 'EMAIL') outcomes = await attemptEmails(config, target, claimed, leads);
  else outcomes = await attemptWebhooks(config, runtime, target, claimed, leads);

  const now = Date.now();
  const byId = new Map(claimed.map((c) => [c.id, c]));
  const settled = outcomes.map((o) => settle(o, byId.get(o.id)!.attempts, runtime, now));

  await db.transaction(async (tx) => {
    await recordAttempts(tx, settled);
    if (job.channel === 'WEBHOOK') {
      const attempted = outcomes.filter((o) => o.attemptStatus !== 'SKIPPED');
      const lastSent = attempted.map((o) => o.attemptStatus).lastIndexOf('SENT');
      const failures = attempted.length - 1 - lastSent;
      if (attempted.length > 0) {
        const switched = await countWebhookFailures(
          tx,
          job.agentId,
          { reset: lastSent >= 0, failures },
          runtime.failureLimit,
        );
        if (switched) {
          await notifyWebhookDisabled(tx, job.agentId, runtime.failureLimit);
          await skipPendingWebhooks(tx, job.agentId, 'The endpoint was switched off');
          return;
        }
      }
    }
    // the deliveries due again, one job per attempt count and due time (one here: same batch)
    const due = new Map<string, { ids: number[]; attempts: number; at: string }>();
    for (const s of settled) {
      if (s.status !== 'PENDING' || !s.nextAttemptAt) continue;
      const attempts = byId.get(s.id)!.attempts;
      const key = `${attempts}@${s.nextAttemptAt}`;
      const group = due.get(key) ?? { ids: [], attempts, at: s.nextAttemptAt };
      group.ids.push(s.id);
      due.set(key, group);
    }
    await enqueueAttempt(
      tx,
      [...due.values()].map((g) => ({
        data: { agentId: job.agentId, channel: job.channel, ids: g.ids, attempts: g.attempts },
        startAfter: new Date(g.at),
      })),
    );
  });
}

/**
 * Enqueues deliveries left PENDING without a job: recorded by a process with no queue (the
 * command-line run), or taken by a worker that died. Their claim keeps a late original job and
 * this one from both sending.
 */
export async function sweepStrandedDeliveries(db: Db, limit = 10_000): Promise<number> {
  const entry = current();
  if (!entry) return 0;
  await fanOutMissedRuns(db, entry);
  const runtime = entry.runtime;
  const rows = await strandedDeliveries(db, runtime.sweepGraceSeconds, limit);
  if (rows.length === 0 || !current()) return 0;
  const groups = new Map<string, BatchJob & { ids: number[] }>();
  for (const r of rows) {
    const key = `${r.agentId}:${r.channel}:${r.attempts}`;
    const group = groups.get(key) ?? {
      agentId: r.agentId,
      channel: r.channel,
      ids: [],
      attempts: r.attempts,
    };
    group.ids.push(r.id);
    groups.set(key, group);
  }
  await db.transaction(async (tx) => {
    await markScheduled(
      tx,
      rows.map((r) => r.id),
      new Date(),
    );
    await enqueueAttempt(
      tx,
      [...groups.values()].map((data) => ({ data })),
    );
  });
  return rows.length;
}

/**
 * Runs of the last day made where no queue ran (a command-line run) have no fan-out job: enqueue
 * one. A run whose fan-out ran keeps its job (and key) for a week.
 */
async function fanOutMissedRuns(db: Db, entry: Attached): Promise<void> {
  if (!entry.config.SMTP_URL && !(await anyWebhookOn(db))) return;
  for (const runId of await recentRunIds(db)) {
    if (runsSeen.has(runId)) continue;
    if (!(await entry.port.hasJob(fanOutKey(runId))))
      await db.transaction((tx) =>
        entry.port.enqueue(tx, [{ data: { runId }, singletonKey: fanOutKey(runId) }]),
      );
    runsSeen.add(runId);
  }
}

/** Runs this process knows to have a fan-out job: each is looked up once, not every minute. */
const runsSeen = new Set<number>();

/** Enqueues the next attempt of one delivery now (admin retry), in the caller's transaction. */
export async function enqueueRetry(
  tx: Db,
  row: { id: number; agentId: number; channel: DeliveryChannel; attempts: number },
): Promise<void> {
  await enqueueAttempt(tx, [
    {
      data: { agentId: row.agentId, channel: row.channel, ids: [row.id], attempts: row.attempts },
    },
  ]);
}
