import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { type Source, type SourceBody, sourceBody } from '../../../shared/contracts/sources';
import { dollarsToCents } from '../../../shared/format';

const contract = sourceBody.shape;

/**
 * The Create/Edit Source form, derived from the API's request schema (sourceBody): the name is
 * the contract's own; the cost is typed in dollars and checked, in rounded cents, by the
 * contract's costPerLeadCents rule. Its output is the request body itself.
 */
export const sourceFormSchema = z
  .object({
    name: contract.name,
    cost: z
      .string()
      .trim()
      .min(1, 'Cost per lead is required')
      .transform((text) => dollarsToCents(Number(text)))
      .pipe(
        z
          .number({ error: 'Enter a number for the cost per lead' })
          .int()
          .min(0, 'Cost per lead cannot be negative')
          .max(contract.costPerLeadCents.maxValue ?? 10_000_000, 'Cost per lead is too large'),
      ),
    active: z.boolean(),
  })
  .transform(({ cost, ...body }): SourceBody => ({ ...body, costPerLeadCents: cost }));

export type SourceFormValues = z.input<typeof sourceFormSchema>;

export const sourceFormResolver = zodResolver(sourceFormSchema);

export const NEW_SOURCE_DEFAULTS: SourceFormValues = { name: '', cost: '', active: true };

export function sourceFormValuesOf(source: Source): SourceFormValues {
  return {
    name: source.name,
    cost: (source.costPerLeadCents / 100).toFixed(2),
    active: source.active,
  };
}
