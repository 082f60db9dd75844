import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AUDIT_ACTIONS } from '../../../shared/contracts/audit';
import {
  changePasswordBody,
  forgotPasswordBody,
  loginBody,
  messageResponse,
  publicUser,
  registerBody,
  registrationInfo,
  resetPasswordBody,
  userEnvelope,
} from '../../../shared/contracts/auth';
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
import { login, logout, registerAgent } from './auth.service';
import { LoginThrottle, RegistrationThrottle, ResetRequestThrottle } from './login-throttle';
import { changePassword, requestPasswordReset, resetPassword } from './passwords.service';

export interface AuthRoutesOptions {
  /** emails the reset links; null without SMTP_URL (an admin hands links over instead) */
  email: EmailSender | null;
}

export const FORGOT_PASSWORD_ANSWER =
  'If an account exists for this email, we sent a link to reset the password.';

export const authRoutes: FastifyPluginAsyncZod<AuthRoutesOptions> = async (app, opts) => {
  // one login throttle: a wrong current password on "Change password" counts as a failed login
  const throttle = new LoginThrottle();
  const registrations = new RegistrationThrottle({
    perAddress: app.config.REGISTRATIONS_PER_ADDRESS,
    total: app.config.REGISTRATIONS_TOTAL,
    windowMs: 15 * 60_000,
  });
  const resetRequests = new ResetRequestThrottle();

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
      );
      return reply.status(201).send({ user });
    },
  );

  app.post(
    '/api/auth/login',
    { schema: { body: loginBody, response: { 200: userEnvelope } } },
    async (request, reply) => {
      let signedIn: Awaited<ReturnType<typeof login>>;
      try {
        signedIn = await login(app.db, request.body, request.ip, throttle, sessionPolicy(app));
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
      const { user, token } = signedIn;
      // rotate: once the login succeeded, the session presented with it is dropped and the new
      // one gets a fresh token (a failed login leaves the caller's session as it was)
      await logout(app.db, request.sessionTokenHash);
      setSessionCookie(app, reply, token);
      await recordAuditEvent(app.db, {
        actor: { id: user.id, role: user.role },
        ip: request.ip,
        action: AUDIT_ACTIONS.login,
        targetType: 'user',
        targetId: user.id,
      });
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
        await recordAuditEvent(app.db, {
          actor: { id: request.user.id, role: request.user.role },
          ip: request.ip,
          action: AUDIT_ACTIONS.logout,
          targetType: 'user',
          targetId: request.user.id,
        });
      }
      return { message: 'Logged out' };
    },
  );

  app.get(
    '/api/auth/me',
    // the spec's current-user answer has role itself (login's has user.role)
    { onRequest: requireRole(), schema: { response: { 200: publicUser } } },
    async (request) => currentUser(request),
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
      await recordAuditEvent(app.db, {
        actor: { id: user.id, role: user.role },
        ip: request.ip,
        action: AUDIT_ACTIONS.passwordChanged,
        targetType: 'user',
        targetId: user.id,
      });
      return { message: 'Password changed' };
    },
  );
};
