import type { AppConfig } from '../../config/env';
import type { Db } from '../../db/client';
import { voiceHealth } from '../calls/calls.service';
import { deliveryHealth } from '../delivery/delivery-logs.service';
import { smsHealth } from '../follow-ups/follow-ups.service';
import { findNewestRun, pingDatabase } from './health.repository';

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
