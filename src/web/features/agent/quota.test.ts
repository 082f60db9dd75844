import { describe, expect, it } from 'vitest';
import { quotaMessage, quotaPercent } from './quota';

describe('quota card', () => {
  it('says Quota reached when assigned is at or above the limit', () => {
    expect(quotaMessage({ assigned: 5, limit: 5 })).toBe('Quota reached');
    expect(quotaMessage({ assigned: 7, limit: 5 })).toBe('Quota reached');
  });

  it('otherwise says how many leads remain today', () => {
    expect(quotaMessage({ assigned: 2, limit: 5 })).toBe('3 leads remaining today');
    expect(quotaMessage({ assigned: 4, limit: 5 })).toBe('1 lead remaining today');
    expect(quotaMessage({ assigned: 0, limit: 0 })).toBe('0 leads remaining today');
    expect(quotaMessage({ assigned: 2, limit: 0 })).toBe('0 leads remaining today');
  });

  it('fills the bar by assigned / limit, capped at 100', () => {
    expect(quotaPercent({ assigned: 1, limit: 4 })).toBe(25);
    expect(quotaPercent({ assigned: 9, limit: 4 })).toBe(100);
    expect(quotaPercent({ assigned: 3, limit: 0 })).toBe(0);
  });
});
