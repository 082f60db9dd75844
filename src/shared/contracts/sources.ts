/** Lead sources and their API keys (docs/domain.md, Sources and the intake API); the intake API's body and answers. */
import { z } from 'zod';
import { CONSENT_VERIFICATIONS, LEAD_CATEGORIES } from '../domain';

export const sourceSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  costPerLeadCents: z.number().int(),
  active: z.boolean(),
  /** TRUSTEDFORM: each lead's certificate is retained and matched before it is stored */
  consentVerification: z.enum(CONSENT_VERIFICATIONS),
  createdAt: z.string(),
  /** leads received from it, all time */
  leads: z.number().int(),
  /** keys not revoked */
  activeKeys: z.number().int(),
});
export type Source = z.infer<typeof sourceSchema>;

export const sourceBody = z.object({
  name: z.string().trim().min(1, 'Name is required').max(100),
  costPerLeadCents: z.number().int().min(0).max(100_000_00),
  active: z.boolean().optional(),
  /** TRUSTEDFORM: each lead's certificate is retained and matched before it is stored (NONE when not given) */
  consentVerification: z
    .enum(CONSENT_VERIFICATIONS, {
      error: `consentVerification must be one of ${CONSENT_VERIFICATIONS.join(', ')}`,
    })
    .optional(),
});
export type SourceBody = z.infer<typeof sourceBody>;

/**
 * PATCH /api/admin/sources/{id}: any of the fields; `active: false` deactivates the source;
 * `consentVerification` says whether its leads' TrustedForm certificates are checked.
 */
export const sourcePatchBody = sourceBody.partial();
export type SourcePatchBody = z.infer<typeof sourcePatchBody>;

export const apiKeySchema = z.object({
  id: z.number().int(),
  sourceId: z.number().int(),
  /** the key's first characters, to tell keys apart */
  prefix: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
});
export type ApiKey = z.infer<typeof apiKeySchema>;

/** The answer of creating a key: the only time the whole key is shown. */
export const createdApiKey = apiKeySchema.extend({ key: z.string() });
export type CreatedApiKey = z.infer<typeof createdApiKey>;

/** POST /api/v1/leads: one lead, the CSV's fields plus consent. */
export const intakeLeadBody = z.object({
  firstName: z.string().nullish(),
  lastName: z.string().nullish(),
  phone: z.string().nullish(),
  email: z.string().nullish(),
  city: z.string(),
  state: z.string(),
  zip: z.string().nullish(),
  age: z.union([z.number(), z.string()]),
  category: z.enum(LEAD_CATEGORIES),
  externalId: z.string().nullish(),
  consent: z
    .object({
      at: z.string(),
      text: z.string().max(5000).nullish(),
      trustedFormCertUrl: z.string().max(2000).nullish(),
      jornayaLeadId: z.string().max(200).nullish(),
      ip: z.string().max(64).nullish(),
    })
    .nullish(),
});
export type IntakeLeadBody = z.infer<typeof intakeLeadBody>;

export const intakeAccepted = z.object({
  id: z.number().int(),
  status: z.enum(['NEW', 'ASSIGNED']),
  duplicate: z.boolean(),
});
export type IntakeAccepted = z.infer<typeof intakeAccepted>;

export const intakeRefused = z.object({
  message: z.string(),
  /** suppressed: the consumer asked for their data to be deleted (docs/domain.md, Consumer deletion and retention); consent: the lead's consent failed its check (docs/domain.md, Consent verified at intake) */
  reason: z.enum(['invalid', 'duplicate', 'refused', 'suppressed', 'consent']),
  errors: z.array(z.object({ field: z.string(), message: z.string() })),
});
