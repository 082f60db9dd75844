import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { capsBody, scheduleBody, scheduleState } from '../../../shared/contracts/schedule';
import { currentUser, requireRole } from '../../plugins/auth';
import { capsOf, putCaps, putSchedule, scheduleOf } from './schedule.service';

/** The signed-in agent's schedule and caps (docs/domain.md, Schedule and caps). */
export const agentScheduleRoutes: FastifyPluginAsyncZod = async (app) => {
  const agent = { onRequest: requireRole('AGENT') };

  app.get(
    '/api/agent/schedule',
    { ...agent, schema: { response: { 200: scheduleState } } },
    (request) => scheduleOf(app.db, currentUser(request).id),
  );

  app.put(
    '/api/agent/schedule',
    { ...agent, schema: { body: scheduleBody, response: { 200: scheduleState } } },
    (request) => putSchedule(app.db, currentUser(request).id, request.body),
  );

  app.get('/api/agent/caps', { ...agent, schema: { response: { 200: capsBody } } }, (request) =>
    capsOf(app.db, currentUser(request).id),
  );

  app.put(
    '/api/agent/caps',
    { ...agent, schema: { body: capsBody, response: { 200: capsBody } } },
    (request) => putCaps(app.db, currentUser(request).id, request.body),
  );
};
