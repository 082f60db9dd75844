/** The delivery jobs as the queue holds them: their lanes, an endpoint's group, a job's shape. */
import type { QueuedJob } from '../../jobs/job-queue';
import type { JobInput } from '../../jobs/registry';

/**
 * The queue's group of an agent's webhook jobs: one of them runs at a time in every process
 * together (jobs/registry.ts), so a slow endpoint holds one worker, never the others' turns.
 */
export const webhookGroup = (agentId: number) => `webhook:${agentId}`;

/**
 * The delivery jobs' lanes, as their pg-boss priority (decision 040): a run's fan-out goes in the
 * run lane; everything else (the intake, a hand assignment, a reassignment, a reclaim, an admin's
 * retry, deliveries taken over from a worker that died) in the fresh lane, fetched first and with
 * a worker of its own in every process. A retry stays in its delivery's lane.
 */
export const DELIVERY_LANES = { fresh: 1, run: 0 } as const;

/** A lead-delivery job, in its endpoint's group when it is a webhook's. */
export function deliveryJob(
  data: JobInput<'lead-delivery'>,
  lane: number,
  startAfter?: Date,
  grouped = true,
): QueuedJob<'lead-delivery'> {
  return {
    data,
    ...(startAfter ? { startAfter } : {}),
    ...(data.channel === 'WEBHOOK' && grouped ? { group: webhookGroup(data.agentId) } : {}),
    ...(lane ? { priority: lane } : {}),
  };
}
