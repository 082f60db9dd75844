/** The agent's Stripe billing (docs/domain.md, Billing). */
import { z } from 'zod';

/** The last invoice Stripe told about: paid or failed, how much, when, its hosted page. */
export const billingInvoice = z.object({
  status: z.enum(['paid', 'failed']),
  amountCents: z.number().int(),
  at: z.string(),
  url: z.string().nullable(),
});
export type BillingInvoice = z.infer<typeof billingInvoice>;

/**
 * The agent's billing (GET /api/agent/billing). state: OFF (no Stripe on this server), NONE,
 * AWAITING_CHECKOUT (a Checkout started and not paid yet), ACTIVE, PAST_DUE (the last payment
 * failed), CANCELED (Stripe ended it), SUSPENDED (an admin's hold).
 */
export const agentBilling = z.object({
  state: z.enum([
    'OFF',
    'NONE',
    'AWAITING_CHECKOUT',
    'ACTIVE',
    'PAST_DUE',
    'CANCELED',
    'SUSPENDED',
  ]),
  /** the package of the Checkout in progress */
  pendingPackageId: z.number().int().nullable(),
  /** the end of the paid period: the next renewal */
  currentPeriodEnd: z.string().nullable(),
  /** the agent has a Stripe customer: the billing portal can open */
  canManage: z.boolean(),
  lastInvoice: billingInvoice.nullable(),
});
export type AgentBilling = z.infer<typeof agentBilling>;

export const billingPortalAnswer = z.object({ url: z.string() });
