import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError, badRequest } from '../../lib/app-error';
import type { Billing } from './billing.service';

/** Stripe's events are small; a few hundred KiB leaves room for large invoices. */
const WEBHOOK_BODY_LIMIT = 512 * 1024;

/**
 * Stripe's webhooks (docs/domain.md, Billing), server to server: no session, no Origin. The signature is
 * checked over the exact bytes Stripe sent, so this plugin (encapsulated: the rest of the app
 * keeps its JSON parser) reads an application/json body as a Buffer, unparsed.
 */
export const stripeWebhookRoutes: FastifyPluginAsyncZod<{ billing: Billing | null }> = async (
  app,
  { billing },
) => {
  app.removeContentTypeParser('application/json');

  // a Stripe failure answers 503 (billing.service, viaStripe): its cause goes to the log
  app.addHook('onError', async (request, _reply, error) => {
    if (error instanceof AppError && error.cause) {
      request.log.warn({ err: error.cause }, error.message);
    }
  });
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => {
    done(null, body);
  });

  app.post(
    '/api/billing/stripe/webhook',
    {
      bodyLimit: WEBHOOK_BODY_LIMIT,
      schema: {
        description: 'Stripe webhook events, signed (Stripe-Signature); each applied once',
        // the raw bytes: the signature is checked over them before anything is parsed
        body: z.unknown(),
        response: { 200: z.object({ received: z.literal(true), outcome: z.string() }) },
      },
    },
    async (request) => {
      if (!billing) throw new AppError('NOT_FOUND', 'Billing is not set up on this server');
      if (!Buffer.isBuffer(request.body)) throw badRequest('Expected a Stripe event');
      const signature = request.headers['stripe-signature'];
      const outcome = await billing.handleWebhook(
        request.body,
        typeof signature === 'string' ? signature : undefined,
      );
      return { received: true as const, outcome };
    },
  );
};
