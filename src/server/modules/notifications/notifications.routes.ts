import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { notificationList, notificationsReadBody } from '../../../shared/contracts/delivery';
import type { UserRole } from '../../../shared/domain';
import { currentUser, requireRole } from '../../plugins/auth';
import { notificationsOf, readNotifications } from './notifications.service';

/**
 * The bell, for each role on its own path (an agent's leads, an admin's alerts such as a CRM
 * endpoint switched off): the newest notifications with the unread count, and marking them read
 * (the ids named, or all). A user only ever sees and marks their own.
 */
export const notificationsRoutes: FastifyPluginAsyncZod = async (app) => {
  const paths: [UserRole, string][] = [
    ['AGENT', '/api/agent/notifications'],
    ['ADMIN', '/api/admin/notifications'],
  ];
  for (const [role, path] of paths) {
    app.get(
      path,
      { onRequest: requireRole(role), schema: { response: { 200: notificationList } } },
      (request) => notificationsOf(app.db, currentUser(request).id),
    );
    app.post(
      `${path}/read`,
      {
        onRequest: requireRole(role),
        schema: { body: notificationsReadBody, response: { 200: notificationList } },
      },
      async (request) => {
        const userId = currentUser(request).id;
        await readNotifications(app.db, userId, request.body.ids);
        return notificationsOf(app.db, userId);
      },
    );
  }
};
