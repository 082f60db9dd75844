import { desc, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { healthResponse } from '../../../shared/contracts/admin';
import type { Db } from '../../db/client';
import { assignmentRuns } from '../../db/schema';

/** What a failed run shows to callers who are not admins: the database's words stay inside. */
export const RUN_FAILED = 'The assignment run failed';

/** The newest run; its error text only for admins (anyone may call /api/health). */
export async function lastAssignmentRun(db: Db, showError = true) {
  const [run] = await db.select().from(assignmentRuns).orderBy(desc(assignmentRuns.id)).limit(1);
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

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/health',
    { schema: { response: { 200: healthResponse, 503: healthResponse } } },
    async (request, reply) => {
      try {
        await app.db.execute(sql`select 1`);
        return {
          status: 'ok' as const,
          database: 'ok' as const,
          lastAssignmentRun: await lastAssignmentRun(app.db, request.user?.role === 'ADMIN'),
        };
      } catch (err) {
        request.log.error({ err }, 'health check: database down');
        return reply
          .status(503)
          .send({ status: 'degraded', database: 'down', lastAssignmentRun: null });
      }
    },
  );
};
