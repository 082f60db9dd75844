import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { adminUser, userDisabledBody } from '../../../shared/contracts/auth';
import { currentUser, requireRole } from '../../plugins/auth';
import { setUserDisabled } from './auth.service';

const userParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

/** An admin's changes to an account: disabling and enabling it (docs/domain.md, Offboarding). */
export const adminUsersRoutes: FastifyPluginAsyncZod = async (app) => {
  app.patch(
    '/api/admin/users/:id',
    {
      onRequest: requireRole('ADMIN'),
      schema: { params: userParams, body: userDisabledBody, response: { 200: adminUser } },
    },
    (request) =>
      setUserDisabled(app.db, {
        adminId: currentUser(request).id,
        userId: request.params.id,
        disabled: request.body.disabled,
      }),
  );
};
