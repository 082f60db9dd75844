/**
 * The queue as the modules see it (a port, like billing): they enqueue a registered job by its
 * name in their own transaction, and ask whether a worker runs in this process. app.ts passes in
 * the pg-boss queue (jobs/pg-boss-queue.ts); a script, or an app whose queue is off, the null
 * queue below, and whatever would have been queued waits for a sweeper of a process that runs one.
 */
import type { Db } from '../db/client';
import type { JobInput, JobName } from './registry';

export interface QueuedJob<N extends JobName> {
  data: JobInput<N>;
  startAfter?: Date;
  /** one job per key while it waits */
  singletonKey?: string;
  /** the job's group: a job definition may cap the jobs of one group running at once */
  group?: string;
  /** fetched before every job of a lower priority (0 unless said) */
  priority?: number;
}

export interface JobQueue {
  /** whether a worker runs in this process (false until pg-boss started, and when it is off) */
  readonly running: boolean;
  /** enqueues jobs of one name in the caller's transaction; nothing when not running */
  enqueue<N extends JobName>(tx: Db, name: N, jobs: QueuedJob<N>[]): Promise<void>;
  /** whether a job with this key was ever enqueued (pg-boss keeps it a week after it ran) */
  hasJob(name: JobName, singletonKey: string): Promise<boolean>;
}

/** No queue in this process (a command-line run, a bench, an app with its queue off). */
export const NO_JOB_QUEUE: JobQueue = {
  running: false,
  async enqueue() {},
  async hasJob() {
    return false;
  },
};
