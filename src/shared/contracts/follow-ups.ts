/** Follow-up messages (docs/domain.md, Follow-up messages and calls): request and response shapes. */
import { z } from 'zod';
import { MESSAGE_CHANNELS, MESSAGE_STATUSES } from '../domain';
import { serviceAvailability } from './calls';

/** The placeholders a follow-up template may use. */
export const FOLLOW_UP_PLACEHOLDERS = ['firstName', 'lastName', 'agentName', 'agentPhone'] as const;

/**
 * An SMS to a consumer must tell how to stop them (the carriers' and the TCPA's rule): "STOP",
 * "opt out" or "unsubscribe" somewhere in the text.
 */
export function hasOptOutWording(sms: string): boolean {
  return /\b(stop|opt[\s-]?out|unsubscribe)\b/i.test(sms);
}

export const OPT_OUT_MISSING = 'Add opt-out wording to the SMS, like "Reply STOP to opt out."';

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
