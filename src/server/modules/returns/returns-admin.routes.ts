import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  adminReturnList,
  adminReturnSchema,
  adminReturnsQuery,
  returnDecisionBody,
} from '../../../shared/contracts/returns';
import type { LeadEvents } from '../../events/lead-events';
import type { EmailSender } from '../../lib/email-sender';
import { currentUser, requireRole } from '../../plugins/auth';
import { decideReturn, returnsQueue } from './returns.service';

const returnParams = z.object({
  id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER),
});

/** The admin's Returns queue (docs/domain.md, Returns and credits): list by status, approve or deny with a note. */
export const adminReturnsRoutes: FastifyPluginAsyncZod<{
  events: LeadEvents;
  email: EmailSender | null;
}> = async (app, opts) => {
  const admin = { onRequest: requireRole('ADMIN') };

  app.get(
    '/api/admin/returns',
    { ...admin, schema: { querystring: adminReturnsQuery, response: { 200: adminReturnList } } },
    (request) => returnsQueue(app.db, request.query.status, request.query.limit),
  );

  app.post(
    '/api/admin/returns/:id/decision',
    {
      ...admin,
      schema: {
        params: returnParams,
        body: returnDecisionBody,
        response: { 200: adminReturnSchema },
      },
    },
    async (request) => {
      const outcome = await decideReturn(
        app.db,
        app.config,
        { events: opts.events, email: opts.email },
        currentUser(request).id,
        request.params.id,
        request.body,
      );
      if (outcome.runError !== null) {
        request.log.error({ error: outcome.runError }, 'replacement run after a return failed');
      }
      return outcome.decided;
    },
  );
};
