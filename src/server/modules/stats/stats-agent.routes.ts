import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { agentStats } from '../../../shared/contracts/agent';
import { currentUser, requireRole } from '../../plugins/auth';
import { getAgentStats } from './stats-agent.service';

/** The agent dashboard's numbers. */
export const agentStatsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/agent/stats',
    { onRequest: requireRole('AGENT'), schema: { response: { 200: agentStats } } },
    (request) => getAgentStats(app.db, app.config.BUSINESS_TZ, currentUser(request).id),
  );
};
