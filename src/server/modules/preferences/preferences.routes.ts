import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { preferencesResponse, preferencesSchema } from '../../../shared/contracts/agent';
import { currentUser, requireRole } from '../../plugins/auth';
import { getPreferences, updatePreferences } from './preferences.service';

/** The signed-in agent's lead preferences. */
export const preferencesRoutes: FastifyPluginAsyncZod = async (app) => {
  const agent = { onRequest: requireRole('AGENT') };

  app.get(
    '/api/agent/preferences',
    { ...agent, schema: { response: { 200: preferencesResponse } } },
    (request) => getPreferences(app.db, currentUser(request).id),
  );

  app.put(
    '/api/agent/preferences',
    { ...agent, schema: { body: preferencesSchema, response: { 200: preferencesResponse } } },
    (request) => updatePreferences(app.db, currentUser(request).id, request.body),
  );
};
