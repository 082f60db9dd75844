import { z } from 'zod';
import { LEAD_CATEGORIES } from '../domain';

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
});
export type PackageBody = z.infer<typeof packageBody>;

export const packageActiveBody = z.object({ active: z.boolean() });
