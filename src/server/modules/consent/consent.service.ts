/**
 * Consent checked before a lead is stored (docs/domain.md, Consent verified at intake;
 * docs/decisions/037-consent-verification.md). Two rules, each answered here for the intake and
 * for the import alike:
 *
 * - a source with consentVerification TRUSTEDFORM: the lead's TrustedForm certificate is retained
 *   and matched against its phone or email (trustedform.client.ts); no certificate, a URL that
 *   is not TrustedForm's, an unknown or expired certificate, or no match refuses the lead;
 * - with SELLER_NAME set, a MEDICARE lead's consent text must name the seller (one-to-one
 *   consent), whatever its source asks.
 *
 * No database work happens while TrustedForm is asked: the intake asks before its transaction.
 */
import type { ImportRowError } from '../../../shared/contracts/leads';
import type { ConsentVerification, LeadCategory } from '../../../shared/domain';
import type { AppConfig } from '../../config/env';
import type { Db } from '../../db/client';
import type { ConsentCheckColumns, ParsedLead } from '../leads/lead-row.service';
import { findSourceConsent } from '../sources/sources.service';
import { certificateTarget, retainAndMatch } from './trustedform.client';

export type ConsentConfig = Partial<
  Pick<AppConfig, 'TRUSTEDFORM_API_KEY' | 'TRUSTEDFORM_API_BASE' | 'SELLER_NAME'>
>;

/** What a lead's consent is checked on. */
export interface ConsentSubject {
  category: LeadCategory;
  phone: string | null;
  email: string | null;
  consentText: string | null;
  trustedFormCertUrl: string | null;
  /** the lead's reference, sent to TrustedForm with the retention */
  reference: string;
}

export interface SourceConsentRule {
  name: string;
  consentVerification: ConsentVerification;
}

export type ConsentVerdict =
  /** stored with these columns (empty when nothing was checked) */
  | { kind: 'ok'; columns: ConsentCheckColumns }
  /** the lead is refused: 422 `consent` at the intake, its line at the import */
  | { kind: 'refused'; message: string }
  /** TrustedForm could not be asked: 503 at the intake, its line at the import */
  | { kind: 'unavailable'; message: string };

/** How many TrustedForm calls an import makes at once. */
export const IMPORT_CONSENT_CONCURRENCY = 8;

/** Unavailable answers in a row after which an import stops asking TrustedForm. */
export const UNAVAILABLE_IN_A_ROW = 20;

/** The reason an import's line is given when TrustedForm could not be asked. */
export const CONSENT_UNVERIFIED_REASON = 'consent could not be verified';

/** Lower case, runs of white space as one space: how the seller's name is looked for. */
function normalised(text: string): string {
  return text.toLowerCase().replace(/\s+/g, ' ').trim();
}

/** The one-to-one rule: a MEDICARE lead's consent names the seller when SELLER_NAME is set. */
function sellerNameRefusal(config: ConsentConfig, lead: ConsentSubject): string | null {
  const seller = config.SELLER_NAME ? normalised(config.SELLER_NAME) : '';
  if (seller === '' || lead.category !== 'MEDICARE') return null;
  if (lead.consentText === null || lead.consentText.trim() === '') {
    return `a MEDICARE lead needs consent text naming the seller (${config.SELLER_NAME}): one-to-one consent`;
  }
  if (!normalised(lead.consentText).includes(seller)) {
    return `the consent text does not name the seller (${config.SELLER_NAME}): one-to-one consent is required for MEDICARE leads`;
  }
  return null;
}

/** Checks one lead's consent against the rules of its source (null: no source) and of the seller. */
export async function checkConsent(
  config: ConsentConfig,
  source: SourceConsentRule | null,
  lead: ConsentSubject,
): Promise<ConsentVerdict> {
  const seller = sellerNameRefusal(config, lead);
  if (seller) return { kind: 'refused', message: seller };
  if (source?.consentVerification !== 'TRUSTEDFORM') return { kind: 'ok', columns: {} };
  if (!lead.trustedFormCertUrl) {
    return {
      kind: 'refused',
      message: 'this source requires a TrustedForm certificate URL (consent.trustedFormCertUrl)',
    };
  }
  if (!certificateTarget(lead.trustedFormCertUrl, config.TRUSTEDFORM_API_BASE)) {
    return { kind: 'refused', message: 'not a TrustedForm certificate URL' };
  }
  if (!config.TRUSTEDFORM_API_KEY) {
    return { kind: 'unavailable', message: 'TrustedForm is not configured on this server' };
  }
  const answer = await retainAndMatch({
    certUrl: lead.trustedFormCertUrl,
    apiKey: config.TRUSTEDFORM_API_KEY,
    apiBase: config.TRUSTEDFORM_API_BASE,
    reference: lead.reference,
    vendor: source.name,
    email: lead.email,
    phone: lead.phone,
  });
  if (answer.kind !== 'verified') return answer;
  return {
    kind: 'ok',
    columns: {
      consentOutcome: 'VERIFIED',
      consentVerifiedAt: new Date().toISOString(),
      consentExpiresAt: answer.expiresAt,
    },
  };
}

/** Whether any consent rule applies to a source's leads (else nothing needs checking). */
function anyRule(config: ConsentConfig, source: SourceConsentRule | null): boolean {
  return Boolean(config.SELLER_NAME) || source?.consentVerification === 'TRUSTEDFORM';
}

/**
 * The intake's check of one lead, before its transaction (the call to TrustedForm holds no
 * lock and no connection).
 */
export async function checkIntakeConsent(
  db: Db,
  config: ConsentConfig,
  sourceId: number,
  lead: Omit<ConsentSubject, 'reference'> & { externalId: string | null },
  /** the source's rule when the caller has read it already */
  known?: SourceConsentRule,
): Promise<ConsentVerdict> {
  const source = known ?? (await findSourceConsent(db, sourceId));
  if (!anyRule(config, source)) return { kind: 'ok', columns: {} };
  return checkConsent(config, source, {
    ...lead,
    reference: lead.externalId ?? `source-${sourceId}-${Date.now()}`,
  });
}

/** One import's rows checked: those kept (with their consent columns) and those refused. */
export type ImportConsentCheck = (
  leads: readonly ParsedLead[],
  importId: number,
) => Promise<{ keep: ParsedLead[]; refused: ImportRowError[] }>;

/**
 * The check an import runs on each batch of rows before they are written, or null when its
 * source and the seller ask nothing. Rows are checked IMPORT_CONSENT_CONCURRENCY at a time; a
 * row TrustedForm could not be asked about is refused too (CONSENT_UNVERIFIED_REASON): an
 * import cannot wait and answer 503 for one line.
 */
export async function importConsentCheck(
  db: Db,
  config: ConsentConfig,
  sourceId: number | null,
): Promise<ImportConsentCheck | null> {
  const source = sourceId === null ? null : await findSourceConsent(db, sourceId);
  if (!anyRule(config, source)) return null;
  // TrustedForm down or timing out for every row would hold the import for 5 s per 8 rows: after
  // UNAVAILABLE_IN_A_ROW answers of "unavailable" in a row, it is not asked again in this import
  let unavailableInARow = 0;
  return async (leads, importId) => {
    const verdicts = await mapLimited(leads, IMPORT_CONSENT_CONCURRENCY, async (lead) => {
      const subject = {
        ...lead,
        reference: lead.externalId ?? `import-${importId}-line-${lead.line}`,
      };
      if (unavailableInARow >= UNAVAILABLE_IN_A_ROW) {
        const seller = sellerNameRefusal(config, subject);
        if (seller) return { kind: 'refused', message: seller } as const;
        if (source?.consentVerification === 'TRUSTEDFORM') {
          return {
            kind: 'unavailable',
            message: 'TrustedForm did not answer earlier rows',
          } as const;
        }
      }
      const verdict = await checkConsent(config, source, subject);
      if (verdict.kind === 'unavailable') unavailableInARow++;
      else if (verdict.kind === 'ok' && verdict.columns.consentOutcome) unavailableInARow = 0;
      return verdict;
    });
    const keep: ParsedLead[] = [];
    const refused: ImportRowError[] = [];
    for (let i = 0; i < leads.length; i++) {
      const lead = leads[i] as ParsedLead;
      const verdict = verdicts[i] as ConsentVerdict;
      if (verdict.kind === 'ok') keep.push({ ...lead, ...verdict.columns });
      else if (verdict.kind === 'refused') {
        refused.push({ line: lead.line, reason: `consent: ${verdict.message}` });
      } else {
        refused.push({
          line: lead.line,
          reason: `${CONSENT_UNVERIFIED_REASON} (${verdict.message})`,
        });
      }
    }
    return { keep, refused };
  };
}

/** `fn` over `items`, at most `limit` at a time, answers in the items' order. */
async function mapLimited<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}
