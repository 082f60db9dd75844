/**
 * Analytics that explain (docs/domain.md, Analytics that explain): speed to lead, the sources'
 * figures and the preferences preview.
 */
import { z } from 'zod';
import { LEAD_CATEGORIES, REFUSAL_REASONS, STATE_CODES } from '../domain';

/** A calendar date, YYYY-MM-DD. */
const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a date as YYYY-MM-DD');

/** A period of business dates, both ends included; defaults: the last 30 days. */
export const periodQuery = z
  .object({ from: isoDate.optional(), to: isoDate.optional() })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { message: 'from is after to' });
export type PeriodQuery = z.infer<typeof periodQuery>;

/**
 * Minutes from assignment to first contact (speed to lead) and to the agent's first view (speed
 * to open): median and 90th percentile, null when none.
 */
const speedFigures = z.object({
  /** leads assigned in the period */
  assigned: z.number().int(),
  /** of those, contacted (first_contact_at set) */
  contacted: z.number().int(),
  /** of those, never contacted yet: counted, not dropped */
  notContacted: z.number().int(),
  medianMinutes: z.number().nullable(),
  p90Minutes: z.number().nullable(),
  /**
   * Speed to open: minutes from assignment to the agent's first view of the lead (its drawer, a
   * push, an SMS link), over the opened ones; the others are counted, not dropped
   */
  open: z.object({
    opened: z.number().int(),
    notOpened: z.number().int(),
    medianMinutes: z.number().nullable(),
    p90Minutes: z.number().nullable(),
  }),
});

export const speedToLead = z.object({
  from: isoDate,
  to: isoDate,
  /** 'day' for periods up to 62 days, else 'week' (the week's Monday) */
  bucket: z.enum(['day', 'week']),
  overall: speedFigures,
  trend: z.array(speedFigures.extend({ date: isoDate })),
  agents: z.array(speedFigures.extend({ agentId: z.number().int(), name: z.string() })),
});
export type SpeedToLead = z.infer<typeof speedToLead>;
export type SpeedFigures = z.infer<typeof speedFigures>;

export const sourceStats = z.object({
  from: isoDate,
  to: isoDate,
  sources: z.array(
    z.object({
      /** null: leads that came with no source (CSV files naming none) */
      sourceId: z.number().int().nullable(),
      name: z.string(),
      costPerLeadCents: z.number().int(),
      /** leads stored in the period */
      received: z.number().int(),
      /** leads refused in the period, by reason (lead_refusals) */
      refused: z.object(
        Object.fromEntries(REFUSAL_REASONS.map((r) => [r, z.number().int()])) as Record<
          (typeof REFUSAL_REASONS)[number],
          z.ZodNumber
        >,
      ),
      /** of the received: given to an agent (now or ever) */
      assigned: z.number().int(),
      /** of the received: returned (an approved return) */
      returned: z.number().int(),
      /** of the received: CONVERTED */
      converted: z.number().int(),
      /** costPerLeadCents x received */
      costCents: z.number().int(),
      /** costCents / converted, rounded; null when nothing converted */
      costPerConversionCents: z.number().int().nullable(),
    }),
  ),
});
export type SourceStats = z.infer<typeof sourceStats>;

const csv = <T extends z.ZodTypeAny>(inner: T) =>
  z.preprocess(
    (v) =>
      v === undefined || v === ''
        ? []
        : (Array.isArray(v) ? v : String(v).split(','))
            .map((s) => String(s).trim())
            .filter((s) => s !== ''),
    z.array(inner).max(100),
  );

/** The preferences being edited, as query parameters (lists comma-separated). */
export const preferencesPreviewQuery = z
  .object({
    states: csv(z.enum(STATE_CODES)),
    cities: csv(z.string().max(100)),
    categories: csv(z.enum(LEAD_CATEGORIES)),
    ageMin: z.coerce.number().int().min(0).max(130).optional(),
    ageMax: z.coerce.number().int().min(0).max(130).optional(),
  })
  .refine((q) => q.ageMin === undefined || q.ageMax === undefined || q.ageMin <= q.ageMax, {
    message: 'ageMin is above ageMax',
  });
export type PreferencesPreviewQuery = z.infer<typeof preferencesPreviewQuery>;

export const preferencesPreview = z.object({
  /** the last `days` business days, today included */
  days: z.number().int(),
  /** null: the agent has no ACTIVE package; the preview then counts every category chosen */
  packageLeadsPerDay: z.number().int().nullable(),
  category: z.enum(LEAD_CATEGORIES).nullable(),
  /** the licence applied to the states (empty: not restricted) */
  licensedStates: z.array(z.string()),
  matched: z.number().int(),
  perDay: z.number(),
  daily: z.array(z.object({ date: isoDate, count: z.number().int() })),
});
export type PreferencesPreview = z.infer<typeof preferencesPreview>;
