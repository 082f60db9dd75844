import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  apiKeySchema,
  createdApiKey,
  sourceBody,
  sourcePatchBody,
  sourceSchema,
} from '../../../shared/contracts/sources';
import { requireRole } from '../../plugins/auth';
import { createApiKey, listApiKeys, revokeApiKey } from './api-keys.service';
import { createSource, editSource, listSources } from './sources.service';

const id = z.coerce.number().int().positive().max(2_147_483_647);
const sourceParams = z.object({ id });
const keyParams = z.object({ id, keyId: id });

/** Admins' sources and their API keys (docs/domain.md, Sources and the intake API). */
export const sourcesRoutes: FastifyPluginAsyncZod = async (app) => {
  const admin = { onRequest: requireRole('ADMIN') };

  app.get(
    '/api/admin/sources',
    { ...admin, schema: { response: { 200: z.array(sourceSchema) } } },
    () => listSources(app.db),
  );

  app.post(
    '/api/admin/sources',
    { ...admin, schema: { body: sourceBody, response: { 201: sourceSchema } } },
    async (request, reply) =>
      reply.status(201).send(
        await createSource(app.db, request.body, {
          trustedFormConfigured: Boolean(app.config.TRUSTEDFORM_API_KEY),
        }),
      ),
  );

  app.patch(
    '/api/admin/sources/:id',
    {
      ...admin,
      schema: { params: sourceParams, body: sourcePatchBody, response: { 200: sourceSchema } },
    },
    (request) =>
      editSource(app.db, request.params.id, request.body, {
        trustedFormConfigured: Boolean(app.config.TRUSTEDFORM_API_KEY),
      }),
  );

  app.get(
    '/api/admin/sources/:id/keys',
    { ...admin, schema: { params: sourceParams, response: { 200: z.array(apiKeySchema) } } },
    (request) => listApiKeys(app.db, request.params.id),
  );

  app.post(
    '/api/admin/sources/:id/keys',
    { ...admin, schema: { params: sourceParams, response: { 201: createdApiKey } } },
    async (request, reply) => reply.status(201).send(await createApiKey(app.db, request.params.id)),
  );

  app.delete(
    '/api/admin/sources/:id/keys/:keyId',
    { ...admin, schema: { params: keyParams, response: { 200: apiKeySchema } } },
    (request) => revokeApiKey(app.db, request.params.id, request.params.keyId),
  );
};
