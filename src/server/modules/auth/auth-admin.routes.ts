import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { inviteBody, linkResponse } from '../../../shared/contracts/auth';
import { currentUser, requireRole } from '../../plugins/auth';
import { createInvite } from './auth.service';
import { adminResetLink } from './passwords.service';

const userParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

/** Links an admin hands over (docs/domain.md, Accounts): a password reset, an invite. */
export const authAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/admin/users/:id/reset-link',
    {
      onRequest: requireRole('ADMIN'),
      schema: { params: userParams, response: { 200: linkResponse } },
    },
    async (request) => ({
      url: await adminResetLink(app.db, app.config.PUBLIC_URL, request.params.id),
    }),
  );

  app.post(
    '/api/admin/invites',
    {
      onRequest: requireRole('ADMIN'),
      schema: { body: inviteBody, response: { 201: linkResponse } },
    },
    async (request, reply) => {
      const url = await createInvite(
        app.db,
        app.config.PUBLIC_URL,
        currentUser(request).id,
        request.body.email ?? null,
      );
      return reply.status(201).send({ url });
    },
  );
};
