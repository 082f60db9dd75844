/**
 * The wallet of an agent who pays per lead (docs/domain.md, The wallet): an append-only ledger
 * and the balance it sums to, never below zero. A lead's price is charged in the transaction
 * that gives the lead (lead-life calls chargeAssignedLeads), and given back in the one that takes
 * it back (a return approved, a reclaim, a reassignment, a member leaving). Money comes in by a
 * Stripe top-up or auto-recharge (billing's WalletPayments, through the port below) or an admin's
 * credit.
 */
import type {
  AdminCreditBody,
  AutoRechargeBody,
  Wallet,
  WalletBalance,
  WalletEntry,
} from '../../../shared/contracts/wallet';
import type { WalletEntryKind } from '../../../shared/domain';
import type { Db } from '../../db/client';
import { badRequest, conflict, notFound } from '../../lib/app-error';
import { monthStartOf } from '../../lib/business-time';
import {
  chargeLeads,
  countWalletEntries,
  creditLeadCharge,
  dueRecharges,
  findEntry,
  findMonthlyBudget,
  findPriceRange,
  findWallet,
  isAgent,
  listBalances,
  listEntries,
  lockWallet,
  markRechargePending,
  saveAutoRecharge,
  type WalletRow,
  writeEntry,
} from './wallet.repository';

/**
 * Stripe's side of the wallet (billing implements it: modules/billing/wallet-payments.service.ts),
 * handed to the routes by app.ts; null without Stripe.
 */
export interface WalletPayments {
  /** a Checkout page in payment mode for this many cents, the card saved for auto-recharge */
  startTopUp(agentId: number, amountCents: number): Promise<{ checkoutUrl: string }>;
}

/** An off-session charge not answered within 10 minutes is taken as lost: it may be asked again. */
const RECHARGE_LOST_MS = 10 * 60_000;

/** The constraint that keeps a balance from going below zero. */
const NEVER_NEGATIVE = 'wallets_never_negative';

export const BALANCE_TOO_LOW = "The agent's balance does not cover this lead";

/**
 * Charges each of these leads, just given to their agents, when the agent's package is PER_LEAD,
 * in the caller's transaction. The caller has checked that each balance covers the lead (the
 * fit rule: a balance of at least the highest price); should one not, the database refuses the
 * charge and this answers 409 (the transaction, and with it the assignment, is undone).
 */
export async function chargeAssignedLeads(
  tx: Db,
  leadIds: number[],
  businessDate: string,
): Promise<void> {
  let outcome: { priced: number; charged: number };
  try {
    outcome = await chargeLeads(tx, leadIds, monthStartOf(businessDate));
  } catch (error) {
    if (violates(error, NEVER_NEGATIVE)) throw conflict(BALANCE_TOO_LOW);
    throw error;
  }
  if (outcome.charged < outcome.priced) throw conflict(BALANCE_TOO_LOW);
}

/** Gives back what the agent paid for the lead (nothing for a subscription's lead). */
export function creditLeadBack(
  tx: Db,
  input: {
    leadId: number;
    agentId: number;
    kind: Extract<WalletEntryKind, 'RETURN_CREDIT' | 'RECLAIM_CREDIT'>;
  },
): Promise<number> {
  return creditLeadCharge(tx, input);
}

function violates(error: unknown, constraint: string): boolean {
  let current = error as { constraint?: string; cause?: unknown } | undefined;
  while (current) {
    if (current.constraint === constraint) return true;
    current = current.cause as typeof current;
  }
  return false;
}

/** The agent's wallet: balance, settings, a page of entries (newest first), prices and budget. */
export async function getWallet(
  db: Db,
  agentId: number,
  page: { page: number; pageSize: number },
  businessDate: string,
  payments: WalletPayments | null,
): Promise<Wallet> {
  const [row, list, range, budget] = await Promise.all([
    findWallet(db, agentId),
    listEntries(db, agentId, { limit: page.pageSize, offset: (page.page - 1) * page.pageSize }),
    findPriceRange(db, agentId),
    findMonthlyBudget(db, agentId),
  ]);
  return {
    balanceCents: row?.balanceCents ?? 0,
    autoRecharge: {
      enabled: row?.autoRechargeEnabled ?? false,
      belowCents: row?.autoRechargeBelowCents ?? null,
      amountCents: row?.autoRechargeAmountCents ?? null,
    },
    entries: list.entries,
    total: list.total,
    payPerLead: range !== null,
    priceRange: range,
    budget:
      budget === null
        ? null
        : { monthlyCents: budget, spentCents: spentThisMonth(row, businessDate) },
    canTopUp: payments !== null,
    cardSaved: Boolean(row?.cardPaymentMethod),
  };
}

function spentThisMonth(row: WalletRow | null, businessDate: string): number {
  return row && row.spentMonth === monthStartOf(businessDate) ? row.spentCents : 0;
}

/** Auto-recharge needs Stripe and a card saved by an earlier top-up (409 otherwise). */
export async function setAutoRecharge(
  db: Db,
  agentId: number,
  body: AutoRechargeBody,
  payments: WalletPayments | null,
): Promise<Wallet['autoRecharge']> {
  if (body.enabled) {
    if (!payments) throw conflict('Auto-recharge needs online payments, which are not set up');
    const row = await findWallet(db, agentId);
    if (!row?.cardPaymentMethod) {
      throw conflict('Top up once by card first: auto-recharge charges the card saved then');
    }
  }
  await saveAutoRecharge(db, agentId, body);
  return { enabled: body.enabled, belowCents: body.belowCents, amountCents: body.amountCents };
}

/** A top-up through Stripe Checkout; without Stripe, 409 (an admin credits by hand). */
export async function startTopUp(
  payments: WalletPayments | null,
  agentId: number,
  amountCents: number,
): Promise<{ checkoutUrl: string }> {
  if (!payments) {
    throw conflict('Online top-ups are not set up: ask an admin to add funds to your wallet');
  }
  return payments.startTopUp(agentId, amountCents);
}

/** An admin's credit to an agent's wallet, with the reason the agent reads beside it. */
export async function creditByAdmin(
  db: Db,
  actorId: number,
  agentId: number,
  body: AdminCreditBody,
): Promise<{ balanceCents: number; entry: WalletEntry }> {
  if (!(await isAgent(db, agentId))) throw notFound('Agent');
  const written = await writeEntry(db, {
    userId: agentId,
    kind: 'ADMIN_CREDIT',
    amountCents: body.amountCents,
    note: body.note,
    actorId,
  });
  // no reference: the entry is always written
  const entry = written && (await findEntry(db, written.id));
  if (!written || !entry) throw new Error('an admin credit was not written');
  return { balanceCents: written.balanceAfterCents, entry };
}

/**
 * Money Stripe collected for the agent (a Checkout top-up or an auto-recharge), credited once per
 * payment: `reference` is the PaymentIntent's id, so the same payment reported again (a replayed
 * event, or Checkout's and the PaymentIntent's events both) changes nothing. Answers whether this
 * call credited it.
 */
export async function creditPayment(
  tx: Db,
  input: { agentId: number; amountCents: number; reference: string; note: string },
): Promise<boolean> {
  if (input.amountCents <= 0) throw badRequest('A payment of nothing');
  const written = await writeEntry(tx, {
    userId: input.agentId,
    kind: 'TOP_UP',
    amountCents: input.amountCents,
    reference: input.reference,
    note: input.note,
  });
  return written !== null;
}

/**
 * A top-up refunded through Stripe: the balance goes down by the refund, never below zero (what
 * was already spent on leads stays spent; the entry says how much was taken). Once per refund.
 */
export async function debitRefund(
  tx: Db,
  input: { agentId: number; amountCents: number; reference: string },
): Promise<number> {
  const wallet = await lockWallet(tx, input.agentId);
  const taken = Math.min(input.amountCents, wallet.balanceCents);
  if (taken <= 0) return 0;
  const written = await writeEntry(tx, {
    userId: input.agentId,
    kind: 'REFUND',
    amountCents: -taken,
    reference: input.reference,
    note:
      taken < input.amountCents
        ? `Refunded by card; ${formatCents(input.amountCents - taken)} had already paid for leads`
        : 'Refunded by card',
  });
  return written ? taken : 0;
}

/** Keeps the card a top-up saved, for auto-recharge. */
export { saveCard } from './wallet.repository';

/** The wallets auto-recharge should top up now: enabled, below their threshold, none pending. */
export function rechargesDue(db: Db) {
  return dueRecharges(db, new Date(Date.now() - RECHARGE_LOST_MS));
}

/** Marks an off-session charge as asked (false: one is already pending) or clears the mark. */
export function markRecharge(db: Db, agentId: number, pending: boolean): Promise<boolean> {
  return markRechargePending(db, agentId, pending, new Date(Date.now() - RECHARGE_LOST_MS));
}

/** How many entries the agent's ledger holds. */
export function countEntries(db: Db, agentId: number): Promise<number> {
  return countWalletEntries(db, agentId);
}

/** Every agent's balance, for admins (lowest first). */
export function listWalletBalances(db: Db): Promise<WalletBalance[]> {
  return listBalances(db);
}

function formatCents(cents: number): string {
  return `$${(cents / 100).toFixed(2)}`;
}
