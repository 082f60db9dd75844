import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { adminAgent } from '../../../shared/contracts/admin';
import { licensesBody } from '../../../shared/contracts/licences';
import { requireRole } from '../../plugins/auth';
import { setLicensedStates } from './licences.service';

const agentParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

/** Each agent's licensed states, set by an admin (docs/domain.md, Licensed states). */
export const licencesRoutes: FastifyPluginAsyncZod = async (app) => {
  app.put(
    '/api/admin/agents/:id/licenses',
    {
      onRequest: requireRole('ADMIN'),
      schema: { params: agentParams, body: licensesBody, response: { 200: adminAgent } },
    },
    (request) =>
      setLicensedStates(app.db, app.config.BUSINESS_TZ, request.params.id, request.body.states),
  );
};
