/** Follow-up messages, calls and the agent's phone (docs/domain.md, Follow-up messages and calls): request and response shapes. */
import { z } from 'zod';
import { CALL_STATUSES, MESSAGE_CHANNELS, MESSAGE_STATUSES } from '../domain';

/** PUT /api/agent/profile: the agent's own phone (any common US or E.164 form; null clears it). */
export const profileBody = z.object({ phone: z.string().max(40).nullable() });
export const profileResponse = z.object({
  /** E.164 */
  phone: z.string().nullable(),
});
export type Profile = z.infer<typeof profileResponse>;

/** Whether a service can be used now, and why not. */
export const serviceAvailability = z.object({
  available: z.boolean(),
  /** "Not configured", "Your package does not include Call Recording", ... */
  reason: z.string().nullable(),
});
export type ServiceAvailability = z.infer<typeof serviceAvailability>;

/** GET /api/agent/services: the agent's phone and the two services' state. */
export const agentServicesResponse = z.object({
  phone: z.string().nullable(),
  calls: serviceAvailability,
  followUps: serviceAvailability,
});
export type AgentServices = z.infer<typeof agentServicesResponse>;

/** The placeholders a follow-up template may use. */
export const FOLLOW_UP_PLACEHOLDERS = ['firstName', 'agentName', 'agentPhone'] as const;

export const followUpBody = z.object({
  enabled: z.boolean(),
  sms: z.string().max(640),
  email: z.object({ subject: z.string().max(200), body: z.string().max(5000) }),
});
export type FollowUpSettings = z.infer<typeof followUpBody>;
export const followUpResponse = followUpBody.extend({ availability: serviceAvailability });
export type FollowUpResponse = z.infer<typeof followUpResponse>;

/** `{firstName}` etc. filled in; a placeholder without a value is left empty. */
export function fillTemplate(template: string, values: Record<string, string | null>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in values ? (values[name] ?? '') : whole,
  );
}

/** The placeholders of a template that are not known ones. */
export function unknownPlaceholders(template: string): string[] {
  const known = new Set<string>(FOLLOW_UP_PLACEHOLDERS);
  return [...template.matchAll(/\{(\w*)\}/g)]
    .map((m) => m[1] ?? '')
    .filter((name) => !known.has(name));
}

/** One call of the lead's call log. */
export const callEntry = z.object({
  id: z.number().int(),
  status: z.enum(CALL_STATUSES),
  createdAt: z.string(),
  connectedAt: z.string().nullable(),
  durationSeconds: z.number().int().nullable(),
  error: z.string().nullable(),
  /** seconds of the recording; null: none (yet) */
  recordingSeconds: z.number().int().nullable(),
  /** GET /api/recordings/{id}, when there is a recording */
  recordingUrl: z.string().nullable(),
});
export type CallEntry = z.infer<typeof callEntry>;
export const leadCallsResponse = z.object({ items: z.array(callEntry) });

/** POST /api/agent/leads/{id}/call: the call, ringing the agent's phone. */
export const startCallResponse = callEntry;

/** The admin's figures of follow-up messages (Deliveries screen). */
const messageFigures = z.object({
  sent: z.number().int(),
  delivered: z.number().int(),
  failed: z.number().int(),
  waiting: z.number().int(),
  blocked: z.array(z.object({ reason: z.string(), count: z.number().int() })),
});
export const followUpStatsResponse = z.object({
  sms: z.enum(['OPERATIONAL', 'FAILING', 'NOT_CONFIGURED']),
  email: z.enum(['OPERATIONAL', 'FAILING', 'NOT_CONFIGURED']),
  last24h: messageFigures,
  last7d: messageFigures,
});
export type FollowUpStats = z.infer<typeof followUpStatsResponse>;

export const messageChannel = z.enum(MESSAGE_CHANNELS);
export const messageStatus = z.enum(MESSAGE_STATUSES);
