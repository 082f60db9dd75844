import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  followUpBody,
  followUpResponse,
  followUpStatsResponse,
} from '../../../shared/contracts/follow-ups';
import { currentUser, requireRole } from '../../plugins/auth';
import { followUpStats, getFollowUp, saveFollowUp } from './follow-ups.service';

/** The agent's follow-up templates, and the admins' figures (docs/domain.md, Follow-up messages and calls). */
export const followUpRoutes: FastifyPluginAsyncZod = async (app) => {
  const agent = { onRequest: requireRole('AGENT') };

  app.get(
    '/api/agent/follow-up',
    { ...agent, schema: { response: { 200: followUpResponse } } },
    (request) => getFollowUp(app.db, app.config, currentUser(request).id),
  );

  app.put(
    '/api/agent/follow-up',
    {
      ...agent,
      schema: {
        description:
          'The follow-up templates ({firstName}, {agentName}, {agentPhone}); enabling needs the package service and a provider',
        body: followUpBody,
        response: { 200: followUpResponse },
      },
    },
    (request) => saveFollowUp(app.db, app.config, currentUser(request).id, request.body),
  );

  app.get(
    '/api/admin/follow-ups',
    {
      onRequest: requireRole('ADMIN'),
      schema: {
        description: 'Follow-up messages: the channels, volumes and failures (24 h and 7 days)',
        response: { 200: followUpStatsResponse },
      },
    },
    () => followUpStats(app.db, app.config),
  );
};
