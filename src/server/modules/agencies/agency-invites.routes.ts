import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  agencyInviteList,
  createInviteBody,
  inviteCreated,
  inviteLookup,
  inviteLookupQuery,
  inviteParams,
  joinAgencyBody,
  myAgency,
} from '../../../shared/contracts/agency';
import { clientKey } from '../../lib/client-address';
import { currentUser, requireRole } from '../../plugins/auth';
import {
  agencyInvites,
  createAgencyInvite,
  joinAgency,
  lookUpInvite,
  revokeAgencyInvite,
} from './agency-invites.service';

/**
 * Joining an agency (docs/domain.md, Agencies, "Joining"): the owner's and managers' invite
 * codes, the join page's public look-up, and an agent's join.
 */
export const agencyInviteRoutes: FastifyPluginAsyncZod = async (app) => {
  const agent = { onRequest: requireRole('AGENT') };

  app.post(
    '/api/agency/invites',
    { ...agent, schema: { body: createInviteBody, response: { 201: inviteCreated } } },
    async (request, reply) => {
      const answer = await createAgencyInvite(
        app.db,
        app.config.PUBLIC_URL,
        currentUser(request).id,
        request.body,
      );
      return reply.status(201).send(answer);
    },
  );

  app.get(
    '/api/agency/invites',
    { ...agent, schema: { response: { 200: agencyInviteList } } },
    (request) => agencyInvites(app.db, currentUser(request).id),
  );

  app.delete(
    '/api/agency/invites/:id',
    { ...agent, schema: { params: inviteParams, response: { 204: z.null() } } },
    async (request, reply) => {
      await revokeAgencyInvite(app.db, currentUser(request).id, request.params.id);
      return reply.status(204).send(null);
    },
  );

  // public: the join page shows whom the visitor is invited by before they register or log in
  app.get(
    '/api/agency/invites/lookup',
    { schema: { querystring: inviteLookupQuery, response: { 200: inviteLookup } } },
    (request) => lookUpInvite(app.db, clientKey(request.ip), request.query.code),
  );

  app.post(
    '/api/agency/join',
    { ...agent, schema: { body: joinAgencyBody, response: { 200: myAgency } } },
    (request) => joinAgency(app.db, currentUser(request).id, request.body.code),
  );
};
