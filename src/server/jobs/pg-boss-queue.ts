/**
 * The job queue (docs/decisions/016-delivery-queue.md, 023-events-and-job-registry.md): pg-boss
 * in the app's own database (its `pgboss` schema; on PGlite through its adapter), started and
 * stopped with the app. One pg-boss queue per registered job (jobs/registry.ts), a worker for each
 * and the registry's sweepers. Jobs are written in the caller's transaction; LISTEN/NOTIFY wakes a
 * worker as soon as it commits, polling stays as the floor.
 */
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { type DrizzleTransactionLike, fromDrizzle, fromPglite, PgBoss } from 'pg-boss';
import { z } from 'zod';
import type { Database, Db } from '../db/client';
import type { JobQueue } from './job-queue';
import { JOB_PAYLOADS, JOBS, type JobContext, type JobName, SWEEPS } from './registry';

export interface JobQueueOptions {
  /** off: no queue in this app (work is still recorded; another process's sweepers queue it) */
  enabled?: boolean;
  /** the idle poll, the floor under LISTEN/NOTIFY (pg-boss's minimum is 0.5 s) */
  pollingIntervalSeconds?: number;
  /** how often the deliveries' sweeper looks for deliveries left without a job */
  sweepIntervalMs?: number;
  /** delivery jobs one process runs at once */
  concurrency?: number;
  /**
   * false: this process only writes jobs (PROCESS_ROLE=web); no worker, no sweeper, no
   * maintenance: the worker processes run them
   */
  workers?: boolean;
  /** how long stop() lets running jobs finish before failing them for a retry (SHUTDOWN_GRACE_MS) */
  stopTimeoutMs?: number;
}

/** The queue of an app, a script or a bench: its port for the modules, and its workers. */
export interface PgBossQueue {
  readonly port: JobQueue;
  /** Starts pg-boss, the workers and the sweepers (again every 10 s while the database is away). */
  start(ctx: JobContext): Promise<void>;
  /** pg-boss is up, with its workers where this process runs them */
  readonly running: boolean;
  /** Stops taking jobs, lets running ones finish (stopTimeoutMs), fails what is left for a retry. */
  stop(): Promise<void>;
}

function bossFor(database: Database, workers: boolean): PgBoss {
  const common = {
    // a process that only writes jobs leaves the queue's upkeep to the workers
    supervise: workers,
    schema: 'pgboss',
    useListenNotify: true,
    // no cron schedules here; the daily assignment has its own scheduler
    schedule: false,
    application_name: 'leadflow-delivery',
    // the monitor that fails a job whose heartbeat stopped (a dead process's) runs this often
    superviseIntervalSeconds: 10,
    monitorIntervalSeconds: 10,
  } as const;
  if (database.kind === 'pglite' && database.pglite)
    return new PgBoss({ ...common, db: fromPglite(database.pglite), backend: 'pglite' });
  const connectionString = (database.pool as unknown as { options?: { connectionString?: string } })
    ?.options?.connectionString;
  if (!connectionString) throw new Error('job queue: no connection string for PostgreSQL');
  return new PgBoss({ ...common, connectionString, max: 3 });
}

const jobNames = Object.keys(JOBS) as JobName[];

export function createPgBossQueue(
  database: Database,
  log: Pick<FastifyBaseLogger, 'error'>,
  options: JobQueueOptions = {},
): PgBossQueue {
  let boss: PgBoss | null = null;
  let stopped = false;
  let retryTimer: NodeJS.Timeout | null = null;
  const timers: NodeJS.Timeout[] = [];
  const sweeping = new Set<Promise<unknown>>();
  const polling = options.pollingIntervalSeconds ?? 2;
  const workers = options.workers ?? true;

  const port: JobQueue = {
    get running() {
      return boss !== null;
    },
    async enqueue(tx: Db, name, jobs) {
      if (!boss || jobs.length === 0) return;
      const schema = JOB_PAYLOADS[name];
      await boss.insert(
        name,
        jobs.map((j) => ({
          // written with the current version, and checked on the way in as on the way out
          data: schema.parse(j.data),
          ...(j.startAfter ? { startAfter: j.startAfter } : {}),
          ...(j.singletonKey ? { singletonKey: j.singletonKey } : {}),
          ...(j.group ? { group: { id: j.group } } : {}),
          ...(j.priority ? { priority: j.priority } : {}),
        })),
        { db: fromDrizzle(tx as unknown as DrizzleTransactionLike, sql) },
      );
    },
    async hasJob(name, singletonKey) {
      if (!boss) return false;
      return (await boss.findJobs(name, { key: singletonKey, limit: 1 })).length > 0;
    },
  };

  const work = async <N extends JobName>(started: PgBoss, name: N, ctx: JobContext) => {
    const job = JOBS[name];
    const common = {
      batchSize: job.work.batchSize,
      ...(job.work.burstWhenBatchFull ? { burstWhenBatchFull: true } : {}),
      ...(job.work.groupConcurrency ? { groupConcurrency: job.work.groupConcurrency } : {}),
      // the job's priority reaches its handler (a delivery's retry keeps its lane)
      ...(job.work.reserved ? { includeMetadata: true } : {}),
      perJobResults: true,
      pollingIntervalSeconds: polling,
      // retries are deferred jobs, which no NOTIFY announces when they fall due: poll for them
      notifyPollingIntervalSeconds: polling,
    } as const;
    const handle = (batch: { id: string; data: unknown; priority?: number }[]) =>
      workBatch(name, batch, ctx, log);
    await started.work(
      name,
      {
        ...common,
        localConcurrency:
          name === 'lead-delivery' && options.concurrency
            ? options.concurrency
            : job.work.localConcurrency,
      },
      handle,
    );
    // workers that take only the jobs of a priority and above: those jobs never wait for a worker
    // busy with the others (a run's fan-out of deliveries behind a lead that just came in)
    if (job.work.reserved)
      await started.work(
        name,
        {
          ...common,
          localConcurrency: job.work.reserved.localConcurrency,
          minPriority: job.work.reserved.minPriority,
        },
        handle,
      );
  };

  const bringUp = async (ctx: JobContext) => {
    const started = bossFor(database, workers);
    started.on('error', (err) => log.error({ err }, 'job queue error'));
    try {
      await started.start();
      for (const name of jobNames) await ensureQueue(started, name);
    } catch (err) {
      await started.stop({ graceful: false, timeout: 1_000 }).catch(() => undefined);
      throw err;
    }
    boss = started;
    if (!workers) return;
    for (const name of jobNames) await work(started, name, ctx);
    for (const sweep of SWEEPS) {
      let running: Promise<unknown> | null = null;
      const run = () => {
        if (running) return;
        running = sweep
          .run(ctx)
          .catch((err) => log.error({ err }, `${sweep.name} sweep failed`))
          .finally(() => {
            sweeping.delete(running!);
            running = null;
          });
        sweeping.add(running);
      };
      const every =
        typeof sweep.everyMs === 'function'
          ? sweep.everyMs(ctx)
          : (sweep.everyMs ?? options.sweepIntervalMs ?? 60_000);
      const timer = setInterval(run, every);
      timer.unref();
      timers.push(timer);
      if (sweep.atStart) run();
    }
  };

  return {
    port,
    get running() {
      return boss !== null;
    },
    async start(ctx) {
      if (options.enabled === false) return;
      // the app starts even with the database away (health answers 503): the queue tries again
      const attempt = async () => {
        try {
          await bringUp(ctx);
        } catch (err) {
          log.error({ err }, 'job queue: could not start, trying again in 10 s');
          if (!stopped) {
            retryTimer = setTimeout(() => void attempt(), 10_000);
            retryTimer.unref();
          }
        }
      };
      await attempt();
    },
    async stop() {
      stopped = true;
      if (retryTimer) clearTimeout(retryTimer);
      for (const timer of timers) clearInterval(timer);
      const running = boss;
      boss = null;
      await Promise.allSettled([...sweeping]);
      await running
        ?.stop({ graceful: true, timeout: options.stopTimeoutMs ?? 5_000 })
        .catch((err: unknown) => {
          log.error({ err }, 'job queue: stop failed');
        });
    },
  };
}

/**
 * One fetch of a job's worker: each job's payload parsed with its schema (by the job's name,
 * never by the payload's shape), then handled; a payload that does not parse fails with the
 * schema's reason. Every job gets its own result: a failure is retried alone (pg-boss's policy).
 */
export async function workBatch<N extends JobName>(
  name: N,
  batch: { id: string; data: unknown; priority?: number }[],
  ctx: JobContext,
  log: Pick<FastifyBaseLogger, 'error'>,
) {
  const one = async ({ id, data, priority }: { id: string; data: unknown; priority?: number }) => {
    const parsed = JOB_PAYLOADS[name].safeParse(data);
    if (!parsed.success) {
      const message = `${name}: payload refused: ${refusal(parsed.error)}`;
      log.error({ jobId: id }, message);
      return { id, status: 'failed' as const, output: { message } };
    }
    try {
      await JOBS[name].handle(ctx, parsed.data as never, { priority: priority ?? 0 });
      return { id, status: 'completed' as const };
    } catch (err) {
      log.error({ err, jobId: id }, `${name} job failed`);
      return { id, status: 'failed' as const, output: { message: String(err) } };
    }
  };
  // side by side: a slow job (a slow endpoint) does not hold back those fetched with it
  if (JOBS[name].work.sideBySide) return Promise.all(batch.map(one));
  const results = [];
  for (const job of batch) results.push(await one(job));
  return results;
}

/** The schema's reason; for a union (a batch's two forms), each form's own reasons too. */
function refusal(error: z.ZodError): string {
  const forms = error.issues.flatMap((issue) =>
    issue.code === 'invalid_union' && 'errors' in issue
      ? issue.errors.map((branch) => z.prettifyError(new z.ZodError(branch)))
      : [],
  );
  const text = z.prettifyError(error);
  return forms.length === 0
    ? text
    : `${text}; ${forms.map((f, i) => `form ${i + 1}: ${f}`).join('; ')}`;
}

async function ensureQueue(boss: PgBoss, name: JobName): Promise<void> {
  const options = { notify: true, retryBackoff: true, ...JOBS[name].queue };
  if (await boss.getQueue(name)) {
    await boss.updateQueue(name, options);
    return;
  }
  await boss.createQueue(name, options).catch(async (err) => {
    // another process created it meanwhile
    if (!(await boss.getQueue(name))) throw err;
  });
}
