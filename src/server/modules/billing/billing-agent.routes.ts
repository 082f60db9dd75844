import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { agentBilling, billingPortalAnswer } from '../../../shared/contracts/billing';
import { AppError, conflict } from '../../lib/app-error';
import { currentUser, requireRole } from '../../plugins/auth';
import { type Billing, findAgentBilling } from './billing.service';

/** The agent's billing (docs/domain.md, Billing): its state for the package screen, and the customer portal. */
export const billingAgentRoutes: FastifyPluginAsyncZod<{ billing: Billing | null }> = async (
  app,
  { billing },
) => {
  const agent = { onRequest: requireRole('AGENT') };

  // a Stripe failure answers 503 (billing.service, viaStripe): its cause goes to the log
  app.addHook('onError', async (request, _reply, error) => {
    if (error instanceof AppError && error.cause) {
      request.log.warn({ err: error.cause }, error.message);
    }
  });

  app.get(
    '/api/agent/billing',
    { ...agent, schema: { response: { 200: agentBilling } } },
    (request) => findAgentBilling(app.db, billing, currentUser(request).id),
  );

  app.post(
    '/api/agent/billing/portal',
    { ...agent, schema: { response: { 200: billingPortalAnswer } } },
    (request) => {
      if (!billing) throw conflict('Billing is not set up on this server');
      return billing.portal(currentUser(request).id);
    },
  );
};
