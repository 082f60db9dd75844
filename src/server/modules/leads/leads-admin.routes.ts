import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { leadIdParams, leadListQuery, leadSchema } from '../../../shared/contracts/leads';
import { sendJsonText } from '../../lib/json-text';
import { requireRole } from '../../plugins/auth';
import { leadJson, listLeads, type UnfitLeadGroups } from './leads.service';

/** The admin's leads list: paged, searched and counted by the database. */
export const adminLeadsRoutes: FastifyPluginAsyncZod<{ unfitGroups: UnfitLeadGroups }> = async (
  app,
  opts,
) => {
  app.get(
    '/api/admin/leads',
    {
      onRequest: requireRole('ADMIN'),
      schema: { querystring: leadListQuery, response: { 200: z.array(leadSchema) } },
    },
    async (request, reply) => {
      const page = await listLeads(app.db, request.query, opts.unfitGroups);
      reply.header('X-Total-Count', String(page.total));
      // a search with more matches than it counts: the total is a lower bound
      if (!page.exact) reply.header('X-Total-Count-Exact', 'false');
      return sendJsonText(reply, page.leadsJson);
    },
  );

  // a link to the lead (/admin/leads?lead=ID)
  app.get(
    '/api/admin/leads/:id',
    {
      onRequest: requireRole('ADMIN'),
      schema: { params: leadIdParams, response: { 200: leadSchema } },
    },
    async (request, reply) => sendJsonText(reply, await leadJson(app.db, request.params.id)),
  );
};
