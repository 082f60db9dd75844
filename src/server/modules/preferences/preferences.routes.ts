import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { preferencesResponse, preferencesSchema } from '../../../shared/contracts/agent';
import { preferencesPreview, preferencesPreviewQuery } from '../../../shared/contracts/analytics';
import { currentUser, requireRole } from '../../plugins/auth';
import { getPreferences, updatePreferences } from './preferences.service';
import { previewPreferences } from './preferences-preview.service';

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

  // what the preferences being edited would have matched (docs/domain.md, Analytics that explain)
  app.get(
    '/api/agent/preferences/preview',
    {
      ...agent,
      schema: { querystring: preferencesPreviewQuery, response: { 200: preferencesPreview } },
    },
    (request) =>
      previewPreferences(app.db, currentUser(request).id, app.config.BUSINESS_TZ, request.query),
  );
};
