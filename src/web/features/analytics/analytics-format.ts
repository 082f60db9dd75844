import { categoryLabel, DEFAULT_BUSINESS_TIME_ZONE } from '../../../shared/format';

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

/** The pie's outer radius (px; docs/domain.md, Screens). */
export const PIE_RADIUS = 100;
/** How far beyond the slice recharts sets a slice's label (px), plus a little air. */
export const PIE_LABEL_OFFSET = 22;

/**
 * Whether the widest slice label fits beside a pie of the spec's radius in a chart this wide;
 * when it does not (a phone), the labels go to a legend under the pie instead of being cut off.
 */
export function pieLabelsFitBeside(chartWidth: number, widestLabel: number): boolean {
  return chartWidth / 2 - PIE_RADIUS - PIE_LABEL_OFFSET >= widestLabel;
}

/** A period of business dates, both ends included. */
export interface Period {
  from: string;
  to: string;
}

function businessToday(timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(new Date());
}

/** The last `days` business days, today included. */
export function periodOfDays(days: number, timeZone = DEFAULT_BUSINESS_TIME_ZONE): Period {
  const to = businessToday(timeZone);
  const d = new Date(`${to}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() - (days - 1));
  return { from: d.toISOString().slice(0, 10), to };
}
