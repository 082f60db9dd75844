import { z } from 'zod';
import {
  LEAD_CATEGORIES,
  MAX_LEAD_AGE,
  MIN_LEAD_AGE,
  STATE_CODES,
  SUBSCRIPTION_STATUSES,
} from '../domain';

export const quotaSchema = z.object({ assigned: z.number().int(), limit: z.number().int() });

export const subscriptionSummary = z.object({
  id: z.number().int(),
  status: z.enum(SUBSCRIPTION_STATUSES),
  packageId: z.number().int(),
  package: z.object({
    name: z.string(),
    priceMonthlyCents: z.number().int(),
    category: z.string(),
    leadsPerDay: z.number().int(),
  }),
});
export type SubscriptionSummary = z.infer<typeof subscriptionSummary>;

export const agentStats = z.object({
  subscription: subscriptionSummary.nullable().optional(),
  todayQuota: quotaSchema,
  totalLeads: z.number().int(),
  convertedLeads: z.number().int(),
});
export type AgentStats = z.infer<typeof agentStats>;

const AGE_RANGE_MESSAGE = `Age must be between ${MIN_LEAD_AGE} and ${MAX_LEAD_AGE}`;
const age = z
  .number({ error: 'Age must be a number' })
  .int({ error: 'Age must be a whole number' })
  .min(MIN_LEAD_AGE, { error: AGE_RANGE_MESSAGE })
  .max(MAX_LEAD_AGE, { error: AGE_RANGE_MESSAGE })
  .nullable();

const stateCode = z.enum(STATE_CODES as [string, ...string[]], {
  error: (issue) => `Unknown state code: ${String(issue.input)}`,
});

/**
 * What an agent sends: the rules of the Preferences screen. Blank cities are
 * allowed here and dropped by the server, as the screen drops them.
 */
export const preferencesSchema = z
  .object({
    states: z.array(stateCode).max(STATE_CODES.length),
    cities: z
      .array(z.string().trim().max(100, { error: 'A city name is at most 100 characters' }))
      .max(500),
    ageMin: age,
    ageMax: age,
    categories: z.array(z.enum(LEAD_CATEGORIES)).max(3),
  })
  .refine((p) => p.ageMin === null || p.ageMax === null || p.ageMin <= p.ageMax, {
    message: 'Minimum age cannot be above maximum age',
    path: ['ageMin'],
  });
export type Preferences = z.infer<typeof preferencesSchema>;

/** What the server stored (plain shape, so the response serializer can encode it). */
export const preferencesResponse = z.object({
  states: z.array(z.string()),
  cities: z.array(z.string()),
  ageMin: z.number().int().nullable(),
  ageMax: z.number().int().nullable(),
  categories: z.array(z.enum(LEAD_CATEGORIES)),
  /** the states the agent is licensed in (empty: not restricted) */
  licensedStates: z.array(z.string()).optional(),
  /** preferred states outside the licence: the engine gives none of them */
  unlicensedStates: z.array(z.string()).optional(),
});

export const subscribeBody = z.object({
  packageId: z.number().int().positive().max(2_147_483_647),
});
export const subscriptionStatusBody = z.object({ status: z.enum(SUBSCRIPTION_STATUSES) });

/** Subscribing with Stripe Billing on: where to pay (Stripe Checkout) before anything changes. */
export const checkoutStarted = z.object({ checkoutUrl: z.string() });
/** POST /api/agent/subscription: the subscription, or Checkout's URL when the agent pays first. */
export const subscribeAnswer = z.union([subscriptionSummary, checkoutStarted]);
export type SubscribeAnswer = z.infer<typeof subscribeAnswer>;
