import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { leadListQuery } from '../../../shared/contracts/leads';
import { businessDate } from '../../lib/business-time';
import { requireRole } from '../../plugins/auth';
import { exportLeadsCsv } from './leads-export.service';

/** The leads page's filter (status and search), without its paging. */
const leadExportQuery = leadListQuery.pick({ status: true, q: true });

/** GET /api/admin/leads/export: the leads of the current filter as a CSV download, streamed. */
export const leadsExportRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/admin/leads/export',
    {
      onRequest: requireRole('ADMIN'),
      schema: {
        querystring: leadExportQuery,
        // the body is a stream of CSV text, piped as it is (a stream is never serialized)
        response: { 200: z.instanceof(Readable).describe('text/csv') },
      },
    },
    async (request, reply) => {
      const csv = exportLeadsCsv(app.database.readDb, {
        status: request.query.status,
        q: request.query.q || undefined,
      });
      // the first batch is read before answering: a failing query still gets its error status
      const first = await csv.next();
      const filename = `leads-${businessDate(app.config.BUSINESS_TZ)}.csv`;
      reply
        .type('text/csv; charset=utf-8')
        .header('Content-Disposition', `attachment; filename="${filename}"`)
        // personal data: no shared or browser cache keeps a copy
        .header('Cache-Control', 'no-store');
      return reply.send(Readable.from(prepend(first, csv)));
    },
  );
};

async function* prepend(
  first: IteratorResult<string>,
  rest: AsyncGenerator<string>,
): AsyncGenerator<string> {
  if (first.done) return;
  yield first.value;
  yield* rest;
}
