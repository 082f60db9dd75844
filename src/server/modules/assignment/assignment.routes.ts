import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { assignmentRun, assignmentRunResult } from '../../../shared/contracts/admin';
import { assignLeadBody, leadSchema } from '../../../shared/contracts/leads';
import type { LeadEvents } from '../../events/lead-events';
import { currentUser, requireRole } from '../../plugins/auth';
import { listRecentRuns } from './assignment.service';
import { assignLeadManually } from './manual-assignment.service';
import { runAssignment } from './run-assignment.service';

const runsQuery = z.object({ limit: z.coerce.number().int().min(1).max(100).default(20) });
const failure = z.object({ message: z.string(), requestId: z.string() });

/** The engine's runs (run now, recent runs) and an admin's assignment of one lead by hand. */
export const assignmentRoutes: FastifyPluginAsyncZod<{ events: LeadEvents }> = async (
  app,
  opts,
) => {
  const admin = { onRequest: requireRole('ADMIN') };

  app.post(
    '/api/admin/assignment/run',
    { ...admin, schema: { response: { 200: assignmentRunResult, 500: failure } } },
    async (request, reply) => {
      const run = await runAssignment(app.db, app.config, {
        trigger: 'MANUAL',
        events: opts.events,
      });
      // a MANUAL run is never skipped; only SCHEDULE runs can find their key taken
      if (!run) throw new Error('assignment run skipped');
      if (run.error !== null) {
        request.log.error({ runId: run.id, error: run.error }, 'assignment run failed');
        return reply.status(500).send({
          message: `Assignment run #${run.id} failed; the error is recorded in the run history`,
          requestId: request.id,
        });
      }
      return run;
    },
  );

  app.get(
    '/api/admin/assignment/runs',
    { ...admin, schema: { querystring: runsQuery, response: { 200: z.array(assignmentRun) } } },
    (request) => listRecentRuns(app.db, request.query.limit),
  );

  app.post(
    '/api/admin/leads/assign',
    { ...admin, schema: { body: assignLeadBody, response: { 200: leadSchema } } },
    (request) =>
      assignLeadManually(app.db, opts.events, {
        leadId: request.body.leadId,
        agentId: request.body.userId,
        fromAgentId: request.body.fromAgentId,
        actorId: currentUser(request).id,
        timeZone: app.config.BUSINESS_TZ,
        windows: app.config.ENROLLMENT_WINDOWS,
      }),
  );
};
