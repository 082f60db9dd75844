import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  healthResponse,
  livenessResponse,
  readinessResponse,
} from '../../../shared/contracts/admin';
import { checkHealth, checkReadiness } from './health.service';

/**
 * The health routes, public (docs/OPERATIONS.md): GET /api/health (the database, the newest
 * assignment run, the delivery channels; 503 when the database is down), and the probes of a
 * load balancer or orchestrator: /api/health/live (the process answers) and /api/health/ready
 * (it can take traffic; 503 otherwise).
 */
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
          requestId: request.id,
        });
      }
    },
  );

  app.get('/api/health/live', { schema: { response: { 200: livenessResponse } } }, () => ({
    status: 'ok' as const,
  }));

  app.get(
    '/api/health/ready',
    { schema: { response: { 200: readinessResponse, 503: readinessResponse } } },
    async (request, reply) => {
      const readiness = await checkReadiness(app.db, app.processState);
      if (readiness.status === 'ready') return readiness;
      request.log.warn({ readiness }, 'not ready');
      return reply.status(503).send({ ...readiness, requestId: request.id });
    },
  );
};
