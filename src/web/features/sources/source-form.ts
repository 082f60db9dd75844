import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { type Source, type SourceBody, sourceBody } from '../../../shared/contracts/sources';
import { CONSENT_VERIFICATIONS } from '../../../shared/domain';
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
    consentVerification: z.enum(CONSENT_VERIFICATIONS),
  })
  .transform(({ cost, ...body }): SourceBody => ({ ...body, costPerLeadCents: cost }));

export type SourceFormValues = z.input<typeof sourceFormSchema>;

export const sourceFormResolver = zodResolver(sourceFormSchema);

export const NEW_SOURCE_DEFAULTS: SourceFormValues = {
  name: '',
  cost: '',
  active: true,
  consentVerification: 'NONE',
};

/** The "Consent verification" choices as the form names them. */
export const CONSENT_VERIFICATION_LABELS = {
  NONE: 'None (keep consent as sent)',
  TRUSTEDFORM: 'TrustedForm (retain and match each certificate)',
} as const;

export function sourceFormValuesOf(source: Source): SourceFormValues {
  return {
    name: source.name,
    cost: (source.costPerLeadCents / 100).toFixed(2),
    active: source.active,
    consentVerification: source.consentVerification,
  };
}
