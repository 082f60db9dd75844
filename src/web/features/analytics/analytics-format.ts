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
