import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { adminAgent } from '../../../shared/contracts/admin';
import { requireRole } from '../../plugins/auth';
import { listAgents } from './agents.service';

/** The admin's agents table. */
export const adminAgentsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/admin/agents',
    { onRequest: requireRole('ADMIN'), schema: { response: { 200: z.array(adminAgent) } } },
    () => listAgents(app.db, app.config.BUSINESS_TZ),
  );
};
