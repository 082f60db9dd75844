import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AUDIT_ACTIONS } from '../../../shared/contracts/audit';
import {
  deliverySettingsBody,
  deliverySettingsSchema,
  leadActivity,
  webhookTestResult,
} from '../../../shared/contracts/delivery';
import { currentUser, requireRole } from '../../plugins/auth';
import { recordAuditEvent } from '../audit/audit.service';
import type { DeliveryPorts } from './deliveries.service';
import { leadActivity as activityOf } from './delivery-logs.service';
import {
  getDeliverySettings,
  rotateWebhookSecret,
  testWebhook,
  updateDeliverySettings,
} from './delivery-settings.service';

const leadParams = z.object({
  id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER),
});

/** A webhook URL as the audit log keeps it: without its query and fragment (tokens hide there). */
function withoutQuery(url: string | null): string | null {
  if (!url) return null;
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return null;
  }
}

/**
 * The signed-in agent's delivery settings, the webhook test, the signing secret's rotation, and a
 * lead's timeline.
 */
export const deliveryAgentRoutes: FastifyPluginAsyncZod<{ delivery: DeliveryPorts }> = async (
  app,
  opts,
) => {
  const agent = { onRequest: requireRole('AGENT') };

  app.get(
    '/api/agent/delivery',
    { ...agent, schema: { response: { 200: deliverySettingsSchema } } },
    (request) => getDeliverySettings(app.db, app.config, currentUser(request).id),
  );

  app.put(
    '/api/agent/delivery',
    {
      ...agent,
      schema: { body: deliverySettingsBody, response: { 200: deliverySettingsSchema } },
    },
    async (request) => {
      const user = currentUser(request);
      const before = await getDeliverySettings(app.db, app.config, user.id);
      const after = await updateDeliverySettings(app.db, app.config, user.id, request.body);
      // a security event (docs/domain.md, Audit log): where the agent's leads now go
      if (before.webhook.url !== after.webhook.url) {
        await recordAuditEvent(app.db, {
          actor: { id: user.id, role: user.role },
          ip: request.ip,
          action: AUDIT_ACTIONS.webhookUrlChanged,
          targetType: 'user',
          targetId: user.id,
          before: { url: withoutQuery(before.webhook.url) },
          after: { url: withoutQuery(after.webhook.url) },
        });
      }
      return after;
    },
  );

  app.post(
    '/api/agent/delivery/webhook/test',
    { ...agent, schema: { response: { 200: webhookTestResult } } },
    (request) =>
      testWebhook(
        app.db,
        app.config,
        opts.delivery.runtime,
        opts.delivery.connections,
        currentUser(request).id,
      ),
  );

  app.post(
    '/api/agent/delivery/webhook/secret/rotate',
    { ...agent, schema: { response: { 200: deliverySettingsSchema } } },
    (request) => rotateWebhookSecret(app.db, app.config, currentUser(request).id),
  );

  app.get(
    '/api/agent/leads/:id/activity',
    { ...agent, schema: { params: leadParams, response: { 200: leadActivity } } },
    (request) => activityOf(app.db, currentUser(request).id, request.params.id),
  );
};
