import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { subscribeBody, subscriptionSummary } from '../../../shared/contracts/agent';
import { currentUser, requireRole } from '../../plugins/auth';
import { cancelSubscription, subscribe } from './subscriptions.service';

/** The agent's own subscription: subscribe, switch, cancel. */
export const agentSubscriptionRoutes: FastifyPluginAsyncZod = async (app) => {
  const agent = { onRequest: requireRole('AGENT') };

  app.post(
    '/api/agent/subscription',
    { ...agent, schema: { body: subscribeBody, response: { 200: subscriptionSummary } } },
    (request) => subscribe(app.db, currentUser(request).id, request.body.packageId),
  );

  app.delete(
    '/api/agent/subscription',
    { ...agent, schema: { response: { 200: subscriptionSummary } } },
    (request) => cancelSubscription(app.db, currentUser(request).id),
  );
};
