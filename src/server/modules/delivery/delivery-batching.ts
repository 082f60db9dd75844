/**
 * The claims and the records of the delivery jobs running side by side in this process, each
 * made for all of them at once (decision 047): the jobs of one fetch claim their deliveries in one
 * statement, and the jobs whose sends are over record their attempts, the agents' failure counts
 * and the retries in one transaction, while the transaction before it runs (a group commit). A job
 * so costs the database a share of a few statements, not five of its own, and each job is still
 * answered on its own: its claim, and whether its record committed.
 */
import DataLoader from 'dataloader';
import type { Db } from '../../db/client';
import type { JobQueue } from '../../jobs/job-queue';
import type { JobPayload } from '../../jobs/registry';
import {
  notifyDeliveriesFailed,
  notifyWebhookDisabled,
} from '../notifications/notifications.service';
import {
  type AgentDeliveryTarget,
  type AttemptOutcome,
  type ClaimedDelivery,
  claimDeliveriesOfJobs,
  countWebhookFailures,
  type JobClaim,
  recordAttempts,
  releaseDeliveries,
  skipPendingWebhooks,
} from './deliveries.repository';
import { deliveryJob } from './delivery-jobs';
import type { DeliveryRuntime } from './delivery-runtime';

/** Jobs claimed or recorded together at most. */
const MOST_AT_ONCE = 64;

/** What a job's sends left to record. */
export interface JobRecord {
  job: JobPayload<'lead-delivery'>;
  /** the job's lane: its retries stay in it */
  lane: number;
  /** the agent's settings as the claim read them */
  target: AgentDeliveryTarget | null;
  /** each attempt's outcome, with the attempt count its claim left */
  settled: (AttemptOutcome & { attempts: number })[];
  /** claimed and not attempted: given back, due again at the first retry */
  unattempted: ClaimedDelivery[];
}

interface Loaders {
  claims: DataLoader<JobPayload<'lead-delivery'>, JobClaim>;
  records: DataLoader<JobRecord, true>;
}

export class DeliveryBatching {
  private readonly byDb = new WeakMap<Db, Loaders>();

  constructor(
    private readonly runtime: DeliveryRuntime,
    private readonly queue: JobQueue,
  ) {}

  /** A job's claim, made with those of the jobs that start beside it. */
  claim(db: Db, job: JobPayload<'lead-delivery'>): Promise<JobClaim> {
    return this.loaders(db).claims.load(job);
  }

  /** A job's record, committed with those of the jobs that end beside it. */
  async record(db: Db, record: JobRecord): Promise<void> {
    await this.loaders(db).records.load(record);
  }

  private loaders(db: Db): Loaders {
    let loaders = this.byDb.get(db);
    if (loaders) return loaders;
    let recording: Promise<unknown> | null = null;
    loaders = {
      // the jobs of one fetch start in the same tick: DataLoader's own moment gathers them
      claims: new DataLoader(
        (jobs) => claimDeliveriesOfJobs(db, [...jobs], this.runtime.leaseSeconds),
        { cache: false, maxBatchSize: MOST_AT_ONCE },
      ),
      records: new DataLoader(
        async (records) => {
          const running = recordJobs(db, this.runtime, this.queue, [...records]);
          recording = running;
          try {
            await running;
          } finally {
            if (recording === running) recording = null;
          }
          return records.map(() => true as const);
        },
        {
          cache: false,
          maxBatchSize: MOST_AT_ONCE,
          // a group commit: while one record's transaction runs, the jobs ending meanwhile gather
          // for the next one
          batchScheduleFn: (dispatch) => {
            if (recording) void recording.then(dispatch, dispatch);
            else setImmediate(dispatch);
          },
        },
      ),
    };
    this.byDb.set(db, loaders);
    return loaders;
  }
}

/**
 * The records of jobs whose sends are over, in one transaction: every attempt (only where the
 * worker still holds the delivery: one another process took over is its own now), the agents told
 * of leads their CRM did not take, the deliveries given back, each webhook's failures in a row
 * (and its switch-off), and every retry's job.
 */
async function recordJobs(
  db: Db,
  runtime: DeliveryRuntime,
  queue: JobQueue,
  records: JobRecord[],
): Promise<void> {
  const releasedAt = new Date(Date.now() + (runtime.retryDelaysMs[0] ?? 0)).toISOString();
  await db.transaction(async (tx) => {
    const recorded = await recordAttempts(
      tx,
      records.flatMap((r) => r.settled),
    );
    const settledOf = (r: JobRecord) => r.settled.filter((s) => recorded.has(s.id));
    // a lead the agent's CRM did not take for good: the agent is told, with the lead
    await notifyDeliveriesFailed(
      tx,
      records
        .filter((r) => r.job.channel === 'WEBHOOK')
        .flatMap((r) =>
          settledOf(r)
            .filter((s) => s.status === 'FAILED')
            .map((s) => s.id),
        ),
    );
    const released = new Set(
      await releaseDeliveries(
        tx,
        records.flatMap((r) => r.unattempted),
        releasedAt,
      ),
    );
    const retries = [];
    for (const r of records) {
      const settled = settledOf(r);
      if (r.job.channel === 'WEBHOOK' && (await switchedOff(tx, runtime, r, settled))) continue;
      // the deliveries due again (retries, and those given back), one job per attempt count and
      // due time
      const again = [
        ...settled
          .filter((s) => s.status === 'PENDING' && s.nextAttemptAt)
          .map((s) => ({ id: s.id, attempts: s.attempts, at: s.nextAttemptAt! })),
        ...r.unattempted
          .filter((c) => released.has(c.id))
          .map((c) => ({ id: c.id, attempts: c.attempts - 1, at: releasedAt })),
      ];
      const due = new Map<string, { ids: number[]; attempts: number; at: string }>();
      for (const d of again) {
        const key = `${d.attempts}@${d.at}`;
        const group = due.get(key) ?? { ids: [], attempts: d.attempts, at: d.at };
        group.ids.push(d.id);
        due.set(key, group);
      }
      for (const g of due.values())
        retries.push(
          deliveryJob(
            { agentId: r.job.agentId, channel: r.job.channel, ids: g.ids, attempts: g.attempts },
            r.lane,
            new Date(g.at),
          ),
        );
    }
    if (retries.length > 0) await queue.enqueue(tx, 'lead-delivery', retries);
  });
}

/**
 * A webhook job's failures in a row counted; at the limit the endpoint is switched off, the agent
 * told, and the agent's waiting webhooks skipped (answers true: nothing of it is tried again).
 */
async function switchedOff(
  tx: Db,
  runtime: DeliveryRuntime,
  r: JobRecord,
  settled: JobRecord['settled'],
): Promise<boolean> {
  const attempted = settled.filter((o) => o.attemptStatus !== 'SKIPPED');
  if (attempted.length === 0) return false;
  const lastSent = attempted.map((o) => o.attemptStatus).lastIndexOf('SENT');
  const failures = attempted.length - 1 - lastSent;
  // a success after none failed changes nothing: no statement (one job of an agent's webhook
  // group runs at a time, so the count read with the claim is still the count)
  if (lastSent >= 0 && failures === 0 && r.target?.webhookFailuresInRow === 0) return false;
  const switched = await countWebhookFailures(
    tx,
    r.job.agentId,
    { reset: lastSent >= 0, failures },
    runtime.failureLimit,
  );
  if (!switched) return false;
  await notifyWebhookDisabled(tx, r.job.agentId, runtime.failureLimit);
  await skipPendingWebhooks(tx, r.job.agentId, 'The endpoint was switched off');
  return true;
}
