import type { AppConfig } from '../../config/env';
import type { Db } from '../../db/client';
import { readJournal } from '../../db/landed-migrations';
import { voiceHealth } from '../calls/calls.service';
import { deliveryHealth } from '../delivery/delivery-logs.service';
import { smsHealth } from '../follow-ups/follow-ups.service';
import {
  findNewestRun,
  newestAppliedMigration,
  pingDatabase,
  queueBacklog,
} from './health.repository';

/** What a failed run shows to callers who are not admins: the database's words stay inside. */
export const RUN_FAILED = 'The assignment run failed';

/** The newest run; its error text only for admins (anyone may call /api/health). */
export async function lastAssignmentRun(db: Db, showError = true) {
  const run = await findNewestRun(db);
  if (!run) return null;
  return {
    id: run.id,
    trigger: run.trigger,
    businessDate: run.businessDate,
    eligibleAgents: run.eligibleAgents,
    candidateLeads: run.candidateLeads,
    assigned: run.assigned,
    durationMs: run.durationMs,
    error: run.error === null || showError ? run.error : RUN_FAILED,
    startedAt: run.startedAt.toISOString(),
  };
}

/** The health answer: the database reached, the newest assignment run, the delivery channels. */
export async function checkHealth(db: Db, isAdmin: boolean, config: AppConfig) {
  await pingDatabase(db);
  const [delivery, sms, voice] = await Promise.all([
    deliveryHealth(db, config),
    smsHealth(db, config),
    voiceHealth(db, config),
  ]);
  return {
    status: 'ok' as const,
    database: 'ok' as const,
    lastAssignmentRun: await lastAssignmentRun(db, isAdmin),
    // the delivery channels from their recent attempts, and the queue's backlog
    channels: { ...delivery, sms, voice },
  };
}

/** The newest migration this build ships (its journal time): read once. */
let shipped: number | undefined;
function newestShippedMigration(): number {
  shipped ??= Math.max(...readJournal().map((entry) => entry.when));
  return shipped;
}

export interface ProcessState {
  queueRunning(): boolean;
  workersExpected: boolean;
}

/**
 * Whether this process can take traffic (GET /api/health/ready): the database answers, every
 * migration this build ships is applied, and the job queue's workers run where this process is
 * meant to run them (PROCESS_ROLE all or worker). Never throws: a database that is away is a
 * "down".
 */
export async function checkReadiness(db: Db, state: ProcessState) {
  let database: 'ok' | 'down' = 'ok';
  let migrations: 'ok' | 'pending' | 'unknown' = 'unknown';
  try {
    await pingDatabase(db);
    const newest = await newestAppliedMigration(db);
    migrations = newest !== null && newest >= newestShippedMigration() ? 'ok' : 'pending';
  } catch {
    database = 'down';
  }
  const workers: 'ok' | 'down' | 'not run here' = !state.workersExpected
    ? 'not run here'
    : state.queueRunning()
      ? 'ok'
      : 'down';
  const ready = database === 'ok' && migrations === 'ok' && workers !== 'down';
  return {
    status: ready ? ('ready' as const) : ('not ready' as const),
    database,
    migrations,
    workers,
  };
}

/** The job queue's backlog per queue, for the metrics' gauges. */
export function jobQueueBacklog(db: Db) {
  return queueBacklog(db);
}
