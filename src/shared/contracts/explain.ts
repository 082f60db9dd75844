/**
 * Analytics that explain (docs/domain.md, Analytics that explain): speed to lead, the sources' figures, the preferences
 * preview and why a lead went where it went.
 */
import { z } from 'zod';
import {
  ASSIGNMENT_TRIGGERS,
  LEAD_CATEGORIES,
  LEAD_STATUSES,
  REFUSAL_REASONS,
  STATE_CODES,
} from '../domain';

/** A calendar date, YYYY-MM-DD. */
const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a date as YYYY-MM-DD');

/** A period of business dates, both ends included; defaults: the last 30 days. */
export const periodQuery = z
  .object({ from: isoDate.optional(), to: isoDate.optional() })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { message: 'from is after to' });
export type PeriodQuery = z.infer<typeof periodQuery>;

/** Minutes from assignment to first contact: median and 90th percentile, null when none. */
const speedFigures = z.object({
  /** leads assigned in the period */
  assigned: z.number().int(),
  /** of those, contacted (first_contact_at set) */
  contacted: z.number().int(),
  /** of those, never contacted yet: counted, not dropped */
  notContacted: z.number().int(),
  medianMinutes: z.number().nullable(),
  p90Minutes: z.number().nullable(),
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

/** Why an agent does not fit a lead, in the order they are checked (docs/domain.md). */
export const MISFIT_REASONS = [
  'NOT_ACTIVE',
  'PAUSED',
  'ENROLLMENT_WINDOW',
  'CATEGORY',
  'LICENCE',
  'STATE',
  'CITY',
  'AGE',
  'QUOTA_FULL',
] as const;
export type MisfitReason = (typeof MISFIT_REASONS)[number];

export const MISFIT_LABELS: Record<MisfitReason, string> = {
  NOT_ACTIVE: 'No active package',
  PAUSED: 'Paused',
  ENROLLMENT_WINDOW: 'Outside enrollment window',
  CATEGORY: 'Other category',
  LICENCE: 'Not licensed in the state',
  STATE: 'State not chosen',
  CITY: 'City not chosen',
  AGE: 'Age outside range',
  QUOTA_FULL: 'Quota full today',
};

const namedAgent = z.object({ id: z.number().int(), name: z.string() });

/** How many agents are named per reason; the count covers them all. */
export const AGENTS_NAMED_PER_REASON = 25;

/**
 * Every condition of the fit rule one agent fails for one lead (quota aside): what the Assign
 * Lead dialog warns of. Empty: the engine could give this lead to this agent.
 */
export const leadFit = z.object({
  leadId: z.number().int(),
  agentId: z.number().int(),
  reasons: z.array(z.enum(MISFIT_REASONS)),
});
export type LeadFit = z.infer<typeof leadFit>;

export const leadExplanation = z.object({
  lead: z.object({
    id: z.number().int(),
    status: z.enum(LEAD_STATUSES),
    category: z.enum(LEAD_CATEGORIES),
    state: z.string(),
    city: z.string(),
    age: z.number().int(),
    agentId: z.number().int().nullable(),
  }),
  /** the agents the lead fits now (for a NEW lead: with quota left today) */
  fits: z.array(
    namedAgent.extend({
      leadsPerDay: z.number().int(),
      assignedToday: z.number().int(),
    }),
  ),
  /** every other agent, by its first reason (in MISFIT_REASONS order) */
  misfits: z.array(
    z.object({
      reason: z.enum(MISFIT_REASONS),
      count: z.number().int(),
      agents: z.array(namedAgent),
    }),
  ),
  /** for an assigned lead: what assigned it (the newest assignment in its history) */
  assignment: z
    .object({
      kind: z.enum(['RUN', 'INTAKE', 'MANUAL']),
      at: z.string(),
      agent: namedAgent.nullable(),
      run: z
        .object({ id: z.number().int(), trigger: z.enum(ASSIGNMENT_TRIGGERS), at: z.string() })
        .nullable(),
      /** the admin who assigned it by hand */
      admin: namedAgent.nullable(),
    })
    .nullable(),
});
export type LeadExplanation = z.infer<typeof leadExplanation>;

/** NEW leads that fit no agent, by the furthest reason any agent got to. */
export const unfitReasons = z.object({
  /** NEW leads in all */
  newLeads: z.number().int(),
  /** of those, fitting at least one agent with quota left */
  fitting: z.number().int(),
  reasons: z.array(z.object({ reason: z.enum(MISFIT_REASONS), count: z.number().int() })),
});
export type UnfitReasons = z.infer<typeof unfitReasons>;
