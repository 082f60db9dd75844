import type { FastifyInstance } from 'fastify';
import { sessionPolicy } from '../../plugins/auth';
import { sweepEndedWindows } from '../rate-limits/rate-limits.service';
import { deleteExpiredSessions } from './sessions.repository';

/**
 * How often each worker process (PROCESS_ROLE all or worker) deletes the sessions past their absolute expiry or idle too long
 * (SECURITY.md, Session theft and fixation). Such a session already opens nothing; the sweep only keeps the table
 * from growing with sessions nobody logged out of.
 */
export const SESSION_SWEEP_MS = 60 * 60_000;

/**
 * One sweep: deletes every expired session, and the throttles' attempt windows that ended (such
 * a row limits nothing; decision 039). The timer runs it; tests call it directly.
 */
export async function sweepExpiredSessions(app: FastifyInstance): Promise<void> {
  await deleteExpiredSessions(app.db, sessionPolicy(app));
  await sweepEndedWindows(app.db);
}

/**
 * Sweeps every `everyMs` once the app is ready, until it closes. The timer is unref'd, so it never
 * keeps a process alive; a failed sweep is logged and the next one tries again.
 */
export function startSessionSweeper(app: FastifyInstance, everyMs = SESSION_SWEEP_MS): void {
  let timer: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    timer = setInterval(() => {
      sweepExpiredSessions(app).catch((err) => app.log.error({ err }, 'session sweep failed'));
    }, everyMs);
    timer.unref();
  });
  app.addHook('onClose', async () => clearInterval(timer));
}
