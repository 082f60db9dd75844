import { describe, expect, it } from 'vitest';
import {
  AGENT_TICK_CHARS,
  agentTickLabel,
  categorySliceLabel,
  chartColor,
  conversionRateText,
  labelledPieRadius,
  PIE_MAX_RADIUS,
} from './analytics-format';

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
  it('writes agent names under the bars whole, or cut with an ellipsis when longer than the axis allows', () => {
    expect(agentTickLabel('Ava Axe')).toBe('Ava Axe');
    const longest = 'x'.repeat(AGENT_TICK_CHARS);
    expect(agentTickLabel(longest)).toBe(longest);
    expect(agentTickLabel('Christopher Montgomery-Smith')).toBe('Christopher Montgom…');
    // counted in characters, not UTF-16 units, and no space left before the ellipsis
    expect(agentTickLabel('Zoë 😀'.repeat(10))).toBe(`${'Zoë 😀'.repeat(3)}Zoë…`);
  });
  it('sizes the pie so its widest label fits beside it, or gives the labels to a legend', () => {
    // a wide card: the spec's 100 px pie
    expect(labelledPieRadius(480, 100)).toBe(PIE_MAX_RADIUS);
    // a narrower card shrinks the pie so "FINAL EXPENSE" still fits on either side
    expect(labelledPieRadius(380, 100)).toBe(62);
    // a phone: too small to read, so no radius and a legend
    expect(labelledPieRadius(295, 100)).toBeNull();
    // before the first measurement
    expect(labelledPieRadius(0, 100)).toBeNull();
  });
});
