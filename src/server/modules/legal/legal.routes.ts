import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  LEGAL_PAGE_MAX_CHARS,
  legalPage,
  legalPageBody,
  legalPageParams,
} from '../../../shared/contracts/legal';
import { currentUser, requireRole } from '../../plugins/auth';
import { legalPageOf, saveLegalPage } from './legal.service';

/** The footer's Privacy Policy and Terms of Service: public to read, admins write them. */
export const legalRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/legal/:page',
    { schema: { params: legalPageParams, response: { 200: legalPage } } },
    (request) => legalPageOf(app.db, request.params.page),
  );

  app.put(
    '/api/admin/legal/:page',
    {
      onRequest: requireRole('ADMIN'),
      // the longest text in UTF-8 (at most 4 bytes a character) and its JSON around it
      bodyLimit: LEGAL_PAGE_MAX_CHARS * 4 + 1024,
      schema: { params: legalPageParams, body: legalPageBody, response: { 200: legalPage } },
    },
    (request) =>
      saveLegalPage(app.db, request.params.page, request.body.body, currentUser(request).id),
  );
};
