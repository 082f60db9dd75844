/**
 * The delivery queue (docs/decisions/016-delivery-queue.md): pg-boss in the app's own database
 * (its `pgboss` schema; on PGlite through its adapter), started and stopped with the app. Jobs are
 * written in the assignment's transaction (deliveries.service); LISTEN/NOTIFY wakes a worker
 * as soon as that transaction commits, polling stays as the floor. A sweeper re-enqueues
 * deliveries left without a job.
 */
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import {
  type DrizzleTransactionLike,
  fromDrizzle,
  fromPglite,
  type JobInsert,
  PgBoss,
} from 'pg-boss';
import type { AppConfig } from '../config/env';
import type { Database, Db } from '../db/client';
import {
  attachDeliveryQueue,
  type DeliveryJob,
  type DeliveryQueuePort,
  processDeliveryJob,
  sweepStrandedDeliveries,
} from '../modules/delivery/deliveries.service';
import { DEFAULT_RUNTIME, type DeliveryRuntime } from '../modules/delivery/delivery-runtime';
import { startFollowUpWorker } from './follow-up-queue';

export const DELIVERY_QUEUE = 'lead-delivery';
/** jobs a worker fetches at once (each job is one agent's deliveries on one channel) */
const BATCH = 20;

export interface DeliveryQueueOptions extends Partial<DeliveryRuntime> {
  /** off: no queue in this app (deliveries are still recorded; another process sends them) */
  enabled?: boolean;
  /** the idle poll, the floor under LISTEN/NOTIFY (pg-boss's minimum is 0.5 s) */
  pollingIntervalSeconds?: number;
  /** how often the sweeper looks for deliveries left without a job */
  sweepIntervalMs?: number;
  /** jobs one process runs at once */
  concurrency?: number;
}

export interface DeliveryQueue {
  /** null until pg-boss has started (the database may be away at first) */
  readonly boss: PgBoss | null;
  stop(): Promise<void>;
}

function bossFor(database: Database): PgBoss {
  const common = {
    schema: 'pgboss',
    useListenNotify: true,
    // no cron schedules here; the daily assignment has its own scheduler
    schedule: false,
    application_name: 'leadflow-delivery',
  } as const;
  if (database.kind === 'pglite' && database.pglite)
    return new PgBoss({ ...common, db: fromPglite(database.pglite), backend: 'pglite' });
  const connectionString = (database.pool as unknown as { options?: { connectionString?: string } })
    ?.options?.connectionString;
  if (!connectionString) throw new Error('delivery queue: no connection string for PostgreSQL');
  return new PgBoss({ ...common, connectionString, max: 3 });
}

/** Who runs the queue: the app, or a script or bench (config and a log are all it needs). */
export interface QueueHost {
  config: AppConfig;
  log: Pick<FastifyBaseLogger, 'error'>;
}

/** Starts the queue and its workers; the app's onClose hook stops them. */
export async function startDeliveryQueue(
  app: QueueHost,
  database: Database,
  options: DeliveryQueueOptions = {},
): Promise<DeliveryQueue | null> {
  if (options.enabled === false) return null;
  const runtime: DeliveryRuntime = {
    webhookTimeoutMs: options.webhookTimeoutMs ?? DEFAULT_RUNTIME.webhookTimeoutMs,
    retryDelaysMs: options.retryDelaysMs ?? DEFAULT_RUNTIME.retryDelaysMs,
    failureLimit: options.failureLimit ?? DEFAULT_RUNTIME.failureLimit,
    sweepGraceSeconds: options.sweepGraceSeconds ?? DEFAULT_RUNTIME.sweepGraceSeconds,
  };
  let stopped = false;
  let boss: PgBoss | null = null;
  let detach: (() => void) | null = null;
  let stopFollowUps: (() => Promise<void>) | null = null;
  let sweepTimer: NodeJS.Timeout | null = null;
  let retryTimer: NodeJS.Timeout | null = null;
  let sweeping: Promise<unknown> | null = null;
  const db = database.db;
  const polling = options.pollingIntervalSeconds ?? 2;

  /** Starts pg-boss, the queue, the workers and the sweeper; throws if the database is away. */
  const bringUp = async () => {
    const started = bossFor(database);
    started.on('error', (err) => app.log.error({ err }, 'delivery queue error'));
    try {
      await started.start();
      await ensureQueue(started);
    } catch (err) {
      await started.stop({ graceful: false, timeout: 1_000 }).catch(() => undefined);
      throw err;
    }
    boss = started;
    detach = attachDeliveryQueue({ config: app.config, runtime, port: portOf(started) });
    await started.work<DeliveryJob>(
      DELIVERY_QUEUE,
      {
        localConcurrency: options.concurrency ?? 4,
        // up to BATCH jobs a fetch, worked one after another (each worker holds at most one
        // pool connection: the pool is the app's, shared with its requests), and a full fetch
        // fetches again at once (burst): a backlog drains without waiting for the poll between
        // jobs (with one job a fetch and no burst, a worker took one job per poll: about 2
        // deliveries a second)
        batchSize: BATCH,
        burstWhenBatchFull: true,
        perJobResults: true,
        pollingIntervalSeconds: polling,
        // retries are deferred jobs, which no NOTIFY announces when they fall due: poll for them
        notifyPollingIntervalSeconds: polling,
      },
      async (jobs) => {
        const results = [];
        for (const job of jobs) {
          try {
            await processDeliveryJob(db, job.data);
            results.push({ id: job.id, status: 'completed' as const });
          } catch (err) {
            // this job alone is retried (pg-boss's retry policy); its batch neighbours are done
            app.log.error({ err }, 'delivery job failed');
            results.push({
              id: job.id,
              status: 'failed' as const,
              output: { message: String(err) },
            });
          }
        }
        return results;
      },
    );
    // the follow-up messages' queue on the same boss (docs/domain.md, Follow-up messages and calls)
    stopFollowUps = await startFollowUpWorker(started, app, db, polling);
    const sweep = () => {
      if (sweeping) return;
      sweeping = sweepStrandedDeliveries(db)
        .catch((err) => app.log.error({ err }, 'delivery sweep failed'))
        .finally(() => {
          sweeping = null;
        });
    };
    sweepTimer = setInterval(sweep, options.sweepIntervalMs ?? 60_000);
    sweepTimer.unref();
    sweep();
  };

  // the app starts even with the database away (health answers 503): the queue tries again
  const attempt = async () => {
    try {
      await bringUp();
    } catch (err) {
      app.log.error({ err }, 'delivery queue: could not start, trying again in 10 s');
      if (!stopped) {
        retryTimer = setTimeout(() => void attempt(), 10_000);
        retryTimer.unref();
      }
    }
  };
  await attempt();

  return {
    get boss() {
      return boss;
    },
    async stop() {
      stopped = true;
      if (retryTimer) clearTimeout(retryTimer);
      if (sweepTimer) clearInterval(sweepTimer);
      detach?.();
      await stopFollowUps?.();
      await sweeping;
      await boss?.stop({ graceful: true, timeout: 5_000 }).catch((err: unknown) => {
        app.log.error({ err }, 'delivery queue: stop failed');
      });
    },
  };
}

const QUEUE_OPTIONS = {
  notify: true,
  // a job that throws (the database away) is tried again; delivery retries are our own jobs
  retryLimit: 5,
  retryDelay: 5,
  retryBackoff: true,
  expireInSeconds: 15 * 60,
};

async function ensureQueue(boss: PgBoss): Promise<void> {
  if (await boss.getQueue(DELIVERY_QUEUE)) {
    await boss.updateQueue(DELIVERY_QUEUE, QUEUE_OPTIONS);
    return;
  }
  await boss.createQueue(DELIVERY_QUEUE, QUEUE_OPTIONS).catch(async (err) => {
    // another process created it meanwhile
    if (!(await boss.getQueue(DELIVERY_QUEUE))) throw err;
  });
}

/** What the delivery module may ask of the queue. */
function portOf(boss: PgBoss): DeliveryQueuePort {
  return {
    async enqueue(tx: Db, jobs) {
      if (jobs.length === 0) return;
      const inserts: JobInsert[] = jobs.map((j) => ({
        data: j.data,
        ...(j.startAfter ? { startAfter: j.startAfter } : {}),
        ...(j.singletonKey ? { singletonKey: j.singletonKey } : {}),
      }));
      await boss.insert(DELIVERY_QUEUE, inserts, {
        db: fromDrizzle(tx as unknown as DrizzleTransactionLike, sql),
      });
    },
    async hasJob(singletonKey: string) {
      return (await boss.findJobs(DELIVERY_QUEUE, { key: singletonKey, limit: 1 })).length > 0;
    },
  };
}
