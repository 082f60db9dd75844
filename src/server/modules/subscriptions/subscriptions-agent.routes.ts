import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  subscribeAnswer,
  subscribeBody,
  subscriptionSummary,
} from '../../../shared/contracts/agent';
import { AppError } from '../../lib/app-error';
import { currentUser, requireRole } from '../../plugins/auth';
import { cancelSubscription, type SubscriptionBilling, subscribe } from './subscriptions.service';

/**
 * The agent's own subscription: subscribe, switch, cancel. With Stripe Billing on (`billing`),
 * subscribing may answer `{checkoutUrl}`: the agent pays first (docs/domain.md, Billing).
 */
export const agentSubscriptionRoutes: FastifyPluginAsyncZod<{
  billing?: SubscriptionBilling | null;
}> = async (app, { billing }) => {
  const agent = { onRequest: requireRole('AGENT') };

  // a Stripe failure answers 503 (billing.service, viaStripe): its cause goes to the log
  app.addHook('onError', async (request, _reply, error) => {
    if (error instanceof AppError && error.cause) {
      request.log.warn({ err: error.cause }, error.message);
    }
  });

  app.post(
    '/api/agent/subscription',
    { ...agent, schema: { body: subscribeBody, response: { 200: subscribeAnswer } } },
    (request) => subscribe(app.db, currentUser(request).id, request.body.packageId, billing),
  );

  app.delete(
    '/api/agent/subscription',
    { ...agent, schema: { response: { 200: subscriptionSummary } } },
    (request) => cancelSubscription(app.db, currentUser(request).id, billing),
  );
};
