/**
 * Why this agent (docs/domain.md, "The fit rule", Analytics that explain): why a lead went where
 * it went, what one agent fails for a lead, and why NEW leads fit no agent.
 */
import { z } from 'zod';
import { ASSIGNMENT_TRIGGERS, LEAD_CATEGORIES, LEAD_STATUSES } from '../domain';

/** Why an agent does not fit a lead, in the order they are checked (docs/domain.md). */
export const MISFIT_REASONS = [
  'DISABLED',
  'NOT_APPROVED',
  'NOT_ACTIVE',
  'PAUSED',
  'OUTSIDE_SCHEDULE',
  'ENROLLMENT_WINDOW',
  'AGENCY_SUSPENDED',
  'CATEGORY',
  'LICENCE',
  'STATE',
  'CITY',
  'AGE',
  'QUOTA_FULL',
  'WEEKLY_CAP',
  'MONTHLY_CAP',
  'BUDGET_SPENT',
  'BALANCE_TOO_LOW',
  'AGENCY_CAP_FULL',
] as const;
export type MisfitReason = (typeof MISFIT_REASONS)[number];

export const MISFIT_LABELS: Record<MisfitReason, string> = {
  DISABLED: 'Account disabled',
  NOT_APPROVED: 'Not approved',
  NOT_ACTIVE: 'No active package',
  PAUSED: 'Paused',
  OUTSIDE_SCHEDULE: 'Outside schedule',
  ENROLLMENT_WINDOW: 'Outside enrollment window',
  AGENCY_SUSPENDED: 'Agency suspended',
  CATEGORY: 'Other category',
  LICENCE: 'Not licensed in the state',
  STATE: 'State not chosen',
  CITY: 'City not chosen',
  AGE: 'Age outside range',
  QUOTA_FULL: 'Quota full today',
  WEEKLY_CAP: 'Weekly cap reached',
  MONTHLY_CAP: 'Monthly cap reached',
  BUDGET_SPENT: 'Monthly budget spent',
  BALANCE_TOO_LOW: 'Balance too low',
  AGENCY_CAP_FULL: "Agency's daily cap reached",
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
