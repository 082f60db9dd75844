import { describe, expect, it } from 'vitest';
import { WALLET_ENTRY_KINDS } from '../../../shared/domain';
import {
  autoRechargeForm,
  autoRechargeRequest,
  creditRequest,
  dollarsText,
  entryKindLabel,
  priceRangeLabel,
  signedAmount,
  TOP_UP_PRESETS,
  topUpRequest,
  topUpReturn,
  walletHold,
} from './wallet-form';

describe('top-up', () => {
  it('offers $50, $100 and $250, sent as cents', () => {
    expect(TOP_UP_PRESETS).toEqual([5_000, 10_000, 25_000]);
    expect(topUpRequest({ preset: 10_000 })).toEqual({ amountCents: 10_000 });
  });

  it('reads a custom amount in dollars, as typed', () => {
    expect(topUpRequest({ custom: '75' })).toEqual({ amountCents: 7_500 });
    expect(topUpRequest({ custom: ' $1,250.50 ' })).toEqual({ amountCents: 125_050 });
    expect(dollarsText('12.345')).toBeNull();
    expect(dollarsText('-5')).toBeNull();
  });

  it('says why a custom amount cannot be sent, with the limits of the contract', () => {
    expect(topUpRequest({ custom: '' })).toEqual({ error: 'Enter the amount to add' });
    expect(topUpRequest({ custom: 'fifty' })).toEqual({
      error: 'Enter an amount such as 50 or 50.00',
    });
    expect(topUpRequest({ custom: '0.99' })).toEqual({ error: 'At least $1.00' });
    expect(topUpRequest({ custom: '10000.01' })).toEqual({ error: 'At most $10,000.00' });
    expect(topUpRequest({ custom: '10000' })).toEqual({ amountCents: 1_000_000 });
  });

  it('knows how Stripe Checkout sent the agent back', () => {
    expect(topUpReturn('?top-up=success')).toBe('success');
    expect(topUpReturn('?top-up=canceled')).toBe('canceled');
    expect(topUpReturn('?top-up=other')).toBeNull();
    expect(topUpReturn('')).toBeNull();
  });
});

describe('auto-recharge', () => {
  it('shows the saved settings in dollars, blanks for none', () => {
    expect(autoRechargeForm({ enabled: true, belowCents: 2_000, amountCents: 10_000 })).toEqual({
      enabled: true,
      below: '20.00',
      amount: '100.00',
    });
    expect(autoRechargeForm({ enabled: false, belowCents: null, amountCents: null })).toEqual({
      enabled: false,
      below: '',
      amount: '',
    });
  });

  it('needs both amounts when switched on', () => {
    expect(autoRechargeRequest({ enabled: true, below: '20', amount: '100' })).toEqual({
      body: { enabled: true, belowCents: 2_000, amountCents: 10_000 },
    });
    expect(autoRechargeRequest({ enabled: true, below: '', amount: '0.5' })).toEqual({
      errors: { below: 'Enter the balance that starts a recharge', amount: 'At least $1.00' },
    });
  });

  it('switches off with or without the amounts, keeping those typed', () => {
    expect(autoRechargeRequest({ enabled: false, below: '', amount: '' })).toEqual({
      body: { enabled: false, belowCents: null, amountCents: null },
    });
    expect(autoRechargeRequest({ enabled: false, below: '20', amount: '' })).toEqual({
      body: { enabled: false, belowCents: 2_000, amountCents: null },
    });
  });
});

describe("an admin's credit", () => {
  it('sends the amount in cents and the note trimmed', () => {
    expect(creditRequest('25', '  Goodwill for the outage ')).toEqual({
      body: { amountCents: 2_500, note: 'Goodwill for the outage' },
    });
  });

  it('needs an amount and a note the agent will read', () => {
    expect(creditRequest('', ' ')).toEqual({
      errors: { amount: 'Enter the amount to credit', note: 'Say why (the agent sees it)' },
    });
    expect(creditRequest('20000', 'Bonus')).toEqual({ errors: { amount: 'At most $10,000.00' } });
    expect(creditRequest('20', 'x'.repeat(201))).toMatchObject({
      errors: { note: expect.any(String) },
    });
  });
});

describe('the entries', () => {
  it('names every kind in words', () => {
    expect(WALLET_ENTRY_KINDS.map(entryKindLabel)).toEqual([
      'Top-up',
      'Lead',
      'Return credit',
      'Reclaim credit',
      'Admin credit',
      'Refund',
    ]);
  });

  it('signs the amounts: money in with +, money out with −', () => {
    expect(signedAmount(10_000)).toBe('+$100.00');
    expect(signedAmount(-1_250)).toBe('−$12.50');
    expect(signedAmount(0)).toBe('$0.00');
  });

  it('says the price range of a lead', () => {
    expect(priceRangeLabel({ lowestCents: 900, highestCents: 2_500 })).toBe('$9.00 to $25.00');
    expect(priceRangeLabel({ lowestCents: 2_500, highestCents: 2_500 })).toBe('$25.00');
  });
});

describe('why no lead comes', () => {
  const wallet = {
    payPerLead: true,
    priceRange: { lowestCents: 1_250, highestCents: 3_000 },
    balanceCents: 5_000,
    budget: null,
    canTopUp: true,
  };

  it('says nothing while the balance covers the most a lead costs', () => {
    expect(walletHold(wallet)).toBeNull();
    expect(walletHold({ ...wallet, balanceCents: 3_000 })).toBeNull();
    expect(walletHold({ ...wallet, payPerLead: false, balanceCents: 0 })).toBeNull();
  });

  it('says a balance below the most a lead costs holds the leads, and what to do', () => {
    expect(walletHold({ ...wallet, balanceCents: 2_999 })).toBe(
      'Your balance is below $30.00, the most a lead of your package costs: no lead is given to you until you top up.',
    );
    expect(walletHold({ ...wallet, balanceCents: 0, canTopUp: false })).toBe(
      'Your balance is below $30.00, the most a lead of your package costs: no lead is given to you until you ask an admin to add funds.',
    );
  });

  it("says what is left of the month's budget holds the leads", () => {
    expect(walletHold({ ...wallet, budget: { monthlyCents: 10_000, spentCents: 8_000 } })).toBe(
      'What is left of your monthly budget ($20.00) is below $30.00, the most a lead of your package costs: no lead is given to you this month unless you raise the budget.',
    );
    expect(
      walletHold({ ...wallet, budget: { monthlyCents: 10_000, spentCents: 7_000 } }),
    ).toBeNull();
  });
});
