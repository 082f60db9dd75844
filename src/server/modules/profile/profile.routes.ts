import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  phoneCodeBody,
  phoneCodeSentResponse,
  profileBody,
  profileResponse,
} from '../../../shared/contracts/calls';
import { currentUser, requireRole } from '../../plugins/auth';
import { confirmPhoneCode, sendPhoneCode } from './phone-verification.service';
import { getProfile, updateProfile } from './profile.service';

/** The signed-in agent's profile: their own phone and its verification (docs/domain.md, Follow-up messages and calls). */
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
        description:
          "The agent's phone, E.164 (common US forms accepted): a line of a served country, no premium-rate or special number; null clears it. A new number is unverified",
        body: profileBody,
        response: { 200: profileResponse },
      },
    },
    (request) => updateProfile(app.db, app.config, currentUser(request).id, request.body),
  );

  app.post(
    '/api/agent/profile/phone/verify',
    {
      ...agent,
      schema: {
        description:
          "Sends a 6-digit code by SMS to the agent's saved phone, good for 10 minutes and 5 tries (a new code at most once a minute and 5 a day: 429)",
        response: { 202: phoneCodeSentResponse },
      },
    },
    async (request, reply) => {
      const sent = await sendPhoneCode(
        app.db,
        app.config,
        app.leadPorts.followUp.sms,
        currentUser(request).id,
      );
      return reply.status(202).send(sent);
    },
  );

  app.post(
    '/api/agent/profile/phone/confirm',
    {
      ...agent,
      schema: {
        description:
          'The code sent last: the phone is verified (400 wrong code, 409 expired or none, 429 tries spent)',
        body: phoneCodeBody,
        response: { 200: profileResponse },
      },
    },
    async (request) => {
      const userId = currentUser(request).id;
      await confirmPhoneCode(app.db, userId, request.body.code);
      return getProfile(app.db, userId);
    },
  );
};
