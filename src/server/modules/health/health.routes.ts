import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { healthResponse } from '../../../shared/contracts/admin';
import { checkHealth } from './health.service';

/** GET /api/health: public; 503 when the database is down. */
export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/health',
    { schema: { response: { 200: healthResponse, 503: healthResponse } } },
    async (request, reply) => {
      try {
        const health = await checkHealth(app.db, request.user?.role === 'ADMIN', app.config);
        return { ...health, businessTimeZone: app.config.BUSINESS_TZ };
      } catch (err) {
        request.log.error({ err }, 'health check: database down');
        return reply.status(503).send({
          status: 'degraded',
          database: 'down',
          lastAssignmentRun: null,
          businessTimeZone: app.config.BUSINESS_TZ,
        });
      }
    },
  );
};
