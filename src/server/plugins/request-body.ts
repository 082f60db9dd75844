import { PassThrough, type Readable, type Writable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/app-error';
import { clientError } from './client-error';

/**
 * Every JSON body fits in 8 KiB (a login or registration with a 1024-character password, a
 * package, a status change; checked by test/request-limits.test.ts), so that is the app's
 * bodyLimit: a larger body is refused (413) from its Content-Length before a byte is read, or as
 * soon as a chunked one passes it.
 */
export const DEFAULT_BODY_LIMIT = 8 * 1024;

/**
 * The routes whose largest valid body is larger. Preferences: 500 cities of up to 100 characters,
 * 3 bytes each in UTF-8, plus 50 states: about 150 KiB.
 */
export const ROUTE_BODY_LIMITS: Readonly<Record<string, number>> = {
  'PUT /api/agent/preferences': 160 * 1024,
};

const NUL_MESSAGE = 'Text may not contain NUL (\\u0000) characters';

/**
 * What a request body may be, checked before it is read or walked:
 * - size: DEFAULT_BODY_LIMIT, or the route's entry in ROUTE_BODY_LIMITS;
 * - a route without a body schema takes no body (every GET and DELETE, logout, running the
 *   assignment): one that comes with a body is refused with 413 after the role check, before it
 *   is read, but for the 2 bytes of an empty `{}`, which some clients send with every POST. The
 *   CSV import is the exception: multipart, streamed, with its own limit;
 * - a JSON body must arrive whole within BODY_TIMEOUT_MS of its headers (408, connection closed);
 * - NUL, which PostgreSQL text cannot hold, is looked for in the raw JSON text and the raw URL
 *   (400), never by walking the parsed object.
 */
export const requestBodyPlugin = fp(async (app: FastifyInstance) => {
  const bodyTimeoutMs = app.config.BODY_TIMEOUT_MS;

  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      const limit = ROUTE_BODY_LIMITS[`${method} ${route.url}`];
      if (limit && route.bodyLimit === undefined) route.bodyLimit = limit;
    }
  });

  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (jsonHasNul(body as string)) {
      done(new AppError('BAD_REQUEST', NUL_MESSAGE), undefined);
      return;
    }
    parseJson(request, body as string, done);
  });

  app.addHook('preParsing', async (request, reply, payload) => {
    if (!hasBody(request)) return payload;
    if (request.routeOptions.schema?.body === undefined) {
      if (isMultipart(request)) return payload; // the import route reads and limits its own
      if (isEmptyObjectSized(request)) return payload;
      throw new AppError('PAYLOAD_TOO_LARGE', 'This request takes no body');
    }
    return withDeadline(payload, bodyTimeoutMs, reply.raw);
  });

  app.addHook('preValidation', async (request) => {
    if (request.url.includes('%00')) throw new AppError('BAD_REQUEST', NUL_MESSAGE);
  });
});

function hasBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  return (
    request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0')
  );
}

/** A declared body of at most 2 bytes: the `{}` some clients send with every POST. */
function isEmptyObjectSized(request: FastifyRequest): boolean {
  return (
    request.headers['transfer-encoding'] === undefined &&
    Number(request.headers['content-length']) <= 2
  );
}

function isMultipart(request: FastifyRequest): boolean {
  return /^multipart\/form-data/i.test(request.headers['content-type'] ?? '');
}

/**
 * The body as a stream that fails with a 408 when it has not ended within `ms`: the body parser
 * then answers 408 with `Connection: close`, so a client that trickles its body loses the
 * connection instead of holding it. The clock stops when the body ends or the answer is sent
 * (a body refused unread, as too large, never ends).
 */
function withDeadline(payload: Readable, ms: number, response: Writable): Readable {
  const guarded = new PassThrough();
  // the parser's own listener reports the error; this one keeps a late one from going unheard
  guarded.on('error', () => {});
  const timer = setTimeout(() => {
    payload.unpipe(guarded);
    guarded.destroy(clientError(408, 'Request timeout: the body did not arrive in time'));
  }, ms);
  const settle = () => clearTimeout(timer);
  payload.once('end', settle);
  payload.once('close', settle);
  response.once('finish', settle);
  response.once('close', settle);
  payload.once('error', (err) => {
    settle();
    guarded.destroy(err);
  });
  payload.pipe(guarded);
  return guarded;
}

/**
 * Whether JSON text holds the escape `\u0000`, a NUL once parsed (a raw NUL is not valid JSON).
 * An escape counts when an even number of backslashes precedes it (`\\u0000` is a backslash and
 * the text "u0000").
 */
export function jsonHasNul(text: string): boolean {
  for (let at = text.indexOf('\\u0000'); at >= 0; at = text.indexOf('\\u0000', at + 1)) {
    let backslashes = 0;
    while (at - backslashes - 1 >= 0 && text.charCodeAt(at - backslashes - 1) === 92) {
      backslashes += 1;
    }
    if (backslashes % 2 === 0) return true;
  }
  return false;
}
