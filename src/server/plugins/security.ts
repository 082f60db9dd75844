import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
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

  app.addHook('onRequest', async (request) => {
    if (SAFE_METHODS.has(request.method)) return;
    const origin = request.headers.origin;
    const host = request.headers.host;
    if (origin && origin !== 'null') {
      if (!sameHost(origin, host)) throw new AppError('FORBIDDEN', 'Cross-site request refused');
      return;
    }
    if (origin === 'null') throw new AppError('FORBIDDEN', 'Cross-site request refused');
    const site = request.headers['sec-fetch-site'];
    if (site === 'cross-site' || site === 'same-site') {
      throw new AppError('FORBIDDEN', 'Cross-site request refused');
    }
  });

  // PostgreSQL text cannot hold NUL: refuse it in any input up front (a 400, not a 500 later)
  app.addHook('preValidation', async (request) => {
    if (hasNul(request.params) || hasNul(request.query) || hasNul(request.body)) {
      throw new AppError('BAD_REQUEST', 'Text may not contain NUL (\\u0000) characters');
    }
  });
});

/** A NUL character in any string or key of a parsed input (iterative: any depth is safe). */
function hasNul(input: unknown): boolean {
  const stack = [input];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value === 'string') {
      if (value.includes('\0')) return true;
    } else if (value !== null && typeof value === 'object') {
      for (const [key, child] of Object.entries(value)) {
        if (key.includes('\0')) return true;
        stack.push(child);
      }
    }
  }
  return false;
}

/** Origin and Host name the same host and port (a default port may be implied on either side). */
function sameHost(origin: string, host: string | undefined): boolean {
  if (!host) return false;
  try {
    const o = new URL(origin);
    return o.host === new URL(`${o.protocol}//${host}`).host;
  } catch {
    return false;
  }
}
