import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { analytics } from '../../../shared/contracts/admin';
import { requireRole } from '../../plugins/auth';
import { getAnalytics } from './analytics.service';

/** The admin's analytics screen. */
export const analyticsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/admin/analytics',
    { onRequest: requireRole('ADMIN'), schema: { response: { 200: analytics } } },
    () => getAnalytics(app.db, app.config.BUSINESS_TZ),
  );
};
