/**
 * The follow-up messages' queue (docs/domain.md, Follow-up messages and calls; decision 020): a pg-boss queue on the delivery queue's
 * boss (jobs/delivery-queue.ts starts it beside its own). One job per message, written in the
 * assignment's transaction; a message outside the lead's calling window is a job deferred to the
 * window's opening (startAfter). A sweeper sends due messages left without a job.
 */
import { sql } from 'drizzle-orm';
import { type DrizzleTransactionLike, fromDrizzle, type PgBoss } from 'pg-boss';
import type { Db } from '../db/client';
import {
  attachFollowUpQueue,
  type FollowUpJob,
  processFollowUp,
  sweepDueFollowUps,
} from '../modules/follow-up/follow-up.service';
import type { QueueHost } from './delivery-queue';

export const FOLLOW_UP_QUEUE = 'lead-follow-up';

const QUEUE_OPTIONS = {
  notify: true,
  retryLimit: 5,
  retryDelay: 5,
  retryBackoff: true,
  expireInSeconds: 5 * 60,
};

/** Starts the worker on a started boss; the returned function stops the sweeper and detaches. */
export async function startFollowUpWorker(
  boss: PgBoss,
  app: QueueHost,
  db: Db,
  polling: number,
  sweepIntervalMs = 60_000,
): Promise<() => Promise<void>> {
  if (await boss.getQueue(FOLLOW_UP_QUEUE)) await boss.updateQueue(FOLLOW_UP_QUEUE, QUEUE_OPTIONS);
  else
    await boss.createQueue(FOLLOW_UP_QUEUE, QUEUE_OPTIONS).catch(async (err) => {
      if (!(await boss.getQueue(FOLLOW_UP_QUEUE))) throw err;
    });
  const detach = attachFollowUpQueue({
    config: app.config,
    port: {
      async enqueue(tx, jobs) {
        if (jobs.length === 0) return;
        await boss.insert(
          FOLLOW_UP_QUEUE,
          jobs.map((j) => ({
            data: j.data,
            ...(j.startAfter ? { startAfter: j.startAfter } : {}),
          })),
          { db: fromDrizzle(tx as unknown as DrizzleTransactionLike, sql) },
        );
      },
    },
  });
  await boss.work<FollowUpJob>(
    FOLLOW_UP_QUEUE,
    {
      localConcurrency: 2,
      batchSize: 10,
      pollingIntervalSeconds: polling,
      notifyPollingIntervalSeconds: polling,
    },
    async (jobs) => {
      // one after another: each holds at most one pool connection
      for (const job of jobs) await processFollowUp(db, job.data.messageId);
    },
  );
  let sweeping: Promise<unknown> | null = null;
  const timer = setInterval(() => {
    if (sweeping) return;
    sweeping = sweepDueFollowUps(db)
      .catch((err) => app.log.error({ err }, 'follow-up sweep failed'))
      .finally(() => {
        sweeping = null;
      });
  }, sweepIntervalMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    detach();
    await sweeping;
  };
}
