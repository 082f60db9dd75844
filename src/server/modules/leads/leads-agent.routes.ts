import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { leadViewed } from '../../../shared/contracts/alerts';
import {
  agentLeadListQuery,
  leadIdParams,
  leadSchema,
  statusUpdateBody,
} from '../../../shared/contracts/leads';
import { sendJsonText } from '../../lib/json-text';
import { currentUser, requireRole } from '../../plugins/auth';
import { markLeadViewed } from './lead-views.service';
import { leadJson, listOwnLeads, updateOwnLeadStatus } from './leads.service';

/** My Leads: the signed-in agent's own leads only (another agent's lead is a 404). */
export const agentLeadsRoutes: FastifyPluginAsyncZod = async (app) => {
  const agent = { onRequest: requireRole('AGENT') };

  app.get(
    '/api/agent/leads',
    {
      ...agent,
      schema: { querystring: agentLeadListQuery, response: { 200: z.array(leadSchema) } },
    },
    async (request, reply) => {
      // without ?limit every lead (the spec's call); the page asks for one page at a time
      const page = await listOwnLeads(app.db, currentUser(request).id, request.query);
      reply.header('X-Total-Count', String(page.total));
      return sendJsonText(reply, page.leadsJson);
    },
  );

  // a link to the lead (the email's "Open it", the bell): the agent's own lead only
  app.get(
    '/api/agent/leads/:id',
    { ...agent, schema: { params: leadIdParams, response: { 200: leadSchema } } },
    async (request, reply) =>
      sendJsonText(reply, await leadJson(app.db, request.params.id, currentUser(request).id)),
  );

  app.post(
    '/api/agent/leads/:id/status',
    {
      ...agent,
      schema: { params: leadIdParams, body: statusUpdateBody, response: { 200: leadSchema } },
    },
    (request) =>
      updateOwnLeadStatus(app.db, currentUser(request).id, request.params.id, request.body.status),
  );

  // the agent opened the lead (its drawer, a push, an SMS link): the first view is kept
  app.post(
    '/api/agent/leads/:id/viewed',
    {
      ...agent,
      schema: {
        description:
          "The agent opened their lead: the first view since it was given to them is kept (speed to open); another agent's lead is a 404",
        params: leadIdParams,
        response: { 200: leadViewed },
      },
    },
    (request) => markLeadViewed(app.db, currentUser(request).id, request.params.id),
  );
};
