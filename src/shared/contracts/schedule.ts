/** The agent's schedule and caps (docs/domain.md, Schedule and caps). */
import { z } from 'zod';

const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Use a time as HH:MM (24 h)');
/** an end may be 24:00, the end of the day */
const hhmmEnd = z.string().regex(/^(([01]\d|2[0-3]):[0-5]\d|24:00)$/, 'Use a time as HH:MM (24 h)');

/** One day's hours, start included, end excluded; null: no leads that day. */
const dayHours = z.object({ start: hhmm, end: hhmmEnd }).nullable();

export const scheduleDays = z.object({
  mon: dayHours,
  tue: dayHours,
  wed: dayHours,
  thu: dayHours,
  fri: dayHours,
  sat: dayHours,
  sun: dayHours,
});
export type ScheduleDays = z.infer<typeof scheduleDays>;

/** PUT /api/agent/schedule: the hours of each weekday in the agent's IANA time zone. */
export const scheduleBody = z.object({
  timeZone: z.string().min(1).max(64),
  days: scheduleDays,
});
export type ScheduleBody = z.infer<typeof scheduleBody>;

/** GET/PUT /api/agent/schedule: both null when none is saved (leads at any time). */
export const scheduleState = z.object({
  timeZone: z.string().nullable(),
  days: scheduleDays.nullable(),
});
export type ScheduleState = z.infer<typeof scheduleState>;

const count = z.number().int().positive().max(1_000_000).nullable();

/**
 * GET/PUT /api/agent/caps: each null means none. `daily` at most the package's leads per day;
 * `monthlyBudgetCents` bounds a month's pay-per-lead charges once pay per lead exists.
 */
export const capsBody = z.object({
  daily: count,
  weekly: count,
  monthly: count,
  monthlyBudgetCents: z.number().int().positive().max(2_147_483_647).nullable(),
});
export type Caps = z.infer<typeof capsBody>;
