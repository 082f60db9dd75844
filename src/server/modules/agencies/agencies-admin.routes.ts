import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  adminAgency,
  adminAgencyBody,
  adminAgencyList,
  adminAgencyParams,
} from '../../../shared/contracts/agency';
import { requireRole } from '../../plugins/auth';
import { listAgencies, setAgencyStatus } from './agencies.service';
import type { AgencySeats } from './agency-seats';

/** The platform admins' agencies (docs/domain.md, Agencies): the list, and suspending one. */
export const adminAgenciesRoutes: FastifyPluginAsyncZod<{ seats: AgencySeats }> = async (
  app,
  { seats },
) => {
  const admin = { onRequest: requireRole('ADMIN') };

  app.get('/api/admin/agencies', { ...admin, schema: { response: { 200: adminAgencyList } } }, () =>
    listAgencies(app.db),
  );

  app.patch(
    '/api/admin/agencies/:id',
    {
      ...admin,
      schema: { params: adminAgencyParams, body: adminAgencyBody, response: { 200: adminAgency } },
    },
    (request) => setAgencyStatus(app.db, seats, request.params.id, request.body.status),
  );
};
