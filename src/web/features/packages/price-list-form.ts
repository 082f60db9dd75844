/**
 * The price list editor's rows and the body they make (a PER_LEAD package's rules, the first
 * that matches a lead giving its price): pure, so the rules are tested without a browser.
 */
import type { z } from 'zod';
import { type PriceList, type PriceRule, priceRule } from '../../../shared/contracts/packages';
import type { StateCode } from '../../../shared/domain';
import { formatPriceExact } from '../../../shared/format';
import type { FieldIssue } from '../../lib/api-client';

/** One rule as the editor holds it: "" is "any" (state, source) or "no limit" (ages). */
export interface PriceRuleRow {
  /** the row's identity while rows move (never sent) */
  key: number;
  state: StateCode | '';
  ageMin: string;
  ageMax: string;
  /** a source's id as text */
  sourceId: string;
  /** dollars as typed */
  price: string;
}

export type PriceRuleField = 'state' | 'ageMin' | 'ageMax' | 'sourceId' | 'price';

/** Each row's messages, by the row's place in the list. */
export type PriceRuleErrors = Record<number, Partial<Record<PriceRuleField, string>>>;

let nextKey = 1;

export function emptyRow(): PriceRuleRow {
  return { key: nextKey++, state: '', ageMin: '', ageMax: '', sourceId: '', price: '' };
}

/** The saved rules as rows, in their order. */
export function rowsOf(rules: PriceRule[]): PriceRuleRow[] {
  return rules.map((rule) => ({
    key: nextKey++,
    state: rule.state ?? '',
    ageMin: rule.ageMin === null ? '' : String(rule.ageMin),
    ageMax: rule.ageMax === null ? '' : String(rule.ageMax),
    sourceId: rule.sourceId === null ? '' : String(rule.sourceId),
    price: (rule.priceCents / 100).toFixed(2),
  }));
}

/** The row at `index` moved one place up (-1) or down (+1); at an end the list stays as it is. */
export function moveRow(rows: PriceRuleRow[], index: number, by: -1 | 1): PriceRuleRow[] {
  const to = index + by;
  if (index < 0 || index >= rows.length || to < 0 || to >= rows.length) return rows;
  const moved = [...rows];
  const [row] = moved.splice(index, 1);
  if (row) moved.splice(to, 0, row);
  return moved;
}

/** The body's field as the editor names it. */
const FIELD_OF: Record<string, PriceRuleField> = {
  state: 'state',
  ageMin: 'ageMin',
  ageMax: 'ageMax',
  sourceId: 'sourceId',
  priceCents: 'price',
};

const LABELS: Record<PriceRuleField, string> = {
  state: 'State',
  ageMin: 'Minimum age',
  ageMax: 'Maximum age',
  sourceId: 'Source',
  price: 'Price',
};

/** The contract's checks in the editor's words, the limits read from the failed check. */
const ruleError: z.core.$ZodErrorMap = (issue) => {
  const field = FIELD_OF[String(issue.path?.[0])];
  if (!field) return undefined;
  const label = LABELS[field];
  const limit = (n: number) => (field === 'price' ? formatPriceExact(n) : String(n));
  switch (issue.code) {
    case 'too_small':
      return `${label} must be at least ${limit(Number(issue.minimum))}`;
    case 'too_big':
      return `${label} can be at most ${limit(Number(issue.maximum))}`;
    case 'invalid_type':
      return issue.expected === 'int'
        ? `${label} must be a whole number`
        : `Enter a number for ${label.toLowerCase()}`;
    default:
      return undefined;
  }
};

/** Text to a number, or null when blank ("no limit"). */
function numberOrNull(text: string): number | null {
  const trimmed = text.trim();
  return trimmed === '' ? null : Number(trimmed);
}

/**
 * The PUT body, or each row's messages: every rule checked by the contract's own rule (as the
 * server checks it), the price typed in dollars and sent in rounded cents.
 */
export function priceListBody(
  rows: PriceRuleRow[],
): { body: PriceList } | { errors: PriceRuleErrors } {
  const errors: PriceRuleErrors = {};
  const rules: PriceRule[] = [];
  rows.forEach((row, index) => {
    const price = row.price.trim();
    const parsed = priceRule.safeParse(
      {
        state: row.state === '' ? null : row.state,
        ageMin: numberOrNull(row.ageMin),
        ageMax: numberOrNull(row.ageMax),
        sourceId: row.sourceId === '' ? null : Number(row.sourceId),
        priceCents: price === '' ? undefined : Math.round(Number(price) * 100),
      },
      { error: ruleError },
    );
    const found: Partial<Record<PriceRuleField, string>> = {};
    if (price === '') found.price = 'Price is required';
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = FIELD_OF[String(issue.path[0])];
        if (field) found[field] ??= issue.message;
      }
    }
    if (Object.keys(found).length > 0) errors[index] = found;
    else if (parsed.success) rules.push(parsed.data);
  });
  if (Object.keys(errors).length > 0) return { errors };
  return { body: { rules } };
}

/**
 * The server's messages for a refused list, under their rows and fields ("rules.2.priceCents"
 * is the third row's price); an issue of no row's field is left to the toast.
 */
export function serverRuleErrors(issues: FieldIssue[]): PriceRuleErrors {
  const errors: PriceRuleErrors = {};
  for (const issue of issues) {
    const [root, index, name] = issue.field.split('.');
    const field = FIELD_OF[name ?? ''];
    if (root !== 'rules' || index === undefined || !/^\d+$/.test(index) || !field) continue;
    const row = errors[Number(index)] ?? {};
    row[field] ??= issue.message;
    errors[Number(index)] = row;
  }
  return errors;
}
