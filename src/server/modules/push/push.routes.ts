import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { alertTestResult } from '../../../shared/contracts/alerts';
import {
  pushDeviceList,
  pushPublicKey,
  pushSubscriptionBody,
  pushUnsubscribeBody,
} from '../../../shared/contracts/push';
import { currentUser, requireRole } from '../../plugins/auth';
import { ALERT_TESTS_PER_HOUR } from '../alerts/alerts.service';
import {
  devicesOf,
  keyPair,
  type PushPorts,
  sendTestPush,
  subscribeDevice,
  unsubscribeDevice,
} from './push.service';

/**
 * Push (docs/domain.md, Alerts to the agent's phone): the server's public key for the browser's
 * PushManager (public: it is public), and the agent's devices: subscribe one, list them, remove
 * one. An agent only ever sees and removes their own.
 */
export const pushRoutes: FastifyPluginAsyncZod<{ push: PushPorts }> = async (app, opts) => {
  app.get('/api/push/public-key', { schema: { response: { 200: pushPublicKey } } }, async () => ({
    publicKey: (await keyPair(app.db, opts.push)).publicKey,
  }));
  const path = '/api/agent/push/subscriptions';
  app.get(
    path,
    { onRequest: requireRole('AGENT'), schema: { response: { 200: pushDeviceList } } },
    (request) => devicesOf(app.db, currentUser(request).id),
  );
  app.post(
    path,
    {
      onRequest: requireRole('AGENT'),
      schema: { body: pushSubscriptionBody, response: { 201: pushDeviceList } },
    },
    async (request, reply) => {
      const devices = await subscribeDevice(
        app.db,
        app.config,
        currentUser(request).id,
        request.body,
      );
      return reply.status(201).send(devices);
    },
  );
  app.delete(
    path,
    {
      onRequest: requireRole('AGENT'),
      schema: { body: pushUnsubscribeBody, response: { 200: pushDeviceList } },
    },
    (request) => unsubscribeDevice(app.db, currentUser(request).id, request.body.endpoint),
  );
  app.post(
    '/api/agent/push/test',
    {
      onRequest: requireRole('AGENT'),
      schema: {
        description: `A test push to each of the agent's devices, quiet hours or not (409 without a device; at most ${ALERT_TESTS_PER_HOUR} an hour: 429)`,
        response: { 200: alertTestResult },
      },
    },
    (request) => sendTestPush(app.db, opts.push, currentUser(request).id),
  );
};
