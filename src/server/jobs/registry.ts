/**
 * Every background job (docs/decisions/023-events-and-job-registry.md): its name, which is its
 * pg-boss queue's name, its payload's zod schema, its queue's and worker's options, and its
 * handler. The worker (jobs/pg-boss-queue.ts) tells jobs apart by their name only and parses each
 * payload with its schema: a payload that does not parse fails with the schema's reason.
 *
 * Versions: every payload carries `v`. Jobs written before payloads had one (still in the pgboss
 * tables after an upgrade) have none: the schema's default reads a missing `v` as 1. A payload of
 * a new shape gets a new `v`, and the schema keeps reading the old ones until they are drained.
 */
import { z } from 'zod';
import { DELIVERY_CHANNELS } from '../../shared/domain';
import type { Db } from '../db/client';
import { type AlertPorts, processSmsAlert } from '../modules/alerts/alerts.service';
import {
  DELIVERY_LANES,
  type DeliveryPorts,
  fanOutRun,
  processDeliveryBatch,
  sweepStrandedDeliveries,
  takeOverDeliveries,
} from '../modules/delivery/deliveries.service';
import {
  type FollowUpPorts,
  processFollowUp,
  sweepDueFollowUps,
} from '../modules/follow-ups/follow-ups.service';
import {
  anonymizeExpiredLeads,
  processPrivacyTask,
  sweepPrivacyTasks,
} from '../modules/privacy/privacy.service';
import { type PushPorts, processLeadPush } from '../modules/push/push.service';
import {
  processReclaim,
  type ReclaimPorts,
  sweepOverdueReclaims,
} from '../modules/reclaim/reclaim.service';

/** v1; a payload written without a version is a v1 payload */
const v1 = z.literal(1).default(1);
const id = z.number().int().positive();

const batchBase = z.object({ v: v1, agentId: id, channel: z.enum(DELIVERY_CHANNELS) });

/** Each job's payload. */
export const JOB_PAYLOADS = {
  /**
   * One agent's deliveries on one channel: the first attempt of a batch (an id range), or the
   * next attempt of named deliveries. Before this registry a run's fan-out shared this queue
   * (`{ runId }`): such a job left over fails here with the schema's reason, and the sweeper
   * enqueues the run's fan-out again on its own queue (deliveries.service, fanOutMissedRuns).
   */
  'lead-delivery': z.union([
    batchBase.extend({ fromId: id, toId: id }),
    batchBase.extend({ ids: z.array(id).min(1), attempts: z.number().int().min(0) }),
  ]),
  /** A run to fan out into its deliveries and their batch jobs, a moment after it committed. */
  'lead-delivery-fan-out': z.object({ v: v1, runId: id }),
  /** One follow-up message to send (or to hold back). */
  'lead-follow-up': z.object({ v: v1, messageId: id }),
  /**
   * An agency's check of one assignment of one lead, due when its reclaim minutes have passed
   * (docs/domain.md, Agencies: reclaim): `assignedAt` names the assignment, to the microsecond.
   */
  'agency-reclaim': z.object({ v: v1, leadId: id, assignedAt: z.iso.datetime() }),
  /**
   * One assigned lead's push to one of its agent's devices (docs/domain.md, Alerts to the agent's
   * phone): `attempts` made before this one (the retries are jobs of their own, as a webhook's).
   */
  'lead-push': z.object({
    v: v1,
    leadId: id,
    subscriptionId: id,
    attempts: z.number().int().min(0).default(0),
  }),
  /**
   * One assigned lead's SMS alert to its agent's phone (docs/domain.md, Alerts to the agent's
   * phone): `agentId` the lead was given to, `attempts` made before this one.
   */
  'lead-sms-alert': z.object({
    v: v1,
    leadId: id,
    agentId: id,
    attempts: z.number().int().min(0).default(0),
  }),
  /**
   * One task a consumer's deletion left (docs/domain.md, Consumer deletion and retention): a CRM's
   * `lead.deleted` events or a recording removed at the provider; each retry is a job of its own.
   */
  'privacy-task': z.object({ v: v1, taskId: id }),
} as const;

export type JobName = keyof typeof JOB_PAYLOADS;
/** A payload as a handler reads it (`v` filled in). */
export type JobPayload<N extends JobName> = z.output<(typeof JOB_PAYLOADS)[N]>;
/** A payload as a module enqueues it (`v` may be left out: the current version is written). */
export type JobInput<N extends JobName> = z.input<(typeof JOB_PAYLOADS)[N]>;

/** What the handlers work with: the database and the modules' ports. */
export interface JobContext {
  db: Db;
  delivery: DeliveryPorts;
  followUp: FollowUpPorts;
  reclaim: ReclaimPorts;
  push: PushPorts;
  alerts: AlertPorts;
  /** Stripe's items of the agencies' paid seats (null without Stripe): brought in step when behind */
  agencySeats?: { syncBehind(): Promise<number> } | null;
  /** auto-recharge of the wallets below their threshold (billing, with Stripe) */
  walletRecharge?: { rechargeDue(): Promise<number> } | null;
}

export interface JobDefinition<N extends JobName> {
  /**
   * pg-boss's queue options; `heartbeatSeconds`: a running job's worker tells pg-boss it lives
   * every half of it, and a job not heard of for longer is failed (for a retry) by pg-boss's
   * monitor, which frees its group
   */
  queue: {
    retryLimit: number;
    retryDelay: number;
    expireInSeconds: number;
    heartbeatSeconds?: number;
  };
  /**
   * the worker's: jobs a fetch, fetches at once in this process; at most `groupConcurrency` jobs
   * of one group running at once in all processes together; `sideBySide`: the jobs of a fetch
   * run at the same time rather than one after another
   */
  work: {
    batchSize: number;
    localConcurrency: number;
    burstWhenBatchFull?: boolean;
    groupConcurrency?: number;
    sideBySide?: boolean;
    /**
     * more workers in each process that take only jobs of `minPriority` and above, so those
     * never wait for a worker busy with lower ones (the handler is then told each job's priority)
     */
    reserved?: { minPriority: number; localConcurrency: number };
  };
  /** `job.priority`: the job's priority (0 unless the job definition reserves workers) */
  handle(ctx: JobContext, payload: JobPayload<N>, job: { priority: number }): Promise<void>;
}

// a job that throws (the database away) is tried again; delivery retries are jobs of their own
const RETRIED = { retryLimit: 5, retryDelay: 5 };

export const JOBS: { [N in JobName]: JobDefinition<N> } = {
  'lead-delivery': {
    // the deliveries' own leases (decision 040) decide who sends; the heartbeat frees the webhook
    // group of a job whose process died, so the endpoint's next leads are not held 15 minutes
    queue: { ...RETRIED, expireInSeconds: 15 * 60, heartbeatSeconds: 10 },
    // up to 8 jobs a fetch, worked side by side, so that a job waiting on a slow CRM endpoint
    // holds back none of the others (each holds a pool connection only between its calls, never
    // while it waits for an endpoint: the pool is the app's, shared with its requests); a full
    // fetch fetches again at once (burst): a backlog drains without waiting for the poll.
    // One job of an agent's webhook group at a time, in every process together: one delivery in
    // flight per endpoint (deliveries.service, webhookGroup), so a slow one holds one worker.
    // Two lanes (decision 040): every worker takes the fresh lane's jobs first (pg-boss priority),
    // and one more per process takes nothing else, so a lead that just came in never waits
    // behind a run's fan-out, even while every other worker is busy with it
    work: {
      batchSize: 8,
      localConcurrency: 4,
      burstWhenBatchFull: true,
      groupConcurrency: 1,
      sideBySide: true,
      reserved: { minPriority: DELIVERY_LANES.fresh, localConcurrency: 1 },
    },
    handle: (ctx, job, { priority }) => processDeliveryBatch(ctx.db, ctx.delivery, job, priority),
  },
  'lead-delivery-fan-out': {
    queue: { ...RETRIED, expireInSeconds: 15 * 60 },
    work: { batchSize: 5, localConcurrency: 1 },
    handle: (ctx, job) => fanOutRun(ctx.db, ctx.delivery, job.runId),
  },
  'lead-follow-up': {
    queue: { ...RETRIED, expireInSeconds: 5 * 60 },
    work: { batchSize: 10, localConcurrency: 2 },
    handle: (ctx, job) => processFollowUp(ctx.db, ctx.followUp, job.messageId),
  },
  'agency-reclaim': {
    queue: { ...RETRIED, expireInSeconds: 5 * 60 },
    work: { batchSize: 10, localConcurrency: 1 },
    handle: async (ctx, job) => {
      await processReclaim(ctx.db, ctx.reclaim, job);
    },
  },
  'lead-push': {
    // a push service answers fast; several side by side so a slow one holds back no other
    queue: { ...RETRIED, expireInSeconds: 5 * 60 },
    // a full fetch fetches again at once (burst), so a backlog drains without waiting for the
    // poll: alerts must reach the phone within seconds (docs/domain.md, Alerts to the agent's
    // phone); 3 workers: 2 let a backlog build at 50 leads/s, 4 crowd out the webhooks on 2
    // cores (bench/README.md, Alerts to the agent's phone)
    work: { batchSize: 8, localConcurrency: 3, burstWhenBatchFull: true, sideBySide: true },
    handle: (ctx, job) => processLeadPush(ctx.db, ctx.push, job),
  },
  'lead-sms-alert': {
    // one text each; Twilio answers in a moment
    queue: { ...RETRIED, expireInSeconds: 5 * 60 },
    // as the pushes: a full fetch fetches again at once
    work: { batchSize: 8, localConcurrency: 3, burstWhenBatchFull: true, sideBySide: true },
    handle: (ctx, job) => processSmsAlert(ctx.db, ctx.alerts, job),
  },
  'privacy-task': {
    // rare, and each waits on a CRM or the provider: one at a time is enough
    queue: { ...RETRIED, expireInSeconds: 5 * 60 },
    work: { batchSize: 5, localConcurrency: 1 },
    handle: (ctx, job) => processPrivacyTask(ctx.db, ctx.delivery, job.taskId),
  },
};

export interface Sweep {
  name: string;
  /**
   * every this long; null: the queue's `sweepIntervalMs` option (a minute unless a test says); a
   * function: read from the job context (delivery's timings)
   */
  everyMs: number | null | ((ctx: JobContext) => number);
  /** also once when the queue starts */
  atStart: boolean;
  run(ctx: JobContext): Promise<unknown>;
}

/** The sweepers that run beside the workers: work left without a job. */
export const SWEEPS: Sweep[] = [
  {
    name: 'deliveries',
    everyMs: null,
    atStart: true,
    run: (ctx) => sweepStrandedDeliveries(ctx.db, ctx.delivery),
  },
  {
    // deliveries whose worker died with them claimed: taken over once its lease lapsed
    // (decision 040); every quarter of the lease
    name: 'delivery-leases',
    everyMs: (ctx) => (ctx.delivery.runtime.leaseSeconds * 1000) / 4,
    atStart: true,
    run: (ctx) => takeOverDeliveries(ctx.db, ctx.delivery),
  },
  {
    name: 'follow-ups',
    everyMs: 60_000,
    atStart: false,
    run: (ctx) => sweepDueFollowUps(ctx.db, ctx.followUp),
  },
  {
    name: 'reclaims',
    everyMs: null,
    atStart: true,
    run: (ctx) => sweepOverdueReclaims(ctx.db, ctx.reclaim),
  },
  {
    // an agency's seats changed while Stripe could not be reached (docs/domain.md, Agencies)
    name: 'agency-seats',
    everyMs: null,
    atStart: true,
    run: async (ctx) => (ctx.agencySeats ? ctx.agencySeats.syncBehind() : 0),
  },
  {
    // wallets below their auto-recharge threshold (docs/domain.md, The wallet): within 15 s of
    // the charge that took them there
    name: 'wallet-recharges',
    everyMs: 15_000,
    atStart: true,
    run: async (ctx) => (ctx.walletRecharge ? ctx.walletRecharge.rechargeDue() : 0),
  },
  {
    // a deletion's tasks whose job was lost (docs/domain.md, Consumer deletion and retention)
    name: 'privacy-tasks',
    everyMs: null,
    atStart: true,
    run: (ctx) => sweepPrivacyTasks(ctx.db, ctx.delivery),
  },
  {
    // LEAD_RETENTION_DAYS: leads older than that are anonymized, daily (and at each start)
    name: 'lead-retention',
    everyMs: 24 * 60 * 60 * 1000,
    atStart: true,
    run: (ctx) => anonymizeExpiredLeads(ctx.db, ctx.delivery),
  },
];
