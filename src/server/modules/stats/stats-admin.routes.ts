import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { adminStats } from '../../../shared/contracts/admin';
import { requireRole } from '../../plugins/auth';
import { getAdminStats } from './stats-admin.service';

/** The admin dashboard's numbers. */
export const adminStatsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/admin/stats',
    { onRequest: requireRole('ADMIN'), schema: { response: { 200: adminStats } } },
    () => getAdminStats(app.db),
  );
};
