import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { intakeAccepted, intakeLeadBody, intakeRefused } from '../../../shared/contracts/sources';
import type { LeadEvents } from '../../events/lead-events';
import { AppError } from '../../lib/app-error';
import { leadsAssigned, leadsReceived } from '../../lib/metrics';
import type { FitRoster } from '../fit/fit-roster.service';
import { type KeyRequest, takeApiKeyRequest } from '../sources/api-keys.service';
import { type IntakeInput, receiveLead } from './intake.service';

export interface IntakeRoutesOptions {
  /** the bus a lead assigned at once is announced on (events/handlers.ts) */
  events: LeadEvents;
  /** this process's copy of the agents' fit columns (decision 043); null: the pick asks SQL alone */
  roster?: FitRoster | null;
  /** requests per second per key (50 by default: SECURITY.md, Intake API keys) */
  ratePerSecond?: number;
}

/** one lead's JSON (its consent text included) fits in 16 KiB */
export const INTAKE_BODY_LIMIT = 16 * 1024;

const unauthorized = (message: string) =>
  new AppError('UNAUTHORIZED', message, { 'WWW-Authenticate': 'Bearer' });

/**
 * POST /api/v1/leads: server to server, authenticated by a source's API key alone (no cookie, no
 * session, no CSRF: the security plugin lets a POST without Origin or Sec-Fetch-Site through,
 * which is what a server sends, and a browser cannot set the Authorization header cross-site
 * without a CORS preflight this app never grants).
 */
export const intakeRoutes: FastifyPluginAsyncZod<IntakeRoutesOptions> = async (app, opts) => {
  const ratePerSecond = opts.ratePerSecond ?? 50;
  const keyOf = new WeakMap<FastifyRequest, KeyRequest>();

  app.post(
    '/api/v1/leads',
    {
      bodyLimit: INTAKE_BODY_LIMIT,
      // the lead's values are checked by the CSV's rules in the service (422 with every field),
      // not refused here with a 400: the schema documents the body, the service decides
      attachValidation: true,
      onRequest: async (request) => {
        const header = request.headers.authorization ?? '';
        const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
        if (!match) throw unauthorized('Send the source API key as Authorization: Bearer <key>');
        // the key, its source, and the key's rate, kept in the database: every process counts
        // together (decision 039); one statement
        const key = await takeApiKeyRequest(app.db, match[1], ratePerSecond);
        if (!key) throw unauthorized('Unknown API key');
        if (!key.usable) throw unauthorized('This API key is revoked or its source is inactive');
        if (!key.allowed) {
          throw new AppError('TOO_MANY_REQUESTS', 'Too many requests for this API key', {
            'Retry-After': '1',
          });
        }
        keyOf.set(request, key);
      },
      schema: {
        body: intakeLeadBody,
        response: { 200: intakeAccepted, 201: intakeAccepted, 422: intakeRefused },
      },
    },
    async (request, reply) => {
      const key = keyOf.get(request) as KeyRequest;
      const sourceId = key.sourceId;
      const body = request.body as unknown;
      if (typeof body !== 'object' || body === null || Array.isArray(body)) {
        return reply.status(422).send({
          message: 'The body must be one lead as a JSON object',
          reason: 'invalid',
          errors: [{ field: 'body', message: 'The body must be a JSON object' }],
        });
      }
      const outcome = await receiveLead(
        app.db,
        app.config,
        opts.events,
        sourceId,
        body as IntakeInput,
        { roster: opts.roster ?? null, source: key.source },
      );
      leadsReceived.inc({
        source: String(sourceId),
        outcome: outcome.kind === 'refused' ? `refused_${outcome.reason}` : outcome.kind,
      });
      if (outcome.kind === 'accepted' && outcome.answer.status === 'ASSIGNED')
        leadsAssigned.inc({ trigger: 'INTAKE' });
      if (outcome.kind === 'invalid') {
        return reply.status(422).send({
          message: `The lead is invalid: ${outcome.errors.map((e) => e.message).join('; ')}`,
          reason: 'invalid',
          errors: outcome.errors,
        });
      }
      if (outcome.kind === 'unavailable') {
        // TrustedForm is down or slow: not a refusal, the source sends the lead again later
        throw new AppError('SERVICE_UNAVAILABLE', outcome.message, { 'Retry-After': '60' });
      }
      if (outcome.kind === 'refused') {
        return reply.status(422).send({
          message: outcome.message,
          reason: outcome.reason,
          errors: outcome.errors,
        });
      }
      return reply.status(outcome.kind === 'accepted' ? 201 : 200).send(outcome.answer);
    },
  );
};
