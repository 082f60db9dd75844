import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  assignLeadBody,
  importListQuery,
  importRecord,
  importResult,
  leadListQuery,
  leadSchema,
} from '../../../shared/contracts/leads';
import { AppError, notFound } from '../../lib/app-error';
import { sendJsonText } from '../../lib/json-text';
import { currentUser, requireRole } from '../../plugins/auth';
import { listLeadsPage } from './admin-leads.repository';
import { assignLeadManually } from './assign-lead';
import { importLeads, noAssignmentAfterImport, type OnImported, tooLarge } from './import-leads';
import { failAbandonedImports, findImport, listImports } from './imports.repository';
import { LeadSearchIndexer } from './lead-search-indexer';

export interface AdminLeadsRoutesOptions {
  /** runs after each committed import (the assignment engine wires ASSIGN_ON_IMPORT here) */
  onImported?: OnImported;
}

/** Room for the multipart envelope around the file when checking Content-Length up front. */
const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

/** Extensions and types a browser may send for a .csv file; anything else is refused. */
const CSV_MIMETYPES = new Set([
  'text/csv',
  'text/plain',
  'text/x-csv',
  'text/comma-separated-values',
  'application/csv',
  'application/x-csv',
  'application/vnd.ms-excel', // what Windows browsers send for .csv
  'application/octet-stream',
  '',
]);

export const adminLeadsRoutes: FastifyPluginAsyncZod<AdminLeadsRoutesOptions> = async (
  app,
  opts,
) => {
  const maxBytes = app.config.MAX_UPLOAD_BYTES;
  await app.register(multipart, {
    limits: { fileSize: maxBytes, files: 1, fields: 10, parts: 20 },
  });
  const onImported = opts.onImported ?? noAssignmentAfterImport;
  const admin = requireRole('ADMIN');

  // The admin search's background indexer: started with the app (for what an earlier process
  // left queued), kicked after each import, stopped with the app.
  const searchIndexer = new LeadSearchIndexer(app.database, app.log);
  app.addHook('onReady', async () => {
    searchIndexer.kick();
    // imports a crashed process left RUNNING are settled as FAILED at start (else at the next
    // import); a database that is down now must not keep the app from starting
    await failAbandonedImports(app.database).catch((err: unknown) =>
      app.log.warn({ err }, 'could not settle abandoned imports at start'),
    );
  });
  app.addHook('onClose', () => searchIndexer.close());

  app.get(
    '/api/admin/leads',
    {
      onRequest: admin,
      schema: { querystring: leadListQuery, response: { 200: z.array(leadSchema) } },
    },
    async (request, reply) => {
      const page = await listLeadsPage(app.db, request.query);
      reply.header('X-Total-Count', String(page.total));
      // a search with more matches than it counts: the total is a lower bound
      if (!page.exact) reply.header('X-Total-Count-Exact', 'false');
      return sendJsonText(reply, page.leadsJson);
    },
  );

  app.post(
    '/api/admin/leads/assign',
    { onRequest: admin, schema: { body: assignLeadBody, response: { 200: leadSchema } } },
    (request) =>
      assignLeadManually(app.db, {
        leadId: request.body.leadId,
        agentId: request.body.userId,
        actorId: currentUser(request).id,
        timeZone: app.config.BUSINESS_TZ,
      }),
  );

  app.post(
    '/api/admin/leads/import',
    {
      onRequest: [admin, async (request) => checkUploadHeaders(request, maxBytes)],
      schema: { response: { 200: importResult } },
    },
    async (request) => {
      const part = await request.file().catch((err) => {
        throw uploadError(err);
      });
      if (!part)
        throw new AppError('BAD_REQUEST', 'No file was uploaded: send the CSV in a file field');
      // control characters (NUL above all) cannot be stored in the import record
      // biome-ignore lint/suspicious/noControlCharactersInRegex: removing them is the point
      const filename = (part.filename ?? '').replace(/[\u0000-\u001f\u007f]/g, '');
      if (!/\.csv$/i.test(filename) || !CSV_MIMETYPES.has(part.mimetype.toLowerCase())) {
        part.file.resume(); // let the rest of the upload drain so the answer reaches the client
        throw new AppError(
          'UNSUPPORTED_MEDIA_TYPE',
          `Only .csv files can be imported ('${filename.slice(0, 100)}' is ${part.mimetype || 'of an unknown type'})`,
        );
      }
      const result = await importLeads(
        app.database,
        {
          file: guardUpload(part.file),
          filename,
          actorId: currentUser(request).id,
          wasTruncated: () => part.file.truncated,
          maxBytes,
        },
        {
          afterCommit: () => searchIndexer.kick(),
          onImported: async (importId) => {
            try {
              return await onImported(importId);
            } catch (err) {
              request.log.error({ err, importId }, 'assignment after import failed');
              return null;
            }
          },
        },
      );
      return result;
    },
  );

  // The import page polls these while an import runs (the one place the UI polls: a large
  // import takes minutes and nothing else would tell the admin how far it is).
  app.get(
    '/api/admin/imports',
    {
      onRequest: admin,
      schema: { querystring: importListQuery, response: { 200: z.array(importRecord) } },
    },
    (request) => listImports(app.db, request.query),
  );

  app.get(
    '/api/admin/imports/:id',
    {
      onRequest: admin,
      schema: {
        params: z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) }),
        response: { 200: importRecord },
      },
    },
    async (request) => {
      const record = await findImport(app.db, request.params.id);
      if (!record) throw notFound('Import');
      return record;
    },
  );
};

/** Refuses before any byte is read: a body that is not multipart, or one declared too large. */
function checkUploadHeaders(request: FastifyRequest, maxBytes: number): void {
  const type = request.headers['content-type'] ?? '';
  if (!/^multipart\/form-data/i.test(type)) {
    throw new AppError(
      'UNSUPPORTED_MEDIA_TYPE',
      'Upload the CSV as multipart/form-data with a file field',
    );
  }
  // RFC 2046: a boundary of 1 to 70 characters (the multipart parser throws without one)
  if (!/;\s*boundary=(?:"[^"]{1,70}"|[^\s;"]{1,70})\s*(?:;|$)/i.test(type)) {
    throw new AppError('BAD_REQUEST', 'The multipart/form-data body has no valid boundary');
  }
  const length = Number(request.headers['content-length']);
  if (Number.isFinite(length) && length > maxBytes + MULTIPART_OVERHEAD_BYTES) {
    throw tooLarge(maxBytes);
  }
}

/** A multipart body cut short or malformed is the client's error (400), not a server fault. */
function uploadError(err: unknown): unknown {
  if (err instanceof AppError || typeof (err as { statusCode?: unknown })?.statusCode === 'number')
    return err;
  return new AppError('BAD_REQUEST', 'The upload is not a complete multipart/form-data body');
}

async function* guardUpload(stream: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  try {
    for await (const chunk of stream) yield chunk;
  } catch (err) {
    throw uploadError(err);
  }
}
