import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { pauseBody, pauseState } from '../../../shared/contracts/pause';
import { currentUser, requireRole } from '../../plugins/auth';
import { pauseDeliveries, pauseOf, resumeDeliveries } from './pause.service';

/** The signed-in agent's pause (docs/domain.md, Pause): read, pause until a date or until resumed, resume. */
export const agentPauseRoutes: FastifyPluginAsyncZod = async (app) => {
  const agent = { onRequest: requireRole('AGENT') };
  const tz = app.config.BUSINESS_TZ;

  app.get('/api/agent/pause', { ...agent, schema: { response: { 200: pauseState } } }, (request) =>
    pauseOf(app.db, currentUser(request).id, tz),
  );

  app.put(
    '/api/agent/pause',
    { ...agent, schema: { body: pauseBody, response: { 200: pauseState } } },
    (request) => pauseDeliveries(app.db, currentUser(request).id, request.body.until, tz),
  );

  app.delete(
    '/api/agent/pause',
    { ...agent, schema: { response: { 200: pauseState } } },
    (request) => resumeDeliveries(app.db, currentUser(request).id, tz),
  );
};
