import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  privacyDeletionBody,
  privacyDeletionList,
  privacyDeletionSchema,
  privacyDeletionsQuery,
} from '../../../shared/contracts/privacy';
import { currentUser, requireRole } from '../../plugins/auth';
import { listPrivacyDeletions, type PrivacyPorts, requestDeletion } from './privacy.service';

/** Consumer deletion (docs/domain.md, Consumer deletion and retention): admins only. */
export const privacyRoutes: FastifyPluginAsyncZod<{ privacy: PrivacyPorts }> = async (
  app,
  opts,
) => {
  const admin = { onRequest: requireRole('ADMIN') };

  app.post(
    '/api/admin/privacy/deletions',
    {
      ...admin,
      // the audit log keeps the answer (counts), never the consumer's phone or email
      config: { auditRecords: 'answer' },
      schema: {
        description:
          'Deletes a consumer: every lead with this phone or email is anonymized (name, contact, address, consent, recordings, message texts; statuses and counts stay), each CRM that received one is sent a signed lead.deleted event, and a keyed hash of the phone and email refuses the consumer at import and intake (422 suppressed). Nothing of the contact is kept.',
        body: privacyDeletionBody,
        response: { 201: privacyDeletionSchema },
      },
    },
    async (request, reply) => {
      const deletion = await requestDeletion(
        app.db,
        opts.privacy,
        currentUser(request).id,
        request.body,
      );
      return reply.status(201).send(deletion);
    },
  );

  app.get(
    '/api/admin/privacy/deletions',
    {
      ...admin,
      schema: { querystring: privacyDeletionsQuery, response: { 200: privacyDeletionList } },
    },
    (request) => listPrivacyDeletions(app.db, request.query),
  );
};
