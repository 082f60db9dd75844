import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError } from '../lib/app-error';
import { fieldErrors, validationSummary } from '../lib/validation-messages';

const MESSAGE_BY_STATUS: Record<number, string> = {
  400: 'Bad request',
  401: 'Not authenticated',
  403: 'Forbidden',
  404: 'Not found',
  405: 'Method not allowed',
  406: 'Not acceptable',
  408: 'Request timeout',
  413: 'Request too large',
  415: 'Unsupported content type',
  429: 'Too many requests',
};

/**
 * One error handler: JSON {message} with the right status (a failed schema adds `errors`, one
 * per field); nothing internal leaves on a 5xx, only the request's id (`requestId`, also in the
 * X-Request-Id header and on the request's log lines) for the operator to find the cause by.
 */
export const errorsPlugin = fp(async (app: FastifyInstance) => {
  app.setErrorHandler((error: FastifyError | AppError | Error, request, reply) => {
    if (error instanceof AppError) {
      const body = {
        message: error.message,
        ...(error.fields.length ? { errors: error.fields } : {}),
        ...(error.status >= 500 ? { requestId: request.id } : {}),
      };
      return reply.status(error.status).headers(error.headers).send(body);
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      // field by field, in sentences (lib/validation-messages): the form marks each field
      const errors = fieldErrors(error.validation);
      return reply.status(400).send({ message: validationSummary(errors), errors });
    }
    const status = (error as FastifyError).statusCode;
    if (status && status >= 400 && status < 500) {
      // Fastify's own client errors (bad JSON, body too large, bad content type) are safe to explain
      const message = (error as FastifyError).code?.startsWith('FST_')
        ? (MESSAGE_BY_STATUS[status] ?? 'Bad request') + explain(error as FastifyError)
        : error.message || MESSAGE_BY_STATUS[status] || 'Bad request';
      return reply.status(status).send({ message });
    }
    if (isPoolExhausted(error)) {
      // every database connection stayed busy past the pool's wait: overload, not a fault
      request.log.warn('no database connection free in time: answered 503');
      return reply.status(503).header('retry-after', '1').send({
        message: 'The server is busy: please try again in a moment',
        requestId: request.id,
      });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.status(500).send({ message: 'Internal server error', requestId: request.id });
  });
});

/** node-postgres' pool gave up waiting for a free connection (connectionTimeoutMillis). */
function isPoolExhausted(error: unknown): boolean {
  for (let e = error; e instanceof Error; e = e.cause) {
    if (e.message === 'timeout exceeded when trying to connect') return true;
  }
  return false;
}

function explain(error: FastifyError): string {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return ': the body is not valid JSON';
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return ': send JSON (application/json)';
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return ': the body is over the size limit';
    default:
      return '';
  }
}
