/**
 * What Twilio's callbacks have in common (docs/domain.md, Follow-up messages and calls): form-encoded bodies of string params, small,
 * no session, each checked by its X-Twilio-Signature over PUBLIC_URL + the path and query + the
 * sorted params (docs/decisions/020). The SMS and voice callback routes both read them this way.
 */
import type { FastifyInstance } from 'fastify';

/** Twilio's callbacks stay small. */
export const TWILIO_CALLBACK_BODY_LIMIT = 16 * 1024;

/** A callback as the signature check needs it. */
export interface SignedCallback {
  signature: string | undefined;
  /** the request's path and query, as Twilio signed it after PUBLIC_URL */
  url: string;
  params: Record<string, string>;
}

/** Reads application/x-www-form-urlencoded bodies into their string params (in this plugin). */
export function readTwilioForms(app: FastifyInstance): void {
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    },
  );
}

export function signedCallback(request: {
  headers: Record<string, string | string[] | undefined>;
  url: string;
  body: unknown;
}): SignedCallback {
  const signature = request.headers['x-twilio-signature'];
  return {
    signature: typeof signature === 'string' ? signature : undefined,
    url: request.url,
    params: (request.body ?? {}) as Record<string, string>,
  };
}
