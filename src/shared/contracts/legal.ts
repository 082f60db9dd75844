import { z } from 'zod';

/** The footer's legal pages (docs/domain.md, Legal pages), each a text an admin writes. */
export const LEGAL_PAGES = ['privacy', 'terms'] as const;
export type LegalPageName = (typeof LEGAL_PAGES)[number];

export const LEGAL_PAGE_TITLES: Record<LegalPageName, string> = {
  privacy: 'Privacy Policy',
  terms: 'Terms of Service',
};

/** The longest text a legal page holds (characters): a long policy is ~30,000. */
export const LEGAL_PAGE_MAX_CHARS = 100_000;

export const legalPageParams = z.object({ page: z.enum(LEGAL_PAGES) });

export const legalPage = z.object({
  page: z.enum(LEGAL_PAGES),
  title: z.string(),
  /** plain text, paragraphs separated by blank lines; '' until an admin writes it */
  body: z.string(),
  /** when an admin last saved it; null: never written */
  updatedAt: z.string().nullable(),
});
export type LegalPage = z.infer<typeof legalPage>;

export const legalPageBody = z.object({
  body: z
    .string()
    .max(LEGAL_PAGE_MAX_CHARS, `A legal page holds at most ${LEGAL_PAGE_MAX_CHARS} characters`),
});
export type LegalPageBody = z.infer<typeof legalPageBody>;
