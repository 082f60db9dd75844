import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { importListQuery, importRecord, importResult } from '../../../shared/contracts/leads';
import { AppError } from '../../lib/app-error';
import { currentUser, requireRole } from '../../plugins/auth';
import {
  getImport,
  importLeads,
  importSource,
  listRecentImports,
  noAssignmentAfterImport,
  type OnImported,
  tooLarge,
} from './imports.service';

export interface ImportsRoutesOptions {
  /** runs after each committed import (the assignment engine wires ASSIGN_ON_IMPORT here) */
  onImported?: OnImported;
  /** runs after each committed import, before onImported (the search indexer's kick) */
  afterCommit?: () => void;
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

export const importsRoutes: FastifyPluginAsyncZod<ImportsRoutesOptions> = async (app, opts) => {
  const maxBytes = app.config.MAX_UPLOAD_BYTES;
  await app.register(multipart, {
    limits: { fileSize: maxBytes, files: 1, fields: 10, parts: 20 },
  });
  const onImported = opts.onImported ?? noAssignmentAfterImport;
  const admin = requireRole('ADMIN');

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
      // a sourceId field must come before the file part (fields after it are not read yet)
      const sourceId = await importSource(app.db, fieldValue(part.fields.sourceId)).catch((err) => {
        part.file.resume();
        throw err;
      });
      const result = await importLeads(
        app.database,
        {
          file: guardUpload(part.file),
          filename,
          sourceId,
          actorId: currentUser(request).id,
          wasTruncated: () => part.file.truncated,
          maxBytes,
          duplicateWindowDays: app.config.DUPLICATE_WINDOW_DAYS,
          consent: app.config,
        },
        {
          afterCommit: () => opts.afterCommit?.(),
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
    (request) => listRecentImports(app.db, request.query),
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
    (request) => getImport(app.db, request.params.id),
  );
};

/** A multipart text field's value (the first, when sent twice); undefined when absent. */
function fieldValue(field: unknown): string | undefined {
  const first = Array.isArray(field) ? field[0] : field;
  const value = (first as { type?: string; value?: unknown } | undefined)?.value;
  return first && (first as { type?: string }).type === 'field' ? String(value) : undefined;
}

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
