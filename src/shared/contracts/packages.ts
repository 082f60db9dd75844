import { z } from 'zod';
import { LEAD_CATEGORIES, PACKAGE_PRICINGS, STATE_CODES } from '../domain';

export const packageServices = z.object({
  crm: z.boolean(),
  callRecording: z.boolean(),
  followUpMessage: z.boolean(),
});

export const packageSchema = z.object({
  id: z.number().int(),
  slug: z.string(),
  name: z.string(),
  category: z.enum(LEAD_CATEGORIES),
  priceMonthlyCents: z.number().int(),
  leadsPerDay: z.number().int(),
  commissionPct: z.number().int(),
  active: z.boolean(),
  enrollmentOnly: z.boolean(),
  services: packageServices,
  /** SUBSCRIPTION: the monthly price buys leadsPerDay a day; PER_LEAD: each lead paid from the wallet */
  pricing: z.enum(PACKAGE_PRICINGS),
  /** a PER_LEAD package's price of a lead its price list does not name; null for SUBSCRIPTION */
  perLeadCents: z.number().int().nullable(),
  /** the lowest a lead of a PER_LEAD package costs (its price list's and perLeadCents' least): "from $X per lead" */
  fromPerLeadCents: z.number().int().nullable(),
});
export type Package = z.infer<typeof packageSchema>;

export const PACKAGE_SERVICES = ['crm', 'callRecording', 'followUpMessage'] as const;
export type PackageService = (typeof PACKAGE_SERVICES)[number];

/**
 * A package as offered (the landing page, an agent choosing): with the services it includes that
 * this server cannot provide (Call Recording without Twilio, Follow-up Messages without Twilio
 * or SMTP), which the cards show as "not available" instead of advertising them.
 */
export const offeredPackageSchema = packageSchema.extend({
  unavailableServices: z.array(z.enum(PACKAGE_SERVICES)),
});
export type OfferedPackage = z.infer<typeof offeredPackageSchema>;

export const packageBody = z.object({
  name: z.string().trim().min(1, 'Name is required').max(120),
  slug: z
    .string()
    .trim()
    .min(1, 'Slug is required')
    .max(80)
    .regex(
      /^[a-z0-9]+(?:-[a-z0-9]+)*$/,
      'Slug may hold lowercase letters, digits and single dashes',
    ),
  priceMonthlyCents: z.number().int().min(0).max(100_000_000),
  leadsPerDay: z.number().int().min(1).max(10_000),
  commissionPct: z.number().int().min(0).max(100),
  category: z.enum(LEAD_CATEGORIES),
  enrollmentOnly: z.boolean(),
  services: packageServices,
  active: z.boolean(),
  pricing: z.enum(PACKAGE_PRICINGS).default('SUBSCRIPTION'),
  perLeadCents: z.number().int().min(1).max(1_000_000).nullable().default(null),
});
export type PackageBody = z.infer<typeof packageBody>;

/** What the package routes accept: the body, and a PER_LEAD package names its price per lead. */
export const packagePayload = packageBody.superRefine((body, ctx) => {
  if (body.pricing === 'PER_LEAD' && body.perLeadCents === null)
    ctx.addIssue({
      code: 'custom',
      path: ['perLeadCents'],
      message: 'A pay-per-lead package needs a price per lead',
    });
});

/**
 * One rule of a PER_LEAD package's price list: the fields set (state, age range, source) must all
 * match the lead; the first matching rule gives the price, none: the package's perLeadCents.
 */
export const priceRule = z
  .object({
    state: z.enum(STATE_CODES).nullable().default(null),
    ageMin: z.number().int().min(18).max(120).nullable().default(null),
    ageMax: z.number().int().min(18).max(120).nullable().default(null),
    sourceId: z.number().int().positive().nullable().default(null),
    priceCents: z.number().int().min(1).max(1_000_000),
  })
  .refine((r) => r.ageMin === null || r.ageMax === null || r.ageMin <= r.ageMax, {
    path: ['ageMax'],
    message: 'Maximum age cannot be below minimum age',
  });
export type PriceRule = z.infer<typeof priceRule>;

/** `GET/PUT /api/admin/packages/{id}/prices`: the rules in order (the first that matches wins). */
export const priceList = z.object({ rules: z.array(priceRule).max(200) });
export type PriceList = z.infer<typeof priceList>;

export const packageActiveBody = z.object({ active: z.boolean() });
