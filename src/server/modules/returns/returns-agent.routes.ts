import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  leadReturnSchema,
  leadReturnState,
  returnRequestBody,
} from '../../../shared/contracts/returns';
import { currentUser, requireRole } from '../../plugins/auth';
import { requestReturn, returnOfLead } from './returns.service';

const leadParams = z.object({
  id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER),
});

/** The agent's returns (docs/domain.md, Returns and credits): ask to return an own lead, and see that request's state. */
export const agentReturnsRoutes: FastifyPluginAsyncZod = async (app) => {
  const agent = { onRequest: requireRole('AGENT') };

  app.post(
    '/api/agent/leads/:id/return',
    {
      ...agent,
      schema: { params: leadParams, body: returnRequestBody, response: { 201: leadReturnSchema } },
    },
    async (request, reply) => {
      const created = await requestReturn(
        app.db,
        app.config,
        currentUser(request).id,
        request.params.id,
        request.body,
      );
      return reply.status(201).send(created);
    },
  );

  app.get(
    '/api/agent/leads/:id/return',
    { ...agent, schema: { params: leadParams, response: { 200: leadReturnState } } },
    (request) => returnOfLead(app.db, currentUser(request).id, request.params.id),
  );
};
