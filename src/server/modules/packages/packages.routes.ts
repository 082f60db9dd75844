import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  offeredPackageSchema,
  packageActiveBody,
  packagePayload,
  packageSchema,
  priceList,
} from '../../../shared/contracts/packages';
import { requireRole } from '../../plugins/auth';
import { servicesAvailable } from '../calls/calls.service';
import {
  changePackageActive,
  createPackage,
  editPackage,
  getPriceList,
  listAllPackages,
  listOfferedPackages,
  setPriceList,
} from './packages.service';

const idParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

export const packagesRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/api/packages', { schema: { response: { 200: z.array(offeredPackageSchema) } } }, () =>
    listOfferedPackages(app.db, servicesAvailable(app.config)),
  );

  const admin = { onRequest: requireRole('ADMIN') };

  app.get(
    '/api/admin/packages',
    { ...admin, schema: { response: { 200: z.array(packageSchema) } } },
    () => listAllPackages(app.db),
  );

  app.post(
    '/api/admin/packages',
    { ...admin, schema: { body: packagePayload, response: { 201: packageSchema } } },
    async (request, reply) => reply.status(201).send(await createPackage(app.db, request.body)),
  );

  app.put(
    '/api/admin/packages/:id',
    {
      ...admin,
      schema: { params: idParams, body: packagePayload, response: { 200: packageSchema } },
    },
    (request) => editPackage(app.db, request.params.id, request.body),
  );

  app.patch(
    '/api/admin/packages/:id',
    {
      ...admin,
      schema: { params: idParams, body: packageActiveBody, response: { 200: packageSchema } },
    },
    (request) => changePackageActive(app.db, request.params.id, request.body.active),
  );

  app.get(
    '/api/admin/packages/:id/prices',
    { ...admin, schema: { params: idParams, response: { 200: priceList } } },
    (request) => getPriceList(app.db, request.params.id),
  );

  app.put(
    '/api/admin/packages/:id/prices',
    { ...admin, schema: { params: idParams, body: priceList, response: { 200: priceList } } },
    (request) => setPriceList(app.db, request.params.id, request.body),
  );
};
