import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { adminAgent, adminAgentsQuery, approvalBody } from '../../../shared/contracts/admin';
import { requireRole } from '../../plugins/auth';
import { decideApproval, listAgents } from './agents.service';

const agentParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

/** The admin's agents table, and the decision on an agent waiting for approval. */
export const adminAgentsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/admin/agents',
    {
      onRequest: requireRole('ADMIN'),
      schema: { querystring: adminAgentsQuery, response: { 200: z.array(adminAgent) } },
    },
    (request) => listAgents(app.db, app.config.BUSINESS_TZ, request.query.approval),
  );

  app.post(
    '/api/admin/agents/:id/approval',
    {
      onRequest: requireRole('ADMIN'),
      schema: { params: agentParams, body: approvalBody, response: { 200: adminAgent } },
    },
    (request) =>
      decideApproval(app.db, app.config.BUSINESS_TZ, request.params.id, request.body.approve),
  );
};
