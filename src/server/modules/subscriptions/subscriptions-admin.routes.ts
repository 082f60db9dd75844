import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { adminAgent } from '../../../shared/contracts/admin';
import { subscriptionStatusBody } from '../../../shared/contracts/agent';
import { requireRole } from '../../plugins/auth';
import { setAgentSubscriptionStatus } from './subscriptions.service';

const agentParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

/** An admin sets any agent's subscription status; the answer is the agent's row. */
export const adminSubscriptionRoutes: FastifyPluginAsyncZod = async (app) => {
  app.patch(
    '/api/admin/agents/:id/subscription',
    {
      onRequest: requireRole('ADMIN'),
      schema: { params: agentParams, body: subscriptionStatusBody, response: { 200: adminAgent } },
    },
    (request) =>
      setAgentSubscriptionStatus(
        app.db,
        app.config.BUSINESS_TZ,
        request.params.id,
        request.body.status,
      ),
  );
};
