import cookie from '@fastify/cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { NOT_APPROVED_MESSAGE, TWO_FACTOR_SETUP_REQUIRED } from '../../shared/contracts/auth';
import type { UserRole } from '../../shared/domain';
import { AppError } from '../lib/app-error';
import type { SessionPolicy } from '../modules/auth/sessions.repository';
import type { SessionUser } from '../types';

export const SESSION_COOKIE = 'lf_session';

export function sessionPolicy(app: FastifyInstance): SessionPolicy {
  return {
    idleMs: app.config.SESSION_IDLE_MINUTES * 60_000,
    absoluteMs: app.config.SESSION_ABSOLUTE_DAYS * 86_400_000,
  };
}

export function setSessionCookie(app: FastifyInstance, reply: FastifyReply, token: string): void {
  reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: app.config.COOKIE_SECURE,
    maxAge: app.config.SESSION_ABSOLUTE_DAYS * 86_400,
  });
}

export function clearSessionCookie(app: FastifyInstance, reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: app.config.COOKIE_SECURE,
  });
}

export interface AuthPluginOptions {
  /** The live session behind a cookie's token: its user and the token's hash; null if none. */
  findSession(
    token: string,
    policy: SessionPolicy,
  ): Promise<{
    user: SessionUser;
    tokenHash: string;
    endsAt: Date;
    /** two factors are on: the user's TOTP, or a passkey */
    twoFactor: boolean;
    /** the user's agency requires two factors of its members */
    agencyRequiresTwoFactor: boolean;
  } | null>;
}

/**
 * What a user who must turn two factors on may still reach: who they are, the setup, signing out,
 * and the footer's legal pages (public anyway).
 * Every other route answers 403 with TWO_FACTOR_SETUP_REQUIRED until two factors are on.
 */
const SETUP_ONLY_ROUTES = new Set([
  'GET /api/auth/me',
  'POST /api/auth/logout',
  'POST /api/auth/login',
  'GET /api/auth/2fa',
  'POST /api/auth/2fa/totp/setup',
  'POST /api/auth/2fa/totp/enable',
  // a passkey is a second factor too (decision 036)
  'GET /api/auth/2fa/passkeys',
  'POST /api/auth/2fa/passkeys/register/options',
  'POST /api/auth/2fa/passkeys/register',
  'GET /api/legal/:page',
]);

/**
 * Resolves the session cookie to request.user on every API route. Which route it is comes from the
 * router's match (the route as registered), never from the raw request target: `/%61pi/...` and
 * `http://host/api/...` reach the same route and must get the same session.
 */
export const authPlugin = fp(async (app: FastifyInstance, opts: AuthPluginOptions) => {
  await app.register(cookie);
  app.decorateRequest('user', null);
  app.decorateRequest('sessionTokenHash', null);
  app.decorateRequest('sessionEndsAt', null);
  app.decorateRequest('twoFactorSetupRequired', false);
  app.addHook('onRequest', async (request) => {
    if (!request.routeOptions.url?.startsWith('/api/')) return;
    // the load balancer's probes answer for the process, whoever asks: no session looked up
    if (PROBES.has(request.routeOptions.url)) return;
    const token = request.cookies[SESSION_COOKIE];
    if (!token || token.length > 128) return;
    let session: Awaited<ReturnType<AuthPluginOptions['findSession']>>;
    try {
      session = await opts.findSession(token, sessionPolicy(app));
    } catch (err) {
      // the health check answers 503 when the database is down, whatever cookie comes with it
      if (request.routeOptions.url === '/api/health') return;
      throw err;
    }
    if (session) {
      request.user = session.user;
      request.sessionTokenHash = session.tokenHash;
      request.sessionEndsAt = session.endsAt;
      // checked here, before any route's own hooks: the server holds the rule, not the screens
      // required: of admins by REQUIRE_2FA_FOR_ADMINS, of an agency's members by its owner
      request.twoFactorSetupRequired =
        !session.twoFactor &&
        ((app.config.REQUIRE_2FA_FOR_ADMINS && session.user.role === 'ADMIN') ||
          session.agencyRequiresTwoFactor);
      if (
        request.twoFactorSetupRequired &&
        !SETUP_ONLY_ROUTES.has(`${request.method} ${request.routeOptions.url}`)
      ) {
        throw new AppError('FORBIDDEN', TWO_FACTOR_SETUP_REQUIRED);
      }
    }
  });
});

/** The probes (docs/OPERATIONS.md): they never read the session, so a database away cannot fail live. */
const PROBES = new Set(['/api/health/live', '/api/health/ready']);

/**
 * onRequest hook: a signed-in user of the given role (any role when omitted). The agent's routes
 * also need the account approved: a PENDING agent signs in and sees only "Waiting for approval".
 */
export function requireRole(role?: UserRole) {
  return async (request: FastifyRequest) => {
    const user = request.user;
    if (!user) throw new AppError('UNAUTHORIZED', 'Not authenticated');
    if (role && user.role !== role) throw new AppError('FORBIDDEN', 'Forbidden');
    if (role === 'AGENT' && user.approval !== 'APPROVED') {
      throw new AppError('FORBIDDEN', NOT_APPROVED_MESSAGE[user.approval]);
    }
  };
}

export function currentUser(request: FastifyRequest) {
  if (!request.user) throw new AppError('UNAUTHORIZED', 'Not authenticated');
  return request.user;
}
