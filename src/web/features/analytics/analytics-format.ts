import { categoryLabel, conversionRate } from '../../../shared/format';

/** The analytics screens' rate: one decimal and a percent sign, or '0' with no leads (spec). */
export function conversionRateText(converted: number, total: number): string {
  return total === 0 ? '0' : `${conversionRate(converted, total)}%`;
}

/** A pie slice's label: the category with spaces for underscores, then its count. */
export function categorySliceLabel(category: string, count: number): string {
  return `${categoryLabel(category)} ${count}`;
}

/** The five theme colours, cycled over the pie's slices. */
export function chartColor(index: number): string {
  return `var(--chart-${(index % 5) + 1})`;
}

/** Longest agent name the bar chart's axis writes out; longer ones end in an ellipsis (the tooltip has them whole). */
export const AGENT_TICK_CHARS = 20;

/** An agent's name under its bar: whole up to AGENT_TICK_CHARS characters, else cut with an ellipsis. */
export function agentTickLabel(name: string): string {
  const chars = Array.from(name);
  return chars.length <= AGENT_TICK_CHARS
    ? name
    : `${chars
        .slice(0, AGENT_TICK_CHARS - 1)
        .join('')
        .trimEnd()}…`;
}

/** The pie's largest radius (px), as the spec's reference draws it. */
export const PIE_MAX_RADIUS = 100;
/** Below this radius the slices are too small to read: their labels move to a legend under the pie. */
export const PIE_MIN_LABELLED_RADIUS = 56;
/** Room between a slice and its label: the leader line and a little air (px). */
export const PIE_LABEL_GAP = 28;

/**
 * The radius that leaves room beside the pie for the widest slice label in a chart this wide,
 * or null when the pie would be too small to read and the labels belong in a legend instead.
 */
export function labelledPieRadius(chartWidth: number, widestLabel: number): number | null {
  const radius = Math.min(PIE_MAX_RADIUS, Math.floor(chartWidth / 2 - widestLabel - PIE_LABEL_GAP));
  return radius >= PIE_MIN_LABELLED_RADIUS ? radius : null;
}
