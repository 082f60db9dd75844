import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { adminAuditQuery, agencyAuditQuery, auditPage } from '../../../shared/contracts/audit';
import { currentUser, requireRole } from '../../plugins/auth';
import { adminAuditPage, agencyAuditPage } from './audit.service';

/**
 * The audit log, read only (docs/domain.md, Audit log): admins read every event, an agency's
 * owner their agency's. No route, for any role, changes or deletes a row.
 */
export const auditRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/admin/audit',
    {
      onRequest: requireRole('ADMIN'),
      schema: { querystring: adminAuditQuery, response: { 200: auditPage } },
    },
    (request) => adminAuditPage(app.db, request.query),
  );

  app.get(
    '/api/agency/audit',
    {
      onRequest: requireRole('AGENT'),
      schema: { querystring: agencyAuditQuery, response: { 200: auditPage } },
    },
    (request) => agencyAuditPage(app.db, currentUser(request).id, request.query),
  );
};
