import { describe, expect, it } from 'vitest';
import { categorySliceLabel, chartColor, conversionRateText } from './analytics-format';

describe('analytics format', () => {
  it('shows the conversion rate with one decimal and %, or 0 with no leads', () => {
    expect(conversionRateText(2, 7)).toBe('28.6%');
    expect(conversionRateText(0, 5)).toBe('0.0%');
    expect(conversionRateText(0, 0)).toBe('0');
  });
  it('labels pie slices and cycles five theme colours', () => {
    expect(categorySliceLabel('FINAL_EXPENSE', 2)).toBe('FINAL EXPENSE 2');
    expect([0, 1, 4, 5, 7].map(chartColor)).toEqual([
      'var(--chart-1)',
      'var(--chart-2)',
      'var(--chart-5)',
      'var(--chart-1)',
      'var(--chart-3)',
    ]);
  });
});
