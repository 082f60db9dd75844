/**
 * The wallet's forms and words (a pay-per-lead agent's balance): amounts typed in dollars and
 * checked by the wallet's contract, the entries' kinds in words, signed amounts. Pure, so the
 * rules are tested without a browser.
 */
import {
  type AdminCreditBody,
  type AutoRecharge,
  type AutoRechargeBody,
  adminCreditBody,
  autoRechargeBody,
  topUpBody,
  type Wallet,
} from '../../../shared/contracts/wallet';
import type { WalletEntryKind } from '../../../shared/domain';
import { formatPriceExact } from '../../../shared/format';

/** The top-up's preset amounts, in cents: $50, $100, $250. */
export const TOP_UP_PRESETS = [5_000, 10_000, 25_000] as const;

const AMOUNT_FORMAT = 'Enter an amount such as 50 or 50.00';

/**
 * Dollars as typed ("50", "$1,250.50") to cents; null when it is no amount of dollars and cents.
 */
export function dollarsText(text: string): number | null {
  const plain = text.trim().replace(/^\$/, '').replaceAll(',', '');
  if (!/^\d+(\.\d{1,2})?$/.test(plain)) return null;
  return Math.round(Number(plain) * 100);
}

/** The amount's message from the contract's own check ("At least $1.00"), or the format's. */
function amountCents(
  text: string,
  required: string,
): { cents: number; error?: undefined } | { error: string } {
  if (text.trim() === '') return { error: required };
  const cents = dollarsText(text);
  if (cents === null) return { error: AMOUNT_FORMAT };
  const checked = topUpBody.shape.amountCents.safeParse(cents);
  if (!checked.success) return { error: checked.error.issues[0]?.message ?? AMOUNT_FORMAT };
  return { cents };
}

/** What the top-up holds: a preset (cents) or a custom amount as typed. */
export type TopUpChoice = { preset: number } | { custom: string };

/** The top-up's body, or why the amount cannot be sent. */
export function topUpRequest(choice: TopUpChoice): { amountCents: number } | { error: string } {
  if ('preset' in choice) return { amountCents: choice.preset };
  const amount = amountCents(choice.custom, 'Enter the amount to add');
  return amount.error !== undefined ? { error: amount.error } : { amountCents: amount.cents };
}

/** The auto-recharge as its form shows it: amounts in dollars, "" for none. */
export interface AutoRechargeForm {
  enabled: boolean;
  below: string;
  amount: string;
}

const dollarsOf = (cents: number | null) => (cents === null ? '' : (cents / 100).toFixed(2));

export function autoRechargeForm(saved: AutoRecharge): AutoRechargeForm {
  return {
    enabled: saved.enabled,
    below: dollarsOf(saved.belowCents),
    amount: dollarsOf(saved.amountCents),
  };
}

/**
 * The PUT body, or each field's message: switched on, both amounts are needed; switched off,
 * the amounts typed are kept (blank is none) so turning it on again finds them.
 */
export function autoRechargeRequest(
  form: AutoRechargeForm,
): { body: AutoRechargeBody } | { errors: Partial<Record<'below' | 'amount', string>> } {
  const errors: Partial<Record<'below' | 'amount', string>> = {};
  const read = (field: 'below' | 'amount', required: string): number | null => {
    if (!form.enabled && form[field].trim() === '') return null;
    const amount = amountCents(form[field], required);
    if (amount.error !== undefined) {
      errors[field] = amount.error;
      return null;
    }
    return amount.cents;
  };
  const belowCents = read('below', 'Enter the balance that starts a recharge');
  const amountCentsValue = read('amount', 'Enter the amount to add');
  if (Object.keys(errors).length > 0) return { errors };
  const body = { enabled: form.enabled, belowCents, amountCents: amountCentsValue };
  const checked = autoRechargeBody.safeParse(body);
  if (!checked.success) return { errors: { amount: checked.error.issues[0]?.message } };
  return { body: checked.data };
}

/** An admin's credit: the amount in dollars and the note the agent sees. */
export function creditRequest(
  amount: string,
  note: string,
): { body: AdminCreditBody } | { errors: Partial<Record<'amount' | 'note', string>> } {
  const errors: Partial<Record<'amount' | 'note', string>> = {};
  const cents = amountCents(amount, 'Enter the amount to credit');
  if (cents.error !== undefined) errors.amount = cents.error;
  const checked = adminCreditBody.shape.note.safeParse(note);
  if (!checked.success) errors.note = checked.error.issues[0]?.message;
  if (cents.error !== undefined || !checked.success) return { errors };
  return { body: { amountCents: cents.cents, note: checked.data } };
}

const KIND_LABELS: Record<WalletEntryKind, string> = {
  TOP_UP: 'Top-up',
  LEAD: 'Lead',
  RETURN_CREDIT: 'Return credit',
  RECLAIM_CREDIT: 'Reclaim credit',
  ADMIN_CREDIT: 'Admin credit',
  REFUND: 'Refund',
};

/** An entry's kind in words: RETURN_CREDIT -> Return credit. */
export function entryKindLabel(kind: WalletEntryKind): string {
  return KIND_LABELS[kind] ?? kind;
}

/** Money in with a plus, money out with a minus sign: '+$100.00', '−$12.50'. */
export function signedAmount(cents: number): string {
  if (cents === 0) return formatPriceExact(0);
  return `${cents > 0 ? '+' : '−'}${formatPriceExact(Math.abs(cents))}`;
}

/** What a lead costs, least to most: '$25.00', or '$9.00 to $25.00'. */
export function priceRangeLabel(range: { lowestCents: number; highestCents: number }): string {
  return range.lowestCents === range.highestCents
    ? formatPriceExact(range.lowestCents)
    : `${formatPriceExact(range.lowestCents)} to ${formatPriceExact(range.highestCents)}`;
}

/** How Stripe Checkout sent the agent back (`?top-up=success|canceled`), if it did. */
export function topUpReturn(search: string): 'success' | 'canceled' | null {
  const value = new URLSearchParams(search).get('top-up');
  return value === 'success' || value === 'canceled' ? value : null;
}

/**
 * Why no lead is given to a pay-per-lead agent now, if that is so: a lead goes to them only when
 * the balance, and what is left of the monthly budget, cover the most a lead of the package can
 * cost (docs/domain.md, The wallet). Null when leads can come.
 */
export function walletHold(
  wallet: Pick<Wallet, 'payPerLead' | 'priceRange' | 'balanceCents' | 'budget' | 'canTopUp'>,
): string | null {
  if (!wallet.payPerLead || !wallet.priceRange) return null;
  const most = formatPriceExact(wallet.priceRange.highestCents);
  if (wallet.balanceCents < wallet.priceRange.highestCents) {
    return `Your balance is below ${most}, the most a lead of your package costs: no lead is given to you until you ${
      wallet.canTopUp ? 'top up' : 'ask an admin to add funds'
    }.`;
  }
  if (wallet.budget) {
    const left = Math.max(0, wallet.budget.monthlyCents - wallet.budget.spentCents);
    if (left < wallet.priceRange.highestCents) {
      return `What is left of your monthly budget (${formatPriceExact(left)}) is below ${most}, the most a lead of your package costs: no lead is given to you this month unless you raise the budget.`;
    }
  }
  return null;
}
