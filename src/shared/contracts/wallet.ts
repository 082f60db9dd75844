/**
 * The wallet of an agent on a pay-per-lead package (docs/domain.md, The wallet): the balance, the
 * auto-recharge and the ledger's entries; a top-up through Stripe Checkout; an admin's credit.
 */
import { z } from 'zod';
import { WALLET_ENTRY_KINDS } from '../domain';

/** Dollars as cents: from $1 to $10,000 per top-up, credit or recharge. */
const cents = z.number().int().min(100, 'At least $1.00').max(1_000_000, 'At most $10,000.00');

export const walletEntry = z.object({
  id: z.number().int(),
  kind: z.enum(WALLET_ENTRY_KINDS),
  /** signed: + money in, - money out */
  amountCents: z.number().int(),
  balanceAfterCents: z.number().int(),
  /** the lead charged or credited */
  leadId: z.number().int().nullable(),
  /** the lead's name as the agent sees it (null once the lead is gone or for non-lead entries) */
  leadName: z.string().nullable(),
  note: z.string().nullable(),
  createdAt: z.string(),
});
export type WalletEntry = z.infer<typeof walletEntry>;

export const autoRecharge = z.object({
  enabled: z.boolean(),
  /** recharge when the balance falls below this */
  belowCents: z.number().int().nullable(),
  /** by this much */
  amountCents: z.number().int().nullable(),
});
export type AutoRecharge = z.infer<typeof autoRecharge>;

/** `GET /api/agent/wallet` */
export const wallet = z.object({
  balanceCents: z.number().int(),
  autoRecharge,
  /** the newest first, a page of them */
  entries: z.array(walletEntry),
  /** entries in all, for paging */
  total: z.number().int(),
  /** the agent's package is PER_LEAD (its leads are paid from this wallet) */
  payPerLead: z.boolean(),
  /** its price range: what one lead costs at least and at most; null without a PER_LEAD package */
  priceRange: z
    .object({ lowestCents: z.number().int(), highestCents: z.number().int() })
    .nullable(),
  /** the monthly budget and what was spent of it this month (null: no budget) */
  budget: z.object({ monthlyCents: z.number().int(), spentCents: z.number().int() }).nullable(),
  /** Stripe is set up: top-up and auto-recharge are offered; without it only an admin credits */
  canTopUp: z.boolean(),
  /** a card is saved from an earlier top-up: auto-recharge can charge it */
  cardSaved: z.boolean(),
});
export type Wallet = z.infer<typeof wallet>;

export const walletQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});

/** `POST /api/agent/wallet/top-up` */
export const topUpBody = z.object({ amountCents: cents });
export const topUpStarted = z.object({ checkoutUrl: z.string() });

/** `PUT /api/agent/wallet/auto-recharge`: enabled needs both amounts */
export const autoRechargeBody = z
  .object({
    enabled: z.boolean(),
    belowCents: cents.nullable(),
    amountCents: cents.nullable(),
  })
  .refine((b) => !b.enabled || (b.belowCents !== null && b.amountCents !== null), {
    path: ['amountCents'],
    message: 'Auto-recharge needs an amount and the balance that triggers it',
  });
export type AutoRechargeBody = z.infer<typeof autoRechargeBody>;

/** `POST /api/admin/agents/{id}/wallet`: an admin's credit */
export const adminCreditBody = z.object({
  amountCents: cents,
  note: z.string().trim().min(1, 'Say why (the agent sees it)').max(200),
});
export type AdminCreditBody = z.infer<typeof adminCreditBody>;

/** What an admin's credit answers: the new balance and the entry written. */
export const adminCreditResult = z.object({ balanceCents: z.number().int(), entry: walletEntry });

/** `GET /api/admin/wallets`: every agent with a wallet or a pay-per-lead package, by balance. */
export const walletBalance = z.object({
  agentId: z.number().int(),
  name: z.string(),
  email: z.string(),
  balanceCents: z.number().int(),
  payPerLead: z.boolean(),
  autoRecharge: z.boolean(),
  lastEntryAt: z.string().nullable(),
});
export type WalletBalance = z.infer<typeof walletBalance>;
