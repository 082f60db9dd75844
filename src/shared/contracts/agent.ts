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

const age = z.number().int().min(MIN_LEAD_AGE).max(MAX_LEAD_AGE).nullable();

export const preferencesSchema = z
  .object({
    states: z.array(z.enum(STATE_CODES as [string, ...string[]])).max(50),
    cities: z.array(z.string().trim().min(1).max(100)).max(500),
    ageMin: age,
    ageMax: age,
    categories: z.array(z.enum(LEAD_CATEGORIES)).max(3),
  })
  .refine((p) => p.ageMin === null || p.ageMax === null || p.ageMin <= p.ageMax, {
    message: 'Minimum age cannot be above maximum age',
    path: ['ageMin'],
  });
export type Preferences = z.infer<typeof preferencesSchema>;

export const subscribeBody = z.object({ packageId: z.number().int().positive() });
export const subscriptionStatusBody = z.object({ status: z.enum(SUBSCRIPTION_STATUSES) });
