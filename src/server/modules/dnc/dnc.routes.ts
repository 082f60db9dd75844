import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  DNC_UPLOAD_MAX_BYTES,
  dncList,
  dncListQuery,
  dncNumberSchema,
  dncPhoneParams,
  dncUploadBody,
  dncUploadResult,
} from '../../../shared/contracts/dnc';
import { currentUser, requireRole } from '../../plugins/auth';
import { listDncNumbers, removeDncNumber, uploadDnc } from './dnc.service';

/**
 * Admins' do-not-call list (docs/domain.md, Do-not-call list and consent). An upload is a CSV sent as the body itself (text/csv or
 * text/plain) or JSON `{phones}`: a list of numbers has no other fields, so no multipart.
 */
export const dncRoutes: FastifyPluginAsyncZod = async (app) => {
  const admin = { onRequest: requireRole('ADMIN') };
  // this plugin's own parser: the CSV arrives as text, whole, within the upload limit
  app.addContentTypeParser(
    ['text/csv', 'text/plain'],
    { parseAs: 'string', bodyLimit: DNC_UPLOAD_MAX_BYTES },
    (_request, body, done) => done(null, body),
  );

  app.get(
    '/api/admin/dnc',
    { ...admin, schema: { querystring: dncListQuery, response: { 200: dncList } } },
    (request) => listDncNumbers(app.db, request.query),
  );

  app.post(
    '/api/admin/dnc',
    {
      ...admin,
      bodyLimit: DNC_UPLOAD_MAX_BYTES,
      schema: {
        description:
          'Adds numbers to the list: a CSV as the body (text/csv or text/plain: a `phone` column, ' +
          'or one number a line) or JSON `{phones}`. Numbers are stored in E.164; bad lines are ' +
          'reported by line and the good ones kept.',
        consumes: ['application/json', 'text/csv', 'text/plain'],
        body: dncUploadBody,
        response: { 200: dncUploadResult },
      },
    },
    (request) => uploadDnc(app.db, request.body, currentUser(request).id),
  );

  app.delete(
    '/api/admin/dnc/:phone',
    {
      ...admin,
      schema: { params: dncPhoneParams, response: { 200: dncNumberSchema.pick({ phone: true }) } },
    },
    (request) => removeDncNumber(app.db, request.params.phone),
  );
};
