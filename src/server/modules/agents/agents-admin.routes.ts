import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { adminAgent } from '../../../shared/contracts/admin';
import { licensesBody } from '../../../shared/contracts/licences';
import { requireRole } from '../../plugins/auth';
import { listAgents, setLicensedStates } from './agents.service';

const agentParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

/** The admin's agents table, and each agent's licensed states (docs/domain.md, Licensed states). */
export const adminAgentsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/admin/agents',
    { onRequest: requireRole('ADMIN'), schema: { response: { 200: z.array(adminAgent) } } },
    () => listAgents(app.db, app.config.BUSINESS_TZ),
  );

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
