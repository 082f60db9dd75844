import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  connectTwiml,
  handleDialResult,
  handleRecording,
  handleVoiceStatus,
  type SignedCallback,
} from './telephony.service';

/** Twilio posts its callbacks form-encoded; they stay small. */
const CALLBACK_BODY_LIMIT = 16 * 1024;
const params = z.record(z.string(), z.string());
const TWIML = 'text/xml; charset=utf-8';

/**
 * Twilio's voice callbacks (design 9), server to server: no session; each is verified by its
 * X-Twilio-Signature (403 otherwise; 404 when Twilio is not configured). This plugin (encapsulated)
 * reads application/x-www-form-urlencoded bodies into their string params.
 */
export const voiceCallbackRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    },
  );
  const signed = (request: {
    headers: Record<string, string | string[] | undefined>;
    url: string;
    body: unknown;
  }): SignedCallback => {
    const signature = request.headers['x-twilio-signature'];
    return {
      signature: typeof signature === 'string' ? signature : undefined,
      url: request.url,
      params: (request.body ?? {}) as Record<string, string>,
    };
  };
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
      const twiml = await connectTwiml(app.db, app.config, request.params.callId, signed(request));
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
        signed(request),
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
      await handleVoiceStatus(app.db, app.config, signed(request));
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
      await handleRecording(app.db, app.config, signed(request), request.query.callId);
      return reply.status(204).send(null);
    },
  );
};
