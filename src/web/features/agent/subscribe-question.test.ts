import { describe, expect, it } from 'vitest';
import { subscribeDetail, subscribeQuestion } from './subscribe-question';

const gold = {
  name: 'Gold',
  priceMonthlyCents: 49_900,
  leadsPerDay: 15,
  category: 'MEDICARE' as const,
};

describe('the subscription question', () => {
  it('names the package and its price to the cent', () => {
    expect(subscribeQuestion(gold, false)).toBe('Subscribe to Gold for $499.00/month?');
    expect(subscribeQuestion({ ...gold, priceMonthlyCents: 4_999 }, false)).toBe(
      'Subscribe to Gold for $49.99/month?',
    );
    expect(subscribeQuestion(gold, true)).toBe('Switch to Gold for $499.00/month?');
  });

  it('says it takes effect at once, and what it brings', () => {
    expect(subscribeDetail(gold, null)).toBe(
      'Your subscription starts at once: you receive up to 15 MEDICARE leads a day that match your preferences.',
    );
    expect(subscribeDetail({ ...gold, leadsPerDay: 1, category: 'FINAL_EXPENSE' }, 'Silver')).toBe(
      'Gold replaces Silver at once: from now on you receive up to 1 FINAL EXPENSE lead a day.',
    );
  });

  it('asks about a pay-per-lead package by the least a lead costs, paid from the wallet', () => {
    const perLead = {
      ...gold,
      priceMonthlyCents: 0,
      pricing: 'PER_LEAD' as const,
      perLeadCents: 2_500,
      fromPerLeadCents: 1_250,
    };
    expect(subscribeQuestion(perLead, false)).toBe('Subscribe to Gold for $12.50 per lead and up?');
    expect(subscribeDetail(perLead, null)).toBe(
      'Your subscription starts at once: you receive up to 15 MEDICARE leads a day that match your preferences, each paid from your wallet as it arrives.',
    );
    expect(subscribeDetail(perLead, 'Silver')).toBe(
      'Gold replaces Silver at once: from now on you receive up to 15 MEDICARE leads a day, each paid from your wallet as it arrives.',
    );
  });
});
