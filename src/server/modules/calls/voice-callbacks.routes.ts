import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  readTwilioForms,
  signedCallback,
  TWILIO_CALLBACK_BODY_LIMIT,
} from '../../lib/twilio-callbacks';
import {
  connectTwiml,
  handleDialResult,
  handleRecording,
  handleVoiceStatus,
} from './calls.service';

const CALLBACK_BODY_LIMIT = TWILIO_CALLBACK_BODY_LIMIT;
const params = z.record(z.string(), z.string());
const TWIML = 'text/xml; charset=utf-8';

/**
 * Twilio's voice callbacks (docs/domain.md, Follow-up messages and calls), server to server: no session; each is verified by its
 * X-Twilio-Signature (403 otherwise; 404 when Twilio is not configured). This plugin (encapsulated)
 * reads application/x-www-form-urlencoded bodies into their string params.
 */
export const voiceCallbackRoutes: FastifyPluginAsyncZod = async (app) => {
  readTwilioForms(app);
  const callParams = z.object({ callId: z.coerce.number().int().positive() });
  const common = { bodyLimit: CALLBACK_BODY_LIMIT };

  app.post(
    '/api/telephony/voice/:callId/connect',
    {
      ...common,
      schema: {
        description: 'TwiML when the agent answers: the announcement and the recorded bridge',
        params: callParams,
        body: params,
      },
    },
    async (request, reply) => {
      const twiml = await connectTwiml(
        app.db,
        app.config,
        request.params.callId,
        signedCallback(request),
      );
      return reply.type(TWIML).send(twiml);
    },
  );

  app.post(
    '/api/telephony/voice/:callId/dialed',
    {
      ...common,
      schema: {
        description: "The bridge's outcome (the Dial's action)",
        params: callParams,
        body: params,
      },
    },
    async (request, reply) => {
      const twiml = await handleDialResult(
        app.db,
        app.config,
        request.params.callId,
        signedCallback(request),
      );
      return reply.type(TWIML).send(twiml);
    },
  );

  app.post(
    '/api/telephony/voice/status',
    {
      ...common,
      schema: {
        description: "The agent's call leg's status callbacks",
        body: params,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await handleVoiceStatus(app.db, app.config, signedCallback(request));
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/api/telephony/voice/recording',
    {
      ...common,
      schema: {
        description: "The recording's status callback",
        querystring: z.object({ callId: z.coerce.number().int().positive() }),
        body: params,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await handleRecording(app.db, app.config, signedCallback(request), request.query.callId);
      return reply.status(204).send(null);
    },
  );
};
