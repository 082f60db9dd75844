import { describe, expect, it } from 'vitest';
import {
  AGENT_TICK_CHARS,
  agentTickLabel,
  categorySliceLabel,
  chartColor,
  PIE_LABEL_OFFSET,
  PIE_RADIUS,
  pieLabelsFitBeside,
} from './analytics-format';

describe('analytics format', () => {
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
  it('puts the slice labels beside the pie when the widest fits, else in a legend', () => {
    // a desktop card, 432 px: "FINAL EXPENSE" (about 92 px at 12 px) fits beside a 100 px pie
    expect(pieLabelsFitBeside(432, 92)).toBe(true);
    expect(pieLabelsFitBeside(2 * (PIE_RADIUS + PIE_LABEL_OFFSET + 92), 92)).toBe(true);
    expect(pieLabelsFitBeside(2 * (PIE_RADIUS + PIE_LABEL_OFFSET + 92) - 1, 92)).toBe(false);
    // a phone, and before the first measurement
    expect(pieLabelsFitBeside(295, 92)).toBe(false);
    expect(pieLabelsFitBeside(0, 92)).toBe(false);
  });
});
