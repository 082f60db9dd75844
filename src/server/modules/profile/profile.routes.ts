import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { profileBody, profileResponse } from '../../../shared/contracts/calls';
import { currentUser, requireRole } from '../../plugins/auth';
import { getProfile, updateProfile } from './profile.service';

/** The signed-in agent's profile: their own phone (docs/domain.md, Follow-up messages and calls). */
export const profileRoutes: FastifyPluginAsyncZod = async (app) => {
  const agent = { onRequest: requireRole('AGENT') };

  app.get(
    '/api/agent/profile',
    { ...agent, schema: { response: { 200: profileResponse } } },
    (request) => getProfile(app.db, currentUser(request).id),
  );

  app.put(
    '/api/agent/profile',
    {
      ...agent,
      schema: {
        description: "The agent's phone, E.164 (common US forms accepted); null clears it",
        body: profileBody,
        response: { 200: profileResponse },
      },
    },
    (request) => updateProfile(app.db, currentUser(request).id, request.body),
  );
};
