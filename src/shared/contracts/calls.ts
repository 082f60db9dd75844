/** Calls, the agent's phone and services (docs/domain.md, Follow-up messages and calls): request and response shapes. */
import { z } from 'zod';
import { CALL_STATUSES } from '../domain';

/** PUT /api/agent/profile: the agent's own phone (any common US or E.164 form; null clears it). */
export const profileBody = z.object({ phone: z.string().max(40).nullable() });
export const profileResponse = z.object({
  /** E.164 */
  phone: z.string().nullable(),
  /** the agent proved the number is theirs by a code sent to it (click-to-call needs it) */
  phoneVerified: z.boolean(),
});
export type Profile = z.infer<typeof profileResponse>;

/** POST /api/agent/profile/phone/verify: where the code went, and until when it is good. */
export const phoneCodeSentResponse = z.object({ phone: z.string(), expiresAt: z.string() });
export type PhoneCodeSent = z.infer<typeof phoneCodeSentResponse>;

/** POST /api/agent/profile/phone/confirm */
export const phoneCodeBody = z.object({ code: z.string().regex(/^\d{6}$/, 'six digits') });

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
  phoneVerified: z.boolean(),
  calls: serviceAvailability,
  followUps: serviceAvailability,
});
export type AgentServices = z.infer<typeof agentServicesResponse>;

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
