import type { Package, PackageBody } from '../../../shared/contracts/packages';
import type { LeadCategory } from '../../../shared/domain';
import { dollarsToCents } from '../../../shared/format';

/** What the Create/Edit Package dialog holds: numbers as typed, booleans as toggled. */
export interface PackageFormValues {
  name: string;
  slug: string;
  /** dollars, as typed (step 0.01) */
  price: string;
  leadsPerDay: string;
  commissionPct: string;
  category: LeadCategory;
  enrollmentOnly: boolean;
  crm: boolean;
  callRecording: boolean;
  followUpMessage: boolean;
  active: boolean;
}

/** A new package's defaults (spec section 5). */
export const NEW_PACKAGE_DEFAULTS: PackageFormValues = {
  name: '',
  slug: '',
  price: '',
  leadsPerDay: '',
  commissionPct: '',
  category: 'MEDICARE',
  enrollmentOnly: false,
  crm: true,
  callRecording: true,
  followUpMessage: false,
  active: true,
};

export function formValuesOf(pkg: Package): PackageFormValues {
  return {
    name: pkg.name,
    slug: pkg.slug,
    price: (pkg.priceMonthlyCents / 100).toFixed(2),
    leadsPerDay: String(pkg.leadsPerDay),
    commissionPct: String(pkg.commissionPct),
    category: pkg.category,
    enrollmentOnly: pkg.enrollmentOnly,
    crm: pkg.services.crm,
    callRecording: pkg.services.callRecording,
    followUpMessage: pkg.services.followUpMessage,
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
    .slice(0, 80)
    .replace(/-+$/, '');
}

export type PackageFormErrors = Partial<
  Record<'name' | 'slug' | 'price' | 'leadsPerDay' | 'commissionPct', string>
>;

const SLUG_RE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const WHOLE_RE = /^\d+$/;

/** The form's rules: required fields, a valid slug, dollars >= 0, whole leads and commission. */
export function validatePackageForm(values: PackageFormValues): PackageFormErrors {
  const errors: PackageFormErrors = {};
  if (!values.name.trim()) errors.name = 'Name is required';
  const slug = values.slug.trim();
  if (!slug) errors.slug = 'Slug is required';
  else if (!SLUG_RE.test(slug))
    errors.slug = 'Use lowercase letters, digits and single dashes (e.g. medicare-pro)';
  const price = values.price.trim();
  if (!price) errors.price = 'Price is required';
  else if (!Number.isFinite(Number(price)) || Number(price) < 0)
    errors.price = 'Enter a price in dollars, e.g. 299.99';
  const leads = values.leadsPerDay.trim();
  if (!leads) errors.leadsPerDay = 'Leads per day is required';
  else if (!WHOLE_RE.test(leads) || Number(leads) < 1)
    errors.leadsPerDay = 'Enter a whole number of at least 1';
  const commission = values.commissionPct.trim();
  if (!commission) errors.commissionPct = 'Commission is required';
  else if (!WHOLE_RE.test(commission) || Number(commission) > 100)
    errors.commissionPct = 'Enter a whole percent from 0 to 100';
  return errors;
}

/** The API payload: price in rounded cents, integers for leads per day and commission. */
export function toPackageBody(values: PackageFormValues): PackageBody {
  return {
    name: values.name.trim(),
    slug: values.slug.trim(),
    priceMonthlyCents: dollarsToCents(Number(values.price)),
    leadsPerDay: Number.parseInt(values.leadsPerDay, 10),
    commissionPct: Number.parseInt(values.commissionPct, 10),
    category: values.category,
    enrollmentOnly: values.enrollmentOnly,
    services: {
      crm: values.crm,
      callRecording: values.callRecording,
      followUpMessage: values.followUpMessage,
    },
    active: values.active,
  };
}
