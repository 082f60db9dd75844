import { zodResolver } from '@hookform/resolvers/zod';
import type { Resolver } from 'react-hook-form';
import { z } from 'zod';
import { type Package, type PackageBody, packageBody } from '../../../shared/contracts/packages';
import type { PackagePricing } from '../../../shared/domain';
import { dollarsToCents, formatPrice, formatPriceExact } from '../../../shared/format';

const contract = packageBody.shape;
/** the contract's rule for a price per lead, without its "none" (a PER_LEAD package needs one) */
const perLeadRule = contract.perLeadCents.unwrap().unwrap();

/**
 * A number field as typed (an input's text): required, read as a number, brought to the
 * contract's unit, then checked by the contract's own rule for that field.
 */
function typedNumber(requiredMessage: string, rule: z.ZodNumber, toContract = (n: number) => n) {
  return z
    .string()
    .trim()
    .min(1, requiredMessage)
    .transform((text) => toContract(Number(text)))
    .pipe(rule);
}

/** The fields both pricings share: the contract's own, the numbers as typed. */
const shared = {
  name: contract.name,
  slug: contract.slug,
  category: contract.category,
  enrollmentOnly: contract.enrollmentOnly,
  services: contract.services,
  active: contract.active,
  leadsPerDay: typedNumber('Leads per day is required', contract.leadsPerDay),
  commissionPct: typedNumber('Commission is required', contract.commissionPct),
};

/**
 * The Create/Edit Package form, derived from the API's request schema (packageBody, which the
 * server validates with): every field but the prices is the contract's own. A monthly
 * subscription's price is typed in dollars and checked, once in rounded cents, by the
 * contract's priceMonthlyCents rule; a pay-per-lead package's price per lead likewise by its
 * perLeadCents rule, and its monthly price is 0 (the wallet pays each lead). Leads per day and
 * commission are typed as text and checked by the contract's rules once read as numbers. Its
 * output is the request body itself.
 */
export const packageFormSchema = z
  .discriminatedUnion('pricing', [
    z.object({
      ...shared,
      pricing: z.literal('SUBSCRIPTION'),
      price: typedNumber('Price is required', contract.priceMonthlyCents, dollarsToCents),
      perLead: z.string(),
    }),
    z.object({
      ...shared,
      pricing: z.literal('PER_LEAD'),
      price: z.string(),
      perLead: typedNumber('Price per lead is required', perLeadRule, dollarsToCents),
    }),
  ])
  .transform((form): PackageBody => {
    const { price, perLead, ...body } = form;
    return form.pricing === 'PER_LEAD'
      ? { ...body, priceMonthlyCents: 0, perLeadCents: form.perLead }
      : { ...body, priceMonthlyCents: form.price, perLeadCents: null };
  });

/**
 * What the dialog holds: the numbers as typed (both prices in dollars), the rest as sent. Both
 * prices are kept while the pricing changes; only the chosen pricing's is sent.
 */
export interface PackageFormValues {
  name: string;
  slug: string;
  category: PackageBody['category'];
  enrollmentOnly: boolean;
  services: PackageBody['services'];
  active: boolean;
  pricing: PackagePricing;
  /** the monthly price, for a subscription */
  price: string;
  /** the price of a lead, for pay per lead */
  perLead: string;
  leadsPerDay: string;
  commissionPct: string;
}

type FieldName = keyof PackageFormValues;

/** How each field is named in a message, and how a limit of it reads. */
const FIELDS: Partial<Record<FieldName, { label: string; limit: (n: number) => string }>> = {
  name: { label: 'Name', limit: (n) => `${n} characters` },
  slug: { label: 'Slug', limit: (n) => `${n} characters` },
  // the contract's limits are in cents
  price: { label: 'Price', limit: (cents) => formatPrice(cents) },
  // a lead may cost cents: "$0.01", not "$0"
  perLead: { label: 'Price per lead', limit: (cents) => formatPriceExact(cents) },
  leadsPerDay: { label: 'Leads per day', limit: (n) => n.toLocaleString('en-US') },
  commissionPct: { label: 'Commission', limit: (n) => `${n}%` },
};

/**
 * Messages in the form's words for the contract's checks that carry none of their own (its
 * required and slug messages stand as they are). The limits come from the failed check itself, so
 * a limit changed in the contract changes the message with it.
 */
export const packageFormError: z.core.$ZodErrorMap = (issue) => {
  const field = FIELDS[issue.path?.[0] as FieldName];
  if (!field) return undefined;
  switch (issue.code) {
    case 'too_small':
      return Number(issue.minimum) === 0 && issue.origin === 'number'
        ? `${field.label} cannot be negative`
        : `${field.label} must be at least ${field.limit(Number(issue.minimum))}`;
    case 'too_big':
      return `${field.label} can be at most ${field.limit(Number(issue.maximum))}`;
    case 'invalid_type':
      return issue.expected === 'int'
        ? `${field.label} must be a whole number`
        : `Enter a number for ${field.label.toLowerCase()}`;
    default:
      return undefined;
  }
};

/** The form's resolver: the contract's checks, as the server runs them, with the form's words. */
export const packageFormResolver: Resolver<PackageFormValues, unknown, PackageBody> = zodResolver(
  packageFormSchema,
  { error: packageFormError },
);

/** A new package's defaults (docs/domain.md, Screens). */
export const NEW_PACKAGE_DEFAULTS: PackageFormValues = {
  name: '',
  slug: '',
  pricing: 'SUBSCRIPTION',
  price: '',
  perLead: '',
  leadsPerDay: '',
  commissionPct: '',
  category: 'MEDICARE',
  enrollmentOnly: false,
  services: { crm: true, callRecording: true, followUpMessage: false },
  active: true,
};

export function formValuesOf(pkg: Package): PackageFormValues {
  return {
    name: pkg.name,
    slug: pkg.slug,
    pricing: pkg.pricing,
    // a pay-per-lead package's monthly price is 0: blank, should it become a subscription
    price: pkg.pricing === 'PER_LEAD' ? '' : (pkg.priceMonthlyCents / 100).toFixed(2),
    perLead: pkg.perLeadCents === null ? '' : (pkg.perLeadCents / 100).toFixed(2),
    leadsPerDay: String(pkg.leadsPerDay),
    commissionPct: String(pkg.commissionPct),
    category: pkg.category,
    enrollmentOnly: pkg.enrollmentOnly,
    services: { ...pkg.services },
    active: pkg.active,
  };
}

/** 'Medicare Pro Plus!' -> 'medicare-pro-plus': a slug suggestion while creating. */
export function slugify(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, contract.slug.maxLength ?? undefined)
    .replace(/-+$/, '');
}
