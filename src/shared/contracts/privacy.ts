import { z } from 'zod';

/**
 * A consumer's deletion request (docs/domain.md, Consumer deletion and retention): their phone,
 * their email, or both. Nothing of them is kept but keyed hashes.
 */
export const privacyDeletionBody = z
  .object({
    phone: z.string().trim().max(40).optional(),
    email: z.string().trim().max(200).optional(),
  })
  .refine((b) => Boolean(b.phone) || Boolean(b.email), {
    message: 'Give the consumer’s phone, email or both',
    path: ['phone'],
  });
export type PrivacyDeletionBody = z.infer<typeof privacyDeletionBody>;

const taskCounts = z.object({
  done: z.number().int(),
  pending: z.number().int(),
  failed: z.number().int(),
  skipped: z.number().int(),
});

export const privacyDeletionSchema = z.object({
  id: z.number().int(),
  createdAt: z.string(),
  /** the admin who asked; null when that account is gone */
  requestedBy: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  byPhone: z.boolean(),
  byEmail: z.boolean(),
  /** leads anonymized */
  leads: z.number().int(),
  /** the CRMs told (one signed lead.deleted event a lead) */
  webhooks: taskCounts,
  /** call recordings removed at the provider */
  recordings: taskCounts,
});
export type PrivacyDeletion = z.infer<typeof privacyDeletionSchema>;

export const privacyDeletionsQuery = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).max(10_000_000).default(0),
});
export type PrivacyDeletionsQuery = z.infer<typeof privacyDeletionsQuery>;

export const privacyDeletionList = z.object({
  total: z.number().int(),
  /** newest first */
  items: z.array(privacyDeletionSchema),
});
export type PrivacyDeletionList = z.infer<typeof privacyDeletionList>;
