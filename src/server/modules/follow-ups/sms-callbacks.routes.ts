import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  readTwilioForms,
  signedCallback,
  TWILIO_CALLBACK_BODY_LIMIT,
} from '../../lib/twilio-callbacks';
import { handleInboundSms, handleSmsStatus } from './follow-ups.service';

const CALLBACK_BODY_LIMIT = TWILIO_CALLBACK_BODY_LIMIT;
const params = z.record(z.string(), z.string());

/**
 * Twilio's SMS callbacks (docs/domain.md, Follow-up messages and calls): the status of what we sent, and what leads send back (STOP).
 * Server to server, no session, verified by X-Twilio-Signature (403; 404 when not configured).
 */
export const smsCallbackRoutes: FastifyPluginAsyncZod = async (app) => {
  readTwilioForms(app);

  app.post(
    '/api/telephony/sms/status',
    {
      bodyLimit: CALLBACK_BODY_LIMIT,
      schema: {
        description: "An SMS's delivery status (DELIVERED or FAILED), applied once",
        body: params,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await handleSmsStatus(app.db, app.config, signedCallback(request));
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/api/telephony/sms/inbound',
    {
      bodyLimit: CALLBACK_BODY_LIMIT,
      schema: {
        description:
          "An SMS from a lead: recorded on the number's leads; STOP (STOPALL, UNSUBSCRIBE, CANCEL, END, QUIT) opts them out for good. Answers TwiML",
        body: params,
      },
    },
    async (request, reply) => {
      await handleInboundSms(app.db, app.config, signedCallback(request));
      return reply
        .type('text/xml; charset=utf-8')
        .send('<?xml version="1.0" encoding="UTF-8"?><Response/>');
    },
  );
};
