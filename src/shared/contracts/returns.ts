/**
 * Returns and credits (docs/domain.md, Returns and credits). Server routes validate and answer
 * with these; the web reads them.
 */
import { z } from 'zod';
import { RETURN_REASONS, RETURN_STATUSES } from '../domain';

const _businessDateString = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Use a date as YYYY-MM-DD');

/** POST /api/agent/leads/{id}/return */
export const returnRequestBody = z.object({
  reason: z.enum(RETURN_REASONS),
  note: z.string().trim().max(1000).nullish(),
});
export type ReturnRequest = z.infer<typeof returnRequestBody>;

/** A lead's return as its agent sees it. */
export const leadReturnSchema = z.object({
  id: z.number().int(),
  leadId: z.number().int(),
  reason: z.enum(RETURN_REASONS),
  note: z.string().nullable(),
  status: z.enum(RETURN_STATUSES),
  decisionNote: z.string().nullable(),
  decidedAt: z.string().nullable(),
  createdAt: z.string(),
});
export type LeadReturn = z.infer<typeof leadReturnSchema>;

/** GET /api/agent/leads/{id}/return: the lead's latest return, if any. */
export const leadReturnState = z.object({ return: leadReturnSchema.nullable() });
export type LeadReturnState = z.infer<typeof leadReturnState>;

/** A return in the admin's queue: the lead, the agent, the request and its age. */
export const adminReturnSchema = leadReturnSchema.extend({
  lead: z.object({
    name: z.string(),
    phone: z.string().nullable(),
    city: z.string(),
    state: z.string(),
    category: z.string(),
    status: z.string(),
    assignedAt: z.string().nullable(),
  }),
  agent: z.object({ id: z.number().int(), name: z.string(), email: z.string() }),
  decidedBy: z.string().nullable(),
  /** hours since the request */
  ageHours: z.number().int(),
});
export type AdminReturn = z.infer<typeof adminReturnSchema>;

export const adminReturnsQuery = z.object({
  status: z.enum(RETURN_STATUSES).default('PENDING'),
  limit: z.coerce.number().int().min(1).max(200).default(100),
});
export const adminReturnList = z.object({
  items: z.array(adminReturnSchema),
  /** pending returns in all (the menu's badge) */
  pending: z.number().int(),
});
export type AdminReturnList = z.infer<typeof adminReturnList>;

/** POST /api/admin/returns/{id}/decision */
export const returnDecisionBody = z.object({
  approve: z.boolean(),
  note: z.string().trim().max(1000).nullish(),
});
