import { describe, expect, it } from 'vitest';
import { SUBSCRIPTION_STATUSES } from './domain';
import {
  DEFAULT_BUSINESS_TIME_ZONE,
  formatBusinessTime,
  formatConversionRate,
  formatLeadPrice,
  formatPercent,
  formatPrice,
  formatPriceExact,
  packagePriceLabel,
  quotaSummary,
  subscriptionStatusLabel,
} from './format';

describe('prices', () => {
  it('shows whole dollars in lists and the cents in a confirmation', () => {
    expect(formatPrice(49_999)).toBe('$500');
    expect(formatPriceExact(49_900)).toBe('$499.00');
    expect(formatPriceExact(4_999)).toBe('$49.99');
    expect(formatPriceExact(123_456_700)).toBe('$1,234,567.00');
  });

  it("shows a lead's price to the cent only when it has cents", () => {
    expect(formatLeadPrice(2_500)).toBe('$25');
    expect(formatLeadPrice(1_250)).toBe('$12.50');
    expect(formatLeadPrice(75)).toBe('$0.75');
  });

  it("says a package's price by its pricing: a month, or from the least a lead costs", () => {
    const subscription = {
      pricing: 'SUBSCRIPTION' as const,
      priceMonthlyCents: 29_900,
      perLeadCents: null,
      fromPerLeadCents: null,
    };
    expect(packagePriceLabel(subscription)).toBe('$299/month');
    const perLead = {
      pricing: 'PER_LEAD' as const,
      priceMonthlyCents: 0,
      perLeadCents: 2_500,
      fromPerLeadCents: 1_250,
    };
    expect(packagePriceLabel(perLead)).toBe('from $12.50 per lead');
    expect(packagePriceLabel({ ...perLead, fromPerLeadCents: null })).toBe('from $25 per lead');
  });
});

describe('rates', () => {
  it('read one way everywhere: one decimal and a percent sign, zero included', () => {
    expect(formatConversionRate(2, 7)).toBe('28.6%');
    expect(formatConversionRate(0, 5)).toBe('0.0%');
    // no leads yet: the same format as "none converted", never a bare 0 or 0%
    expect(formatConversionRate(0, 0)).toBe('0.0%');
    expect(formatConversionRate(3, 3)).toBe('100.0%');
    expect(formatPercent(15.06)).toBe('15.1%');
    expect(formatPercent(0)).toBe('0.0%');
    expect(formatPercent(Number.NaN)).toBe('0.0%');
  });
});

describe('subscription statuses', () => {
  it('are words, never the enum', () => {
    expect(SUBSCRIPTION_STATUSES.map(subscriptionStatusLabel)).toEqual([
      'Active',
      'Past due',
      'Canceled',
      'Inactive',
    ]);
  });
});

describe("today's quota", () => {
  it('counts down while the subscription is active', () => {
    expect(quotaSummary({ assigned: 2, limit: 5 }, 'ACTIVE')).toEqual({
      value: '2 / 5',
      note: '3 leads remaining today',
      percent: 40,
    });
    expect(quotaSummary({ assigned: 4, limit: 5 }, 'ACTIVE').note).toBe('1 lead remaining today');
  });

  it('says Quota reached at or above the limit, the bar capped at 100', () => {
    expect(quotaSummary({ assigned: 5, limit: 5 }, 'ACTIVE')).toEqual({
      value: '5 / 5',
      note: 'Quota reached',
      percent: 100,
    });
    expect(quotaSummary({ assigned: 7, limit: 5 }, 'ACTIVE')).toMatchObject({
      note: 'Quota reached',
      percent: 100,
    });
  });

  it('is N/A without an active subscription, and says why', () => {
    expect(quotaSummary({ assigned: 0, limit: 0 }, undefined)).toEqual({
      value: 'N/A',
      note: 'No active subscription',
      percent: null,
    });
    expect(quotaSummary(null, null).value).toBe('N/A');
    expect(quotaSummary({ assigned: 0, limit: 0 }, 'PAST_DUE').note).toBe('Subscription past due');
    expect(quotaSummary({ assigned: 0, limit: 0 }, 'CANCELED').note).toBe('Subscription canceled');
    expect(quotaSummary({ assigned: 0, limit: 0 }, 'INACTIVE').note).toBe('Subscription inactive');
  });

  it('never reads "1 / 0": leads an admin assigned by hand are named beside the reason', () => {
    const summary = quotaSummary({ assigned: 1, limit: 0 }, 'PAST_DUE');
    expect(summary.value).toBe('N/A');
    expect(summary.note).toBe('Subscription past due · 1 lead assigned today');
    expect(quotaSummary({ assigned: 3, limit: 0 }, undefined).note).toBe(
      'No active subscription · 3 leads assigned today',
    );
  });
});

describe('business time', () => {
  it('shows a moment in the business zone, labelled with the zone', () => {
    // 07:43 UTC in November is 2:43 AM in New York (EST, UTC-5)
    expect(formatBusinessTime('2026-11-23T07:43:00.000Z')).toBe('11/23/2026, 2:43 AM ET');
    // and in summer (EDT, UTC-4) the label stays ET
    expect(formatBusinessTime('2026-07-04T16:05:00Z')).toBe('7/4/2026, 12:05 PM ET');
    expect(DEFAULT_BUSINESS_TIME_ZONE).toBe('America/New_York');
  });

  it("takes the server's zone when it names one, and the default for an unknown zone", () => {
    expect(formatBusinessTime('2026-11-23T07:43:00Z', 'America/Chicago')).toBe(
      '11/23/2026, 1:43 AM CT',
    );
    expect(formatBusinessTime('2026-11-23T07:43:00Z', 'Not/AZone')).toBe('11/23/2026, 2:43 AM ET');
  });

  it('keeps a value it cannot read as it came', () => {
    expect(formatBusinessTime('not a time')).toBe('not a time');
  });
});
