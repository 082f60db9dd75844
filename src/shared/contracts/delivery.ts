/**
 * Delivery (docs/domain.md, Delivery of assigned leads): the agent's delivery settings, the deliveries log, the lead's timeline,
 * the bell's notifications. Server routes validate and answer with these; the web reads them.
 */
import { z } from 'zod';
import {
  CALL_STATUSES,
  DELIVERY_CHANNELS,
  DELIVERY_STATUSES,
  LEAD_STATUSES,
  MESSAGE_CHANNELS,
  MESSAGE_STATUSES,
} from '../domain';

/** GET /api/agent/delivery */
export const deliverySettingsSchema = z.object({
  email: z.object({
    enabled: z.boolean(),
    /** where the emails go: the agent's login email */
    address: z.string(),
    /** false when the portal has no SMTP_URL: the channel is off whatever the agent chooses */
    configured: z.boolean(),
  }),
  webhook: z.object({
    url: z.string().nullable(),
    /** never the stored value: only whether one is set */
    authHeaderSet: z.boolean(),
    enabled: z.boolean(),
    /** the Standard Webhooks signing secret, whsec_... */
    secret: z.string(),
    /**
     * after a rotation: until when calls are also signed with the previous secret (24 hours);
     * null when only the current one signs
     */
    previousSecretUntil: z.string().nullable(),
    /** false when the agent's package has no CRM integration (services.crm) */
    available: z.boolean(),
    failuresInRow: z.number().int(),
    /** when the endpoint was switched off after failures in a row; null otherwise */
    disabledAt: z.string().nullable(),
  }),
});
export type DeliverySettings = z.infer<typeof deliverySettingsSchema>;

/**
 * PUT /api/agent/delivery. authHeader: omitted keeps the stored one, null removes it. Enabling
 * a webhook needs a url (https; refused when it resolves to a private address).
 */
export const deliverySettingsBody = z.object({
  email: z.object({ enabled: z.boolean() }).optional(),
  webhook: z
    .object({
      url: z.string().trim().max(2000).nullable().optional(),
      authHeader: z
        .string()
        .max(1000)
        // sent as a header: no line breaks or other control characters
        .refine(
          (value) => ![...value].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f),
          'The Authorization header must be on one line, without control characters',
        )
        .nullable()
        .optional(),
      enabled: z.boolean().optional(),
    })
    .optional(),
});
export type DeliverySettingsBody = z.infer<typeof deliverySettingsBody>;

/** One attempt, as POST /api/agent/delivery/webhook/test answers it and the log lists it. */
export const deliveryAttemptSchema = z.object({
  attempt: z.number().int(),
  status: z.enum(DELIVERY_STATUSES),
  responseCode: z.number().int().nullable(),
  latencyMs: z.number().int().nullable(),
  error: z.string().nullable(),
  at: z.string(),
});
export type DeliveryAttempt = z.infer<typeof deliveryAttemptSchema>;

/** POST /api/agent/delivery/webhook/test: the attempt, with the start of the receiver's answer. */
export const webhookTestResult = deliveryAttemptSchema.extend({
  ok: z.boolean(),
  responseBody: z.string().nullable(),
});
export type WebhookTestResult = z.infer<typeof webhookTestResult>;

/** A delivery of a lead on a channel: GET /api/admin/deliveries lists them. */
export const deliverySchema = z.object({
  id: z.number().int(),
  leadId: z.number().int(),
  leadName: z.string(),
  agentId: z.number().int(),
  agentName: z.string(),
  channel: z.enum(DELIVERY_CHANNELS),
  status: z.enum(DELIVERY_STATUSES),
  attempts: z.number().int(),
  responseCode: z.number().int().nullable(),
  latencyMs: z.number().int().nullable(),
  error: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  nextAttemptAt: z.string().nullable(),
});
export type Delivery = z.infer<typeof deliverySchema>;

export const deliveryListQuery = z.object({
  status: z.enum(DELIVERY_STATUSES).optional(),
  channel: z.enum(DELIVERY_CHANNELS).optional(),
  limit: z.coerce.number().int().min(1).max(500).optional(),
  offset: z.coerce.number().int().min(0).max(10_000_000).optional(),
});

/** Per channel over the last 24 hours: the admin screen's success rates. */
export const channelSummary = z.object({
  channel: z.enum(DELIVERY_CHANNELS),
  /** operational, failing (most recent attempts failed) or not configured */
  state: z.enum(['OPERATIONAL', 'FAILING', 'NOT_CONFIGURED']),
  sent: z.number().int(),
  failed: z.number().int(),
  pending: z.number().int(),
  /** sent / (sent + failed), 0..1; null with nothing finished */
  successRate: z.number().nullable(),
});
export type ChannelSummary = z.infer<typeof channelSummary>;

export const deliveryList = z.object({
  items: z.array(deliverySchema),
  total: z.number().int(),
  channels: z.array(channelSummary),
});
export type DeliveryList = z.infer<typeof deliveryList>;

/** GET /api/agent/leads/{id}/activity: the lead's timeline, oldest first. */
export const activityEntry = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('status'),
    at: z.string(),
    kind: z.string(),
    fromStatus: z.enum(LEAD_STATUSES).nullable(),
    toStatus: z.enum(LEAD_STATUSES),
    /** who acted: an admin's or the agent's name; null for the engine or the intake */
    actor: z.string().nullable(),
  }),
  z.object({
    type: z.literal('delivery'),
    at: z.string(),
    channel: z.enum(DELIVERY_CHANNELS),
    status: z.enum(DELIVERY_STATUSES),
    attempt: z.number().int(),
    responseCode: z.number().int().nullable(),
    error: z.string().nullable(),
  }),
  /** a follow-up message to the lead, or one from it (docs/domain.md, Follow-up messages and calls) */
  z.object({
    type: z.literal('message'),
    at: z.string(),
    channel: z.enum(MESSAGE_CHANNELS),
    outbound: z.boolean(),
    status: z.enum(MESSAGE_STATUSES),
    to: z.string(),
    body: z.string(),
    error: z.string().nullable(),
    /** WAITING: when the lead's calling window opens */
    sendAfter: z.string().nullable(),
  }),
  /** a click-to-call (docs/domain.md, Follow-up messages and calls): outcome and length */
  z.object({
    type: z.literal('call'),
    at: z.string(),
    status: z.enum(CALL_STATUSES),
    connectedAt: z.string().nullable(),
    durationSeconds: z.number().int().nullable(),
    recording: z.boolean(),
  }),
  /**
   * an alert of the new lead to its agent (docs/domain.md, Alerts to the agent's phone): a push to
   * one device (`to`: its push service's origin) or an SMS to the agent's phone
   */
  z.object({
    type: z.literal('alert'),
    at: z.string(),
    channel: z.enum(['PUSH', 'SMS']),
    /** SENT, RETRY (tried again later), FAILED, GONE (the device was removed), SKIPPED */
    status: z.enum(['SENT', 'RETRY', 'FAILED', 'GONE', 'SKIPPED']),
    attempt: z.number().int(),
    to: z.string().nullable(),
    responseCode: z.number().int().nullable(),
    error: z.string().nullable(),
  }),
]);
export type ActivityEntry = z.infer<typeof activityEntry>;
export const leadActivity = z.object({ items: z.array(activityEntry) });

/** The bell (GET /api/agent/notifications): newest first. */
export const notificationSchema = z.object({
  id: z.number().int(),
  kind: z.string(),
  leadId: z.number().int().nullable(),
  title: z.string(),
  body: z.string().nullable(),
  readAt: z.string().nullable(),
  createdAt: z.string(),
});
export type Notification = z.infer<typeof notificationSchema>;
export const notificationList = z.object({
  items: z.array(notificationSchema),
  unread: z.number().int(),
});
export type NotificationList = z.infer<typeof notificationList>;
/** POST /api/agent/notifications/read: the ids read, or all when omitted. */
export const notificationsReadBody = z.object({
  ids: z.array(z.number().int().positive()).max(500).optional(),
});

/**
 * The SSE stream (GET /api/agent/events): `event: lead.assigned` with this data; the web refetches
 * My Leads, the dashboard and the bell, and shows a toast naming the lead.
 */
export const leadAssignedEvent = z.object({
  leadId: z.number().int(),
  name: z.string(),
  city: z.string(),
  state: z.string(),
  category: z.string(),
  /** how many more came with it (an engine run gives many at once) */
  more: z.number().int(),
});
export type LeadAssignedEvent = z.infer<typeof leadAssignedEvent>;
