import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  loginBody,
  messageResponse,
  publicUser,
  registerBody,
  userEnvelope,
} from '../../../shared/contracts/auth';
import {
  clearSessionCookie,
  currentUser,
  requireRole,
  sessionPolicy,
  setSessionCookie,
} from '../../plugins/auth';
import { login, logout, registerAgent } from './auth.service';
import { LoginThrottle, RegistrationThrottle } from './login-throttle';

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const throttle = new LoginThrottle();
  const registrations = new RegistrationThrottle({
    perAddress: app.config.REGISTRATIONS_PER_ADDRESS,
    total: app.config.REGISTRATIONS_TOTAL,
    windowMs: 15 * 60_000,
  });

  app.post(
    '/api/auth/register',
    { schema: { body: registerBody, response: { 201: userEnvelope } } },
    async (request, reply) => {
      const user = await registerAgent(app.db, request.body, request.ip, registrations);
      return reply.status(201).send({ user });
    },
  );

  app.post(
    '/api/auth/login',
    { schema: { body: loginBody, response: { 200: userEnvelope } } },
    async (request, reply) => {
      const { user, token } = await login(
        app.db,
        request.body,
        request.ip,
        throttle,
        sessionPolicy(app),
      );
      // rotate: once the login succeeded, the session presented with it is dropped and the new
      // one gets a fresh token (a failed login leaves the caller's session as it was)
      await logout(app.db, request.sessionTokenHash);
      setSessionCookie(app, reply, token);
      return { user };
    },
  );

  app.post(
    '/api/auth/logout',
    { schema: { response: { 200: messageResponse } } },
    async (request, reply) => {
      await logout(app.db, request.sessionTokenHash);
      clearSessionCookie(app, reply);
      return { message: 'Logged out' };
    },
  );

  app.get(
    '/api/auth/me',
    // the spec's current-user answer has role itself (login's has user.role)
    { onRequest: requireRole(), schema: { response: { 200: publicUser } } },
    async (request) => currentUser(request),
  );
};
