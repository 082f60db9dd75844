import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AUDIT_ACTIONS } from '../../../shared/contracts/audit';
import {
  changePasswordBody,
  forgotPasswordBody,
  loginBody,
  loginResponse,
  meResponse,
  messageResponse,
  passkeyAssertionBody,
  passkeyDeleteBody,
  passkeyItem,
  passkeyList,
  passkeyRegisterBody,
  passkeyRenameBody,
  recoveryCodesResponse,
  registerBody,
  registrationInfo,
  resetPasswordBody,
  totpSetupResponse,
  twoFactorCodeBody,
  twoFactorStatus,
  userEnvelope,
  webauthnOptions,
} from '../../../shared/contracts/auth';
import type { UserRole } from '../../../shared/domain';
import { AppError } from '../../lib/app-error';
import type { EmailSender } from '../../lib/email-sender';
import {
  clearSessionCookie,
  currentUser,
  requireRole,
  sessionPolicy,
  setSessionCookie,
} from '../../plugins/auth';
import { recordAuditEvent } from '../audit/audit.service';
import { DatabaseWindows } from '../rate-limits/rate-limits.service';
import { type AgencyInvitePort, login, logout, registerAgent } from './auth.service';
import {
  DEFAULT_LIMITS,
  LoginThrottle,
  RegistrationThrottle,
  ResetRequestThrottle,
} from './login-throttle';
import {
  authenticationOptions,
  listPasskeys,
  pendingLoginOptions,
  registerPasskey,
  registrationOptions,
  relyingParty,
  removeOwnPasskey,
  renameOwnPasskey,
  signInWithPasskey,
  verifyPendingLoginByPasskey,
} from './passkeys.service';
import { changePassword, requestPasswordReset, resetPassword } from './passwords.service';
import {
  disableTwoFactor,
  enableTotp,
  PENDING_LOGIN_MS,
  twoFactorStatus as readTwoFactorStatus,
  setupTotp,
  verifyPendingLogin,
} from './two-factor.service';

/** The pending login's cookie (docs/domain.md, Accounts: two factors): only the code step reads it. */
export const PENDING_LOGIN_COOKIE = 'lf_2fa';
const PENDING_COOKIE_PATH = '/api/auth/2fa';

export interface AuthRoutesOptions {
  /** emails the reset links; null without SMTP_URL (an admin hands links over instead) */
  email: EmailSender | null;
  /** an agency's invite code at registration (the agencies module's join) */
  agencyInvites: AgencyInvitePort;
}

const passkeyParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

export const FORGOT_PASSWORD_ANSWER =
  'If an account exists for this email, we sent a link to reset the password.';

export const authRoutes: FastifyPluginAsyncZod<AuthRoutesOptions> = async (app, opts) => {
  // one login throttle: a wrong current password on "Change password" counts as a failed login
  // kept in the database: every process behind the load balancer counts together (decision 039)
  const windows = (windowMs: number) => new DatabaseWindows(app.db, windowMs);
  const throttle = new LoginThrottle(DEFAULT_LIMITS, windows);
  const registrations = new RegistrationThrottle(
    {
      perAddress: app.config.REGISTRATIONS_PER_ADDRESS,
      total: app.config.REGISTRATIONS_TOTAL,
      windowMs: 15 * 60_000,
    },
    windows,
  );
  const resetRequests = new ResetRequestThrottle(windows);
  // passkeys answer to the portal's public address only (decision 036)
  const rp = relyingParty(app.config.PUBLIC_URL);

  app.get('/api/auth/registration', { schema: { response: { 200: registrationInfo } } }, () => ({
    mode: app.config.REGISTRATION,
  }));

  app.post(
    '/api/auth/register',
    { schema: { body: registerBody, response: { 201: userEnvelope } } },
    async (request, reply) => {
      const user = await registerAgent(
        app.db,
        request.body,
        request.ip,
        registrations,
        app.config.REGISTRATION,
        opts.agencyInvites,
      );
      return reply.status(201).send({ user });
    },
  );

  app.post(
    '/api/auth/login',
    { schema: { body: loginBody, response: { 200: loginResponse } } },
    async (request, reply) => {
      let result: Awaited<ReturnType<typeof login>>;
      try {
        result = await login(app.db, request.body, request.ip, throttle, sessionPolicy(app));
      } catch (err) {
        // a failed login (wrong password, throttled, refused or disabled account): the email
        // tried and the answer, never the password (docs/domain.md, Audit log)
        if (err instanceof AppError && [401, 403, 429].includes(err.status)) {
          await recordAuditEvent(app.db, {
            actor: null,
            ip: request.ip,
            action: AUDIT_ACTIONS.loginFailed,
            targetType: 'user',
            after: { email: request.body.email.trim().toLowerCase(), status: err.status },
          });
        }
        throw err;
      }
      if ('pendingToken' in result) {
        // two factors on: no session until the code step; the pending login stays server-side
        reply.setCookie(PENDING_LOGIN_COOKIE, result.pendingToken, {
          path: PENDING_COOKIE_PATH,
          httpOnly: true,
          sameSite: 'lax',
          secure: app.config.COOKIE_SECURE,
          maxAge: PENDING_LOGIN_MS / 1000,
        });
        return { twoFactorRequired: true as const, methods: result.methods };
      }
      const { user, token } = result;
      // rotate: once the login succeeded, the session presented with it is dropped and the new
      // one gets a fresh token (a failed login leaves the caller's session as it was)
      await logout(app.db, request.sessionTokenHash);
      setSessionCookie(app, reply, token);
      await auditOwnAccount(app.db, request.ip, user, AUDIT_ACTIONS.login);
      return { user };
    },
  );

  app.post(
    '/api/auth/logout',
    { schema: { response: { 200: messageResponse } } },
    async (request, reply) => {
      await logout(app.db, request.sessionTokenHash);
      clearSessionCookie(app, reply);
      if (request.user) {
        await auditOwnAccount(app.db, request.ip, request.user, AUDIT_ACTIONS.logout);
      }
      return { message: 'Logged out' };
    },
  );

  app.get(
    '/api/auth/me',
    // the spec's current-user answer has role itself (login's has user.role)
    { onRequest: requireRole(), schema: { response: { 200: meResponse } } },
    async (request) => ({
      ...currentUser(request),
      twoFactorSetupRequired: request.twoFactorSetupRequired,
    }),
  );

  app.post(
    '/api/auth/2fa/verify',
    { schema: { body: twoFactorCodeBody, response: { 200: userEnvelope } } },
    async (request, reply) => {
      const { user, token } = await verifyPendingLogin(
        app.db,
        request.cookies[PENDING_LOGIN_COOKIE],
        request.body.code,
        request.ip,
        sessionPolicy(app),
      );
      await logout(app.db, request.sessionTokenHash);
      reply.clearCookie(PENDING_LOGIN_COOKIE, { path: PENDING_COOKIE_PATH });
      setSessionCookie(app, reply, token);
      // the login completes with its second factor (docs/domain.md, Audit log)
      await auditOwnAccount(app.db, request.ip, user, AUDIT_ACTIONS.login, { secondFactor: true });
      return { user };
    },
  );

  app.get(
    '/api/auth/2fa',
    { onRequest: requireRole(), schema: { response: { 200: twoFactorStatus } } },
    async (request) => readTwoFactorStatus(app.db, currentUser(request).id),
  );

  app.post(
    '/api/auth/2fa/totp/setup',
    { onRequest: requireRole(), schema: { response: { 200: totpSetupResponse } } },
    async (request) => setupTotp(app.db, currentUser(request)),
  );

  app.post(
    '/api/auth/2fa/totp/enable',
    {
      onRequest: requireRole(),
      schema: { body: twoFactorCodeBody, response: { 200: recoveryCodesResponse } },
    },
    async (request) => {
      const user = currentUser(request);
      const codes = await enableTotp(app.db, user.id, request.body.code, request.ip);
      await auditOwnAccount(app.db, request.ip, user, AUDIT_ACTIONS.twoFactorEnabled);
      return codes;
    },
  );

  app.delete(
    '/api/auth/2fa',
    {
      onRequest: requireRole(),
      schema: { body: twoFactorCodeBody, response: { 200: messageResponse } },
    },
    async (request) => {
      const user = currentUser(request);
      const { passkeysLeft } = await disableTwoFactor(
        app.db,
        user.id,
        request.body.code,
        request.ip,
      );
      await auditOwnAccount(app.db, request.ip, user, AUDIT_ACTIONS.twoFactorDisabled);
      return {
        message:
          passkeysLeft > 0
            ? 'The authenticator app is off; your passkeys still sign you in'
            : 'Two-factor authentication is off',
      };
    },
  );

  // passkeys (docs/domain.md, Accounts: two factors; decision 036)
  app.get(
    '/api/auth/2fa/passkeys',
    { onRequest: requireRole(), schema: { response: { 200: passkeyList } } },
    async (request) => ({ passkeys: await listPasskeys(app.db, currentUser(request).id) }),
  );

  app.post(
    '/api/auth/2fa/passkeys/register/options',
    { onRequest: requireRole(), schema: { response: { 200: webauthnOptions } } },
    async (request) => registrationOptions(app.db, rp, currentUser(request)),
  );

  app.post(
    '/api/auth/2fa/passkeys/register',
    {
      onRequest: requireRole(),
      schema: { body: passkeyRegisterBody, response: { 201: passkeyItem } },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const passkey = await registerPasskey(app.db, rp, user, request.body);
      await auditOwnAccount(app.db, request.ip, user, AUDIT_ACTIONS.passkeyAdded, {
        id: passkey.id,
        name: passkey.name,
      });
      return reply.status(201).send(passkey);
    },
  );

  app.patch(
    '/api/auth/2fa/passkeys/:id',
    {
      onRequest: requireRole(),
      schema: { params: passkeyParams, body: passkeyRenameBody, response: { 200: passkeyItem } },
    },
    async (request) =>
      renameOwnPasskey(app.db, currentUser(request).id, request.params.id, request.body.name),
  );

  app.post(
    '/api/auth/2fa/passkeys/confirm/options',
    { onRequest: requireRole(), schema: { response: { 200: webauthnOptions } } },
    async (request) => authenticationOptions(app.db, rp, 'confirm', currentUser(request).id),
  );

  app.delete(
    '/api/auth/2fa/passkeys/:id',
    {
      onRequest: requireRole(),
      schema: {
        params: passkeyParams,
        body: passkeyDeleteBody,
        response: { 200: messageResponse },
      },
    },
    async (request) => {
      const user = currentUser(request);
      await removeOwnPasskey(
        app.db,
        rp,
        user.id,
        request.params.id,
        request.body?.confirmation,
        request.ip,
      );
      await auditOwnAccount(app.db, request.ip, user, AUDIT_ACTIONS.passkeyRemoved, {
        id: request.params.id,
      });
      return { message: 'Passkey removed' };
    },
  );

  // the login's second step by a passkey: the pending login's cookie, as the code step
  app.post(
    '/api/auth/2fa/passkeys/verify/options',
    { schema: { response: { 200: webauthnOptions } } },
    async (request) => pendingLoginOptions(app.db, rp, request.cookies[PENDING_LOGIN_COOKIE]),
  );

  app.post(
    '/api/auth/2fa/passkeys/verify',
    { schema: { body: passkeyAssertionBody, response: { 200: userEnvelope } } },
    async (request, reply) => {
      const { user, token } = await verifyPendingLoginByPasskey(
        app.db,
        rp,
        request.cookies[PENDING_LOGIN_COOKIE],
        request.body.response,
        request.ip,
        sessionPolicy(app),
      );
      await logout(app.db, request.sessionTokenHash);
      reply.clearCookie(PENDING_LOGIN_COOKIE, { path: PENDING_COOKIE_PATH });
      setSessionCookie(app, reply, token);
      await auditOwnAccount(app.db, request.ip, user, AUDIT_ACTIONS.login, {
        secondFactor: true,
        method: 'passkey',
      });
      return { user };
    },
  );

  // "Sign in with a passkey": no email and no password; the passkey is both factors
  app.post(
    '/api/auth/2fa/passkeys/login/options',
    { schema: { response: { 200: webauthnOptions } } },
    async () => authenticationOptions(app.db, rp, 'login', null),
  );

  app.post(
    '/api/auth/2fa/passkeys/login',
    { schema: { body: passkeyAssertionBody, response: { 200: userEnvelope } } },
    async (request, reply) => {
      let result: Awaited<ReturnType<typeof signInWithPasskey>>;
      try {
        result = await signInWithPasskey(
          app.db,
          rp,
          request.body.response,
          request.ip,
          sessionPolicy(app),
        );
      } catch (err) {
        if (err instanceof AppError && [400, 403, 429].includes(err.status)) {
          await recordAuditEvent(app.db, {
            actor: null,
            ip: request.ip,
            action: AUDIT_ACTIONS.loginFailed,
            targetType: 'user',
            after: { method: 'passkey', status: err.status },
          });
        }
        throw err;
      }
      const { user, token } = result;
      await logout(app.db, request.sessionTokenHash);
      setSessionCookie(app, reply, token);
      await auditOwnAccount(app.db, request.ip, user, AUDIT_ACTIONS.login, { method: 'passkey' });
      return { user };
    },
  );

  app.post(
    '/api/auth/password/forgot',
    { schema: { body: forgotPasswordBody, response: { 202: messageResponse } } },
    async (request, reply) => {
      await requestPasswordReset(app.db, request.body, request.ip, resetRequests, {
        config: app.config,
        email: opts.email,
        onSendError: (err) => request.log.error({ err }, 'password reset email not sent'),
      });
      return reply.status(202).send({ message: FORGOT_PASSWORD_ANSWER });
    },
  );

  app.post(
    '/api/auth/password/reset',
    { schema: { body: resetPasswordBody, response: { 200: messageResponse } } },
    async (request) => {
      const userId = await resetPassword(app.db, request.body);
      // by whoever held the link: no actor, the user whose password it was as the target
      await recordAuditEvent(app.db, {
        actor: null,
        ip: request.ip,
        action: AUDIT_ACTIONS.passwordReset,
        targetType: 'user',
        targetId: userId,
      });
      return { message: 'Password changed. You can now log in with it.' };
    },
  );

  app.post(
    '/api/auth/password/change',
    {
      onRequest: requireRole(),
      schema: { body: changePasswordBody, response: { 200: messageResponse } },
    },
    async (request) => {
      await changePassword(
        app.db,
        currentUser(request),
        request.sessionTokenHash,
        request.body,
        request.ip,
        throttle,
      );
      const user = currentUser(request);
      await auditOwnAccount(app.db, request.ip, user, AUDIT_ACTIONS.passwordChanged);
      return { message: 'Password changed' };
    },
  );
};

/** A security event of a user on their own account (docs/domain.md, Audit log). */
function auditOwnAccount(
  db: Parameters<typeof recordAuditEvent>[0],
  ip: string,
  user: { id: number; role: UserRole },
  action: string,
  after?: Record<string, unknown>,
): Promise<void> {
  return recordAuditEvent(db, {
    actor: { id: user.id, role: user.role },
    ip,
    action,
    targetType: 'user',
    targetId: user.id,
    ...(after ? { after } : {}),
  });
}
