import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import { AppError } from '../../lib/app-error';
import { collectQueues, registry } from '../../lib/metrics';

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * GET /metrics (docs/OPERATIONS.md): the process's metrics in Prometheus' text format, for the
 * bearer of METRICS_TOKEN only (compared in constant time); without METRICS_TOKEN the route is
 * not served (404). Outside /api: no session, no cookie, no OpenAPI entry.
 */
export const metricsRoutes: FastifyPluginAsync = async (app) => {
  const token = app.config.METRICS_TOKEN;
  const expected = token ? digest(token) : null;
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (!expected) throw new AppError('NOT_FOUND', 'Not found');
    const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
    if (!match || !timingSafeEqual(digest(match[1]), expected)) {
      throw new AppError(
        'UNAUTHORIZED',
        'Send the metrics token as Authorization: Bearer <token>',
        {
          'WWW-Authenticate': 'Bearer',
        },
      );
    }
    await collectQueues().catch((err) =>
      request.log.warn({ err }, 'metrics: the queue backlog could not be read'),
    );
    return reply
      .header('content-type', registry.contentType)
      .header('cache-control', 'no-store')
      .send(await registry.metrics());
  });
};
