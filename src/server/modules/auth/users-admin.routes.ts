import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  adminUser,
  twoFactorResetResponse,
  userDisabledBody,
} from '../../../shared/contracts/auth';
import { currentUser, requireRole } from '../../plugins/auth';
import { setUserDisabled } from './auth.service';
import { resetSecondFactors } from './passkeys.service';

const userParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

/**
 * An admin's changes to an account: disabling and enabling it (docs/domain.md, Offboarding), and
 * resetting a lost second factor (docs/domain.md, Accounts: two factors).
 */
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

  // the audit hook records it (the admin as actor, the user as target)
  app.post(
    '/api/admin/users/:id/two-factor/reset',
    {
      onRequest: requireRole('ADMIN'),
      schema: { params: userParams, response: { 200: twoFactorResetResponse } },
    },
    async (request) => {
      const removed = await resetSecondFactors(app.db, {
        adminId: currentUser(request).id,
        userId: request.params.id,
      });
      return {
        message:
          'Second factors removed; the user signs in with the password and may set them up again',
        ...removed,
      };
    },
  );
};
