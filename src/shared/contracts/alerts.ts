/**
 * Alerts to the agent's phone (docs/domain.md, Alerts to the agent's phone): push to the agent's
 * devices and SMS to their verified phone, on or off, and quiet hours when neither goes out.
 */
import { z } from 'zod';

const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Use a time as HH:MM (24 h)');

export const quietHours = z.object({ start: hhmm, end: hhmm }).refine((q) => q.start !== q.end, {
  message: 'Quiet hours must end at another time than they start',
  path: ['end'],
});

/** PUT /api/agent/alerts */
export const alertSettingsBody = z.object({
  /** push to every device the agent turned push on for */
  push: z.boolean(),
  /** SMS to the agent's phone: needs a verified phone and a server that sends texts */
  sms: z.boolean(),
  /** HH:MM to HH:MM in the agent's time zone, crossing midnight when end < start; null: none */
  quietHours: quietHours.nullable(),
});
export type AlertSettingsBody = z.infer<typeof alertSettingsBody>;

/** GET/PUT /api/agent/alerts */
export const alertSettings = alertSettingsBody.extend({
  /** the zone quiet hours are read in: the agent's schedule's, else the business's */
  timeZone: z.string(),
  /** the phone SMS alerts go to, E.164; null: none saved */
  phone: z.string().nullable(),
  phoneVerified: z.boolean(),
  /** whether SMS alerts can be turned on now, and why not */
  smsAvailable: z.object({ available: z.boolean(), reason: z.string().nullable() }),
});
export type AlertSettings = z.infer<typeof alertSettings>;

/** POST /api/agent/alerts/sms/test and POST /api/agent/push/test */
export const alertTestResult = z.object({
  /** devices or phones the test went to */
  sent: z.number().int(),
  /** those that refused it, with the answer */
  failed: z.number().int(),
  error: z.string().nullable(),
});
export type AlertTestResult = z.infer<typeof alertTestResult>;

/** POST /api/agent/leads/{id}/viewed: when the agent first opened this lead since it was given to them. */
export const leadViewed = z.object({ firstViewedAt: z.string() });
export type LeadViewed = z.infer<typeof leadViewed>;
