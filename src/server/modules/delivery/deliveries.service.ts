/**
 * Delivery of assigned leads (docs/domain.md, Delivery of assigned leads): what an assignment records (the
 * `leadsAssigned` handler), what a queue job does, retries and the webhook's switch-off. The
 * queue is a port (jobs/job-queue.ts) passed in with DeliveryPorts; without a running one (a
 * command-line run) the deliveries are still recorded and the sweeper of a process that runs the
 * queue sends them.
 */

import type { DeliveryChannel } from '../../../shared/domain';
import type { AppConfig } from '../../config/env';
import type { Db } from '../../db/client';
import type { AssignedLeads } from '../../events/lead-events';
import type { JobQueue, QueuedJob } from '../../jobs/job-queue';
import type { JobPayload } from '../../jobs/registry';
import { deliveryAttempts, deliveryLag } from '../../lib/metrics';
import {
  anyWebhookOn,
  type ChannelAgents,
  type DeliveryBatch,
  emailOffAgentIds,
  insertDeliveries,
  type JobClaim,
  markScheduled,
  recentRunIds,
  strandedDeliveries,
  takeOverLapsedLeases,
  webhookAgentIds,
} from './deliveries.repository';
import { attemptEmails, attemptWebhooks, type Outcome, settle } from './delivery-attempts';
import { DeliveryBatching } from './delivery-batching';
import { DELIVERY_LANES, deliveryJob } from './delivery-jobs';
import { DeliveryLeases } from './delivery-leases';
import { DEFAULT_RUNTIME, type DeliveryRuntime } from './delivery-runtime';
import { EMAIL_TIME_LIMIT_MS } from './email-channel';
import { WebhookConnections } from './webhook-connections';

// for push (modules/push): a device's endpoint passes the same guard and retries as a CRM webhook
export { DEFAULT_RUNTIME, type DeliveryRuntime } from './delivery-runtime';
export {
  EndpointRefused,
  pinnedLookup,
  type ResolvedEndpoint,
  resolveEndpoint,
} from './ssrf-guard';

/** What delivery is given at app start (or by a script or bench): a port each, no globals. */
export interface DeliveryPorts {
  config: AppConfig;
  runtime: DeliveryRuntime;
  queue: JobQueue;
  /** the process's cap on open webhook connections (WEBHOOK_MAX_CONNECTIONS) */
  connections: WebhookConnections;
  /** the process's leases on the deliveries its workers claimed (decision 040) */
  leases: DeliveryLeases;
  /** the claims and records of the jobs running side by side, made together (decision 047) */
  batching: DeliveryBatching;
}

/** Delivery's ports with the default timings (a script, a bench). */
export function deliveryPorts(
  config: AppConfig,
  queue: JobQueue,
  runtime: Partial<DeliveryRuntime> = {},
): DeliveryPorts {
  const timings = { ...DEFAULT_RUNTIME, ...runtime };
  // a send starts only with its time limit and a second left on a lease renewed every quarter
  const longest = Math.max(timings.webhookTimeoutMs, config.SMTP_URL ? EMAIL_TIME_LIMIT_MS : 0);
  if (timings.leaseSeconds * 750 < longest + 1_000)
    throw new Error(
      `delivery: a lease of ${timings.leaseSeconds} s is too short for a send of ${longest} ms (at least 4/3 of it and a second)`,
    );
  return {
    config,
    queue,
    runtime: timings,
    connections: new WebhookConnections(config.WEBHOOK_MAX_CONNECTIONS),
    leases: new DeliveryLeases(timings.leaseSeconds),
    batching: new DeliveryBatching(timings, queue),
  };
}

export { DELIVERY_LANES, webhookGroup } from './delivery-jobs';

const fanOutKey = (runId: number) => `run:${runId}`;

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
  ports: DeliveryPorts,
  assigned: AssignedLeads,
): Promise<void> {
  if ('runId' in assigned) {
    await ports.queue.enqueue(tx, 'lead-delivery-fan-out', [
      { data: { runId: assigned.runId }, singletonKey: fanOutKey(assigned.runId) },
    ]);
    return;
  }
  if (assigned.leadIds.length === 0) return;
  await recordDeliveries(tx, ports, assigned);
}

/** One INSERT ... SELECT of the deliveries, then one job per (agent, channel) batch. */
async function recordDeliveries(
  tx: Db,
  ports: DeliveryPorts,
  assigned: AssignedLeads,
): Promise<void> {
  const email = Boolean(ports.config.SMTP_URL);
  let agents: ChannelAgents = { lookup: true };
  if ('runId' in assigned) {
    const webhookAgents = await webhookAgentIds(tx);
    if (!email && webhookAgents.length === 0) return;
    agents = { webhookAgents, emailOffAgents: email ? await emailOffAgentIds(tx) : [] };
  }
  const queued = ports.queue.running;
  const batches = await insertDeliveries(tx, assigned, { email, agents, queued });
  if (queued && batches.length > 0)
    await ports.queue.enqueue(
      tx,
      'lead-delivery',
      batches.map((b: DeliveryBatch) =>
        deliveryJob(
          { agentId: b.agentId, channel: b.channel, fromId: b.fromId, toId: b.toId },
          'runId' in assigned ? DELIVERY_LANES.run : DELIVERY_LANES.fresh,
        ),
      ),
    );
}

/** The fan-out job of a run: its deliveries and batch jobs, in one transaction. */
export async function fanOutRun(db: Db, ports: DeliveryPorts, runId: number): Promise<void> {
  await db.transaction((tx) => recordDeliveries(tx, ports, { runId }));
}

/** Enqueues the next attempt of deliveries (admin retry, sweeper). */
async function enqueueAttempt(
  tx: Db,
  ports: DeliveryPorts,
  jobs: QueuedJob<'lead-delivery'>[],
): Promise<void> {
  if (jobs.length === 0) return;
  await ports.queue.enqueue(tx, 'lead-delivery', jobs);
}

/**
 * Runs one batch job: takes its deliveries, attempts them, records every attempt. Its claim and
 * its record are made with those of the jobs running beside it (delivery-batching.ts).
 */
export async function processDeliveryBatch(
  db: Db,
  ports: DeliveryPorts,
  job: JobPayload<'lead-delivery'>,
  lane: number = DELIVERY_LANES.fresh,
): Promise<void> {
  const { leases, batching } = ports;
  const claimedAt = DeliveryLeases.now();
  const { claimed, leads, target } = await batching.claim(db, job);
  if (claimed.length === 0) return;
  leases.hold(db, claimed, claimedAt);
  try {
    await attemptAndRecord(db, ports, job, lane, { claimed, leads, target });
  } finally {
    leases.drop(claimed.map((c) => c.id));
  }
}

/** The attempts of claimed deliveries, and their record. */
async function attemptAndRecord(
  db: Db,
  ports: DeliveryPorts,
  job: JobPayload<'lead-delivery'>,
  lane: number,
  { claimed, leads, target }: JobClaim,
): Promise<void> {
  const { config, runtime, connections, leases } = ports;
  // a send starts only while this process's lease lasts longer than the send can take
  const maySend = (id: number, timeoutMs: number) => leases.maySend(id, timeoutMs);
  let outcomes: Outcome[];
  if (job.channel === 'EMAIL')
    outcomes = await attemptEmails(config, target, claimed, leads, maySend);
  else
    outcomes = await attemptWebhooks(config, runtime, connections, target, claimed, leads, maySend);

  const now = Date.now();
  const byId = new Map(claimed.map((c) => [c.id, c]));
  const settled = outcomes.map((o) => ({
    ...settle(o, byId.get(o.id)!.attempts, runtime, now),
    attempts: byId.get(o.id)!.attempts,
  }));
  // not attempted: their endpoint failed before their turn, or their lease ran short; they wait
  // for its first retry
  const answered = new Set(outcomes.map((o) => o.id));
  const unattempted = claimed.filter((c) => !answered.has(c.id));
  // the process stopped meanwhile (past its grace): as after a crash, another one takes over
  if (leases.stopped) return;
  await ports.batching.record(db, { job, lane, target, settled, unattempted });
  // GET /metrics: each attempt by channel and outcome; the lag of each delivered lead
  for (const o of settled) {
    deliveryAttempts.inc({ channel: job.channel, outcome: o.attemptStatus });
    if (o.attemptStatus === 'SENT')
      deliveryLag.observe({ channel: job.channel }, byId.get(o.id)!.ageSeconds);
  }
}

/**
 * Enqueues deliveries left PENDING without a job: recorded by a process with no queue (the
 * command-line run), or taken by a worker that died. Their claim keeps a late original job and
 * this one from both sending.
 */
export async function sweepStrandedDeliveries(
  db: Db,
  ports: DeliveryPorts,
  limit = 10_000,
): Promise<number> {
  if (!ports.queue.running) return 0;
  await fanOutMissedRuns(db, ports);
  const rows = await strandedDeliveries(db, ports.runtime.sweepGraceSeconds, limit);
  if (rows.length === 0 || !ports.queue.running) return 0;
  const groups = byEndpointAndAttempt(rows);
  await db.transaction(async (tx) => {
    await markScheduled(
      tx,
      rows.map((r) => r.id),
      new Date(),
    );
    await enqueueAttempt(
      tx,
      ports,
      [...groups.values()].map((data) => deliveryJob(data, DELIVERY_LANES.fresh)),
    );
  });
  return rows.length;
}

/**
 * Takes over the deliveries whose lease lapsed: the worker that claimed them stopped renewing it
 * (its process died). Their next attempt is enqueued at once, in the fresh lane and outside their
 * endpoint's group (the dead worker's pg-boss job holds the group until pg-boss sees its heartbeat
 * stop), in the transaction that cleared the leases. Another process sends them within about 25 s
 * of the dead one's last renewal (decision 040); the dead one may have sent one already (the
 * webhook-id is the same: a receiver drops the repeat).
 */
export async function takeOverDeliveries(
  db: Db,
  ports: DeliveryPorts,
  limit = 10_000,
): Promise<number> {
  if (!ports.queue.running) return 0;
  return db.transaction(async (tx) => {
    const rows = await takeOverLapsedLeases(tx, limit);
    if (rows.length === 0) return 0;
    const groups = byEndpointAndAttempt(rows);
    await enqueueAttempt(
      tx,
      ports,
      [...groups.values()].map((data) => deliveryJob(data, DELIVERY_LANES.fresh, undefined, false)),
    );
    return rows.length;
  });
}

/**
 * Runs of the last day made where no queue ran (a command-line run) have no fan-out job: enqueue
 * one. A run whose fan-out ran keeps its job (and key) for a week.
 */
async function fanOutMissedRuns(db: Db, ports: DeliveryPorts): Promise<void> {
  if (!ports.config.SMTP_URL && !(await anyWebhookOn(db))) return;
  const seen = runsSeen(ports);
  for (const runId of await recentRunIds(db)) {
    if (seen.has(runId)) continue;
    if (!(await ports.queue.hasJob('lead-delivery-fan-out', fanOutKey(runId))))
      await db.transaction((tx) =>
        ports.queue.enqueue(tx, 'lead-delivery-fan-out', [
          { data: { runId }, singletonKey: fanOutKey(runId) },
        ]),
      );
    seen.add(runId);
  }
}

/**
 * Runs this queue knows to have a fan-out job: each is looked up once, not every minute. A cache
 * kept per queue (a WeakMap on the port), so two apps in one process do not share it.
 */
const seenByQueue = new WeakMap<JobQueue, Set<number>>();
function runsSeen(ports: DeliveryPorts): Set<number> {
  let seen = seenByQueue.get(ports.queue);
  if (!seen) {
    seen = new Set();
    seenByQueue.set(ports.queue, seen);
  }
  return seen;
}

/** Enqueues the next attempt of one delivery now (admin retry), in the caller's transaction. */
export async function enqueueRetry(
  tx: Db,
  ports: DeliveryPorts,
  row: { id: number; agentId: number; channel: DeliveryChannel; attempts: number },
): Promise<void> {
  await enqueueAttempt(tx, ports, [
    deliveryJob(
      { agentId: row.agentId, channel: row.channel, ids: [row.id], attempts: row.attempts },
      DELIVERY_LANES.fresh,
    ),
  ]);
}

// a consumer's deletion (modules/privacy): what is waiting is skipped, and the CRMs are told
export {
  crmRecipients,
  type LeadsDeletedOutcome,
  sendLeadsDeleted,
  skipLeadDeliveries,
} from './lead-deleted';

/** Deliveries grouped by agent, channel and attempt count: one next-attempt job per group. */
function byEndpointAndAttempt(
  rows: { id: number; agentId: number; channel: DeliveryChannel; attempts: number }[],
): Map<string, { agentId: number; channel: DeliveryChannel; ids: number[]; attempts: number }> {
  const groups = new Map<
    string,
    { agentId: number; channel: DeliveryChannel; ids: number[]; attempts: number }
  >();
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
  return groups;
}
