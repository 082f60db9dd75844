import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  agentStats,
  preferencesResponse,
  preferencesSchema,
  subscribeBody,
  subscriptionSummary,
} from '../../../shared/contracts/agent';
import { leadListQuery, leadSchema, statusUpdateBody } from '../../../shared/contracts/leads';
import { sendJsonText } from '../../lib/json-text';
import { currentUser, requireRole } from '../../plugins/auth';
import { listOwnLeads, updateOwnLeadStatus } from './agent-leads.service';
import { getAgentStats } from './agent-stats.service';
import { getPreferences, updatePreferences } from './preferences.service';
import { cancelSubscription, subscribe } from './subscription.service';

const leadParams = z.object({
  id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER),
});

/** The agent workspace: every route is the signed-in agent's own data only. */
export const agentRoutes: FastifyPluginAsyncZod = async (app) => {
  const agent = { onRequest: requireRole('AGENT') };

  app.get('/api/agent/stats', { ...agent, schema: { response: { 200: agentStats } } }, (request) =>
    getAgentStats(app.db, app.config.BUSINESS_TZ, currentUser(request).id),
  );

  app.get(
    '/api/agent/leads',
    { ...agent, schema: { querystring: leadListQuery, response: { 200: z.array(leadSchema) } } },
    async (request, reply) => {
      // without ?limit every lead (the spec's call); the page asks for one page at a time
      const page = await listOwnLeads(app.db, currentUser(request).id, request.query);
      reply.header('X-Total-Count', String(page.total));
      return sendJsonText(reply, page.leadsJson);
    },
  );

  app.post(
    '/api/agent/leads/:id/status',
    {
      ...agent,
      schema: { params: leadParams, body: statusUpdateBody, response: { 200: leadSchema } },
    },
    (request) =>
      updateOwnLeadStatus(app.db, currentUser(request).id, request.params.id, request.body.status),
  );

  app.get(
    '/api/agent/preferences',
    { ...agent, schema: { response: { 200: preferencesResponse } } },
    (request) => getPreferences(app.db, currentUser(request).id),
  );

  app.put(
    '/api/agent/preferences',
    { ...agent, schema: { body: preferencesSchema, response: { 200: preferencesResponse } } },
    (request) => updatePreferences(app.db, currentUser(request).id, request.body),
  );

  app.post(
    '/api/agent/subscription',
    { ...agent, schema: { body: subscribeBody, response: { 200: subscriptionSummary } } },
    (request) => subscribe(app.db, currentUser(request).id, request.body.packageId),
  );

  app.delete(
    '/api/agent/subscription',
    { ...agent, schema: { response: { 200: subscriptionSummary } } },
    (request) => cancelSubscription(app.db, currentUser(request).id),
  );
};
