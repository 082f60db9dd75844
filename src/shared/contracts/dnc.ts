import { z } from 'zod';

/** The largest DNC upload (CSV text or JSON): about 150,000 numbers at ~14 bytes a line. */
export const DNC_UPLOAD_MAX_BYTES = 2 * 1024 * 1024;
/** The most numbers one JSON `{phones}` body may carry. */
export const DNC_MAX_PHONES = 50_000;
/** The most bad lines an upload's answer lists (errorCount counts them all). */
export const DNC_MAX_ERRORS_LISTED = 500;

/** A number on the do-not-call list (docs/domain.md, Do-not-call list and consent). */
export const dncNumberSchema = z.object({
  /** E.164 */
  phone: z.string(),
  addedAt: z.string(),
  /** the admin who added it; null when that account is gone */
  addedBy: z.object({ id: z.number().int(), name: z.string() }).nullable(),
});
export type DncNumber = z.infer<typeof dncNumberSchema>;

export const dncListQuery = z.object({
  /** digits of the number, anywhere in it ('305', '+1 305 555', '(305) 555-0123') */
  q: z.string().trim().max(40).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).max(10_000_000).default(0),
});
export type DncListQuery = z.infer<typeof dncListQuery>;

export const dncList = z.object({
  /** numbers on the whole list */
  count: z.number().int(),
  /** numbers that match the search (the whole list without one) */
  total: z.number().int(),
  /** newest first */
  items: z.array(dncNumberSchema),
});
export type DncList = z.infer<typeof dncList>;

export const dncPhonesBody = z.object({
  phones: z.array(z.string().max(40)).min(1).max(DNC_MAX_PHONES),
});

/** JSON `{phones}`, or the CSV itself as a text/csv (or text/plain) body. */
export const dncUploadBody = z.union([dncPhonesBody, z.string().max(DNC_UPLOAD_MAX_BYTES)]);

export const dncLineError = z.object({ line: z.number().int(), reason: z.string() });

export const dncUploadResult = z.object({
  /** numbers newly on the list */
  added: z.number().int(),
  /** valid numbers that were on the list already, or earlier in the same upload */
  alreadyListed: z.number().int(),
  /** bad lines (CSV: the file's line number; JSON: the 1-based position), first ones only */
  errors: z.array(dncLineError),
  errorCount: z.number().int(),
});
export type DncUploadResult = z.infer<typeof dncUploadResult>;

export const dncPhoneParams = z.object({ phone: z.string().min(1).max(40) });
