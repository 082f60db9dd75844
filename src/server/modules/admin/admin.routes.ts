import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { adminAgent, adminStats, analytics } from '../../../shared/contracts/admin';
import { subscriptionStatusBody } from '../../../shared/contracts/agent';
import { AppError, notFound } from '../../lib/app-error';
import { businessDate } from '../../lib/business-time';
import { requireRole } from '../../plugins/auth';
import { adminStats as loadAdminStats } from './admin-stats.repository';
import { listAdminAgents, setSubscriptionStatus } from './agents.repository';
import { analytics as loadAnalytics } from './analytics.repository';

const agentParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

/** The admin's read-outs: dashboard stats, the agents table and analytics. */
export const adminRoutes: FastifyPluginAsyncZod = async (app) => {
  const admin = { onRequest: requireRole('ADMIN') };
  const today = () => businessDate(app.config.BUSINESS_TZ);

  app.get('/api/admin/stats', { ...admin, schema: { response: { 200: adminStats } } }, () =>
    loadAdminStats(app.db),
  );

  app.get(
    '/api/admin/agents',
    { ...admin, schema: { response: { 200: z.array(adminAgent) } } },
    () => listAdminAgents(app.db, today()),
  );

  app.patch(
    '/api/admin/agents/:id/subscription',
    {
      ...admin,
      schema: { params: agentParams, body: subscriptionStatusBody, response: { 200: adminAgent } },
    },
    async (request) => {
      const { id } = request.params;
      const changed = await setSubscriptionStatus(app.db, id, request.body.status);
      const [agent] = await listAdminAgents(app.db, today(), id);
      if (!agent) throw notFound('Agent');
      if (!changed) throw new AppError('NOT_FOUND', 'This agent has no subscription');
      return agent;
    },
  );

  app.get('/api/admin/analytics', { ...admin, schema: { response: { 200: analytics } } }, () =>
    loadAnalytics(app.db, today(), app.config.BUSINESS_TZ),
  );
};
