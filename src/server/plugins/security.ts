import helmet from '@fastify/helmet';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/app-error';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Security headers that the SPA works under on plain http://127.0.0.1 as well as behind HTTPS,
 * and the cross-site request defence: SameSite=Lax cookies plus an Origin / Fetch-Metadata check
 * on every state-changing request.
 */
export const securityPlugin = fp(async (app: FastifyInstance, opts: { secure: boolean }) => {
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        'default-src': ["'self'"],
        'script-src': ["'self'"],
        'style-src': ["'self'", "'unsafe-inline'"],
        'img-src': ["'self'", 'data:'],
        'font-src': ["'self'", 'data:'],
        'connect-src': ["'self'"],
        'object-src': ["'none'"],
        'base-uri': ["'self'"],
        'form-action': ["'self'"],
        'frame-ancestors': ["'none'"],
        // upgrade-insecure-requests is left out on purpose: it breaks plain-http installs
      },
    },
    // HSTS only when we know we are behind HTTPS
    strictTransportSecurity: opts.secure ? { maxAge: 15552000, includeSubDomains: true } : false,
    crossOriginEmbedderPolicy: false,
  });

  // the scheme the browser used: https behind a TLS proxy whether or not the proxy is trusted to
  // say so (COOKIE_SECURE says the site is served over https)
  const schemeOf = (request: FastifyRequest) =>
    opts.secure || request.protocol === 'https' ? 'https:' : 'http:';

  app.addHook('onRequest', async (request) => {
    if (SAFE_METHODS.has(request.method)) return;
    const origin = request.headers.origin;
    if (origin && origin !== 'null') {
      if (!sameOrigin(origin, schemeOf(request), request.host)) {
        throw new AppError('FORBIDDEN', 'Cross-site request refused');
      }
      return;
    }
    if (origin === 'null') throw new AppError('FORBIDDEN', 'Cross-site request refused');
    const site = request.headers['sec-fetch-site'];
    if (site === 'cross-site' || site === 'same-site') {
      throw new AppError('FORBIDDEN', 'Cross-site request refused');
    }
  });

  // API answers hold personal data (leads, accounts, a user's own session): no cache keeps them,
  // neither the browser's (a shared computer's back button) nor a proxy's. Only the SPA's files
  // set a Cache-Control of their own (plugins/spa); every other answer, errors included, gets this.
  app.addHook('onSend', async (_request, reply) => {
    // (@fastify/static sets its header on the raw response)
    if (!reply.hasHeader('cache-control') && !reply.raw.hasHeader('cache-control')) {
      reply.header('cache-control', 'no-store');
    }
  });
});

/** The Origin names this scheme, host and port (a default port may be implied on either side). */
function sameOrigin(origin: string, scheme: string, host: string | undefined): boolean {
  if (!host) return false;
  try {
    const o = new URL(origin);
    return o.protocol === scheme && o.host === new URL(`${scheme}//${host}`).host;
  } catch {
    return false;
  }
}
