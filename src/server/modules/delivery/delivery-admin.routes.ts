import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { deliveryList, deliveryListQuery } from '../../../shared/contracts/delivery';
import { requireRole } from '../../plugins/auth';
import type { DeliveryPorts } from './deliveries.service';
import { deliveriesForAdmin, retryDelivery } from './delivery-logs.service';

const idParams = z.object({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });

/** The deliveries log (failed ones first to look at) and retrying a failed delivery. */
export const deliveryAdminRoutes: FastifyPluginAsyncZod<{ delivery: DeliveryPorts }> = async (
  app,
  opts,
) => {
  const admin = { onRequest: requireRole('ADMIN') };

  app.get(
    '/api/admin/deliveries',
    { ...admin, schema: { querystring: deliveryListQuery, response: { 200: deliveryList } } },
    (request) => deliveriesForAdmin(app.db, app.config, request.query),
  );

  app.post(
    '/api/admin/deliveries/:id/retry',
    {
      ...admin,
      schema: {
        params: idParams,
        response: { 202: z.object({ id: z.number().int(), status: z.literal('PENDING') }) },
      },
    },
    async (request, reply) => {
      await retryDelivery(app.db, opts.delivery, request.params.id);
      return reply.status(202).send({ id: request.params.id, status: 'PENDING' as const });
    },
  );
};
