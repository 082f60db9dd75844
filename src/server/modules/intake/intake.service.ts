/**
 * The real-time intake (docs/domain.md, Sources and the intake API): one lead from a source's system, validated by the same rules
 * as a CSV row, stored once per (source, externalId), and given at once to the fitting eligible
 * agent with the lowest (a + 1) / q, in the request (docs/decisions/015-intake-assignment.md).
 */
import type { SQL } from 'drizzle-orm';
import type { IntakeAccepted } from '../../../shared/contracts/sources';
import type { AppConfig } from '../../config/env';
import type { Db } from '../../db/client';
import type { LeadEvents } from '../../events/lead-events';
import { businessDate } from '../../lib/business-time';
import { intakePicks } from '../../lib/metrics';
import {
  type ConsentConfig,
  type ConsentVerdict,
  checkIntakeConsent,
  type SourceConsentRule,
} from '../consent/consent.service';
import type { FitRoster } from '../fit/fit-roster.service';
import { type FitContext, fitLead } from '../fit/fit-rule.service';
import { fitSqlParams } from '../fit/fit-rule-sql.service';
import {
  assignReceivedLead,
  insertReceivedLead,
  type ReceivedLead,
  recordIntakeRefusal,
} from '../leads/lead-life.service';
import {
  type ConsentCheckColumns,
  type LeadField,
  type LeadValues,
  validateLead,
} from '../leads/lead-row.service';
import { findSourceLead, pickAgent } from './intake.repository';
import { findQualityHit, importedMeanwhileSql, type QualityHit } from './intake-quality.repository';

export interface FieldError {
  field: string;
  message: string;
}

export interface IntakeConsent {
  at?: unknown;
  text?: unknown;
  trustedFormCertUrl?: unknown;
  jornayaLeadId?: unknown;
  ip?: unknown;
}

/** The lead as the source sent it: values are checked here, not by the route's schema. */
export type IntakeInput = Partial<Record<LeadField | 'zip', unknown>> & {
  consent?: IntakeConsent | null;
};

export type IntakeOutcome =
  | { kind: 'accepted'; answer: IntakeAccepted }
  | { kind: 'duplicate'; answer: IntakeAccepted }
  | { kind: 'invalid'; errors: FieldError[] }
  /** docs/domain.md, Lead quality: a lead with the same phone or email within the window, or on the DNC list */
  | {
      kind: 'refused';
      reason: 'duplicate' | 'refused' | 'suppressed' | 'consent';
      message: string;
      errors: FieldError[];
    }
  /** TrustedForm could not be asked: nothing was decided, the source may send the lead again */
  | { kind: 'unavailable'; message: string };

type IntakeConsentColumns = Pick<
  ReceivedLead,
  'consentAt' | 'consentText' | 'trustedFormCertUrl' | 'jornayaLeadId' | 'consentIp'
> &
  ConsentCheckColumns;

/** How many agents may lose the race for a lead before it stays NEW for the next run. */
const PICK_ATTEMPTS = 3;

const CONSENT_LIMITS = { text: 5000, trustedFormCertUrl: 2000, jornayaLeadId: 200, ip: 64 };

/** Validates the lead with the CSV's rules (lead-row.service) plus the consent's own. */
export function validateIntakeLead(
  input: IntakeInput,
): { lead: LeadValues; consent: IntakeConsentColumns } | FieldError[] {
  const errors: FieldError[] = [];
  const values: Partial<Record<LeadField, string | null>> = {};
  for (const field of LEAD_FIELD_NAMES) {
    const v = input[field];
    if (v === undefined || v === null) continue;
    if (typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v)))
      values[field] = String(v);
    else errors.push({ field, message: `${field} must be text` });
  }
  const result = validateLead(values);
  if (typeof result === 'string') errors.push(...reasonsByField(result));

  const consent = input.consent ?? null;
  const out = {
    consentAt: null,
    consentText: null,
    trustedFormCertUrl: null,
    jornayaLeadId: null,
    consentIp: null,
  } as {
    consentAt: string | null;
    consentText: string | null;
    trustedFormCertUrl: string | null;
    jornayaLeadId: string | null;
    consentIp: string | null;
  };
  if (consent !== null) {
    if (typeof consent !== 'object' || Array.isArray(consent)) {
      errors.push({ field: 'consent', message: 'consent must be an object' });
    } else {
      const at = typeof consent.at === 'string' ? Date.parse(consent.at) : Number.NaN;
      if (consent.at === undefined || consent.at === null || consent.at === '') {
        errors.push({
          field: 'consent.at',
          message: 'consent.at is required when consent is given',
        });
      } else if (Number.isNaN(at)) {
        errors.push({ field: 'consent.at', message: 'consent.at must be an ISO 8601 date-time' });
      } else {
        out.consentAt = new Date(at).toISOString();
      }
      const texts = [
        ['text', 'consentText'],
        ['trustedFormCertUrl', 'trustedFormCertUrl'],
        ['jornayaLeadId', 'jornayaLeadId'],
        ['ip', 'consentIp'],
      ] as const;
      for (const [name, column] of texts) {
        const v = consent[name];
        if (v === undefined || v === null) continue;
        if (typeof v !== 'string')
          errors.push({ field: `consent.${name}`, message: `consent.${name} must be text` });
        else if (v.length > CONSENT_LIMITS[name]) {
          errors.push({
            field: `consent.${name}`,
            message: `consent.${name} is longer than ${CONSENT_LIMITS[name]} characters`,
          });
        } else out[column] = v.trim() === '' ? null : v.trim();
      }
    }
  }
  if (errors.length > 0 || typeof result === 'string') return errors;
  return { lead: result, consent: out };
}

const LEAD_FIELD_NAMES: readonly LeadField[] = [
  'externalId',
  'firstName',
  'lastName',
  'phone',
  'email',
  'city',
  'state',
  'age',
  'category',
  'zip',
];

/**
 * The row rules answer one text ("Missing city; Invalid email: 'x'"); each part names its field
 * before any quoted value, which is how it is attributed here.
 */
function reasonsByField(reason: string): FieldError[] {
  return reason.split('; ').map((message) => {
    const head = message.split(':')[0].toLowerCase();
    const field = LEAD_FIELD_NAMES.find((f) => new RegExp(`\\b${f.toLowerCase()}\\b`).test(head));
    return { field: field ?? 'lead', message };
  });
}

/**
 * Stores the lead and assigns it at once when an agent fits. A repeated externalId from the
 * same source answers the first lead's id and current status (duplicate: true); nothing is
 * stored twice.
 */
export async function receiveLead(
  db: Db,
  config: Pick<AppConfig, 'BUSINESS_TZ' | 'ENROLLMENT_WINDOWS'> &
    Partial<Pick<AppConfig, 'DUPLICATE_WINDOW_DAYS'>> &
    ConsentConfig,
  events: LeadEvents,
  sourceId: number,
  input: IntakeInput,
  /**
   * the process's copy of the agents (decision 043), and the source's consent rule when the
   * caller read it with the key
   */
  using: { roster?: FitRoster | null; source?: SourceConsentRule } = {},
): Promise<IntakeOutcome> {
  const roster = using.roster ?? null;
  const valid = validateIntakeLead(input);
  if (Array.isArray(valid)) {
    await recordIntakeRefusal(db, sourceId, 'INVALID');
    return { kind: 'invalid', errors: valid };
  }
  const { lead } = valid;
  // consent (docs/domain.md, Consent verified at intake): before the transaction, no lock held
  const checked = await checkIntakeConsent(
    db,
    config,
    sourceId,
    { ...lead, ...valid.consent },
    using.source,
  );
  if (checked.kind !== 'ok') {
    // counted in the sources' refusals; TrustedForm unavailable decided nothing
    if (checked.kind !== 'unavailable') await recordIntakeRefusal(db, sourceId, 'CONSENT');
    return consentRefusal(checked);
  }
  const consent: IntakeConsentColumns = { ...valid.consent, ...checked.columns };
  const day = businessDate(config.BUSINESS_TZ);
  const windowDays = config.DUPLICATE_WINDOW_DAYS ?? 30;

  for (let attempt = 1; ; attempt++) {
    try {
      return await storeAndAssign(
        db,
        config,
        events,
        sourceId,
        lead,
        consent,
        day,
        windowDays,
        roster,
      );
    } catch (err) {
      if (err instanceof ImportedMeanwhile) {
        // the lead written is rolled back with its transaction; the refusal is counted apart
        await recordIntakeRefusal(db, sourceId, 'DUPLICATE');
        return refusal({ kind: 'phone', id: 0 }, windowDays);
      }
      // two requests each holding one agent's lock and waiting for the other's (both picks went
      // stale at once): PostgreSQL aborts one; it goes again from the start, nothing was kept
      if (attempt >= 3 || (err as { code?: string }).code !== DEADLOCK) throw err;
    }
  }
}

const DEADLOCK = '40P01';

function consentRefusal(verdict: Exclude<ConsentVerdict, { kind: 'ok' }>): IntakeOutcome {
  if (verdict.kind === 'unavailable') {
    return {
      kind: 'unavailable',
      message: `The lead's consent could not be verified now: ${verdict.message}`,
    };
  }
  return {
    kind: 'refused',
    reason: 'consent',
    message: `The lead is refused: ${verdict.message}`,
    errors: [{ field: 'consent', message: verdict.message }],
  };
}

/** A CSV import committed a lead with the same phone or email while this request ran. */
class ImportedMeanwhile extends Error {}

function storeAndAssign(
  db: Db,
  config: Pick<AppConfig, 'ENROLLMENT_WINDOWS'>,
  events: LeadEvents,
  sourceId: number,
  lead: LeadValues,
  consent: IntakeConsentColumns,
  day: string,
  windowDays: number,
  roster: FitRoster | null,
): Promise<IntakeOutcome> {
  return db.transaction(async (tx) => {
    // after the intake's locks (findQualityHit): an engine run in flight ends first
    const hit = await findQualityHit(tx, lead, sourceId, windowDays);
    if (hit && hit.kind !== 'externalId') {
      await recordIntakeRefusal(
        tx,
        sourceId,
        hit.kind === 'DNC' || hit.kind === 'SUPPRESSED' ? hit.kind : 'DUPLICATE',
      );
      return refusal(hit, windowDays);
    }
    const id = await insertReceivedLead(tx, { ...lead, ...consent, sourceId });
    if (id === null) {
      const first = await findSourceLead(tx, sourceId, lead.externalId as string);
      if (!first) throw new Error('duplicate externalId without a stored lead');
      return {
        kind: 'duplicate',
        answer: { id: first.id, status: first.status, duplicate: true },
      };
    }
    // the lead's insert took the import gate: an import that ended meanwhile is seen by the next
    // statement, the pick's, which looks for it (and picks nobody when it finds it)
    const assigned = await assignAtOnce(tx, id, lead, day, config, roster, {
      refuseIf: importedMeanwhileSql(lead, id, windowDays),
    });
    // leadsAssigned: notifications, deliveries, follow-ups, in this transaction
    if (assigned) await events.emit(tx, 'leadsAssigned', { leadIds: [id] });
    return {
      kind: 'accepted',
      answer: { id, status: assigned ? 'ASSIGNED' : 'NEW', duplicate: false },
    };
  });
}

/**
 * The vendor's answer to a refused lead. It names no other lead, no other source's data and no
 * list (a vendor could otherwise probe which phones and emails LeadFlow holds, and which numbers
 * are on the do-not-call list): a duplicate is "duplicate", anything else "refused". Admins see
 * the reasons in the sources' figures.
 */
function refusal(
  hit: Exclude<QualityHit, { kind: 'externalId' }>,
  windowDays: number,
): IntakeOutcome {
  if (hit.kind === 'DNC') {
    return { kind: 'refused', reason: 'refused', message: 'The lead is refused', errors: [] };
  }
  if (hit.kind === 'SUPPRESSED') {
    return {
      kind: 'refused',
      reason: 'suppressed',
      message: 'The lead is refused: the consumer asked for their data to be deleted',
      errors: [],
    };
  }
  return {
    kind: 'refused',
    reason: 'duplicate',
    message: `The lead is refused: a lead with the same phone or email was received in the last ${windowDays} days`,
    errors: [],
  };
}

async function assignAtOnce(
  tx: Db,
  leadId: number,
  lead: LeadValues,
  day: string,
  config: Pick<AppConfig, 'ENROLLMENT_WINDOWS'>,
  roster: FitRoster | null,
  first: { refuseIf: SQL },
): Promise<boolean> {
  const exclude: number[] = [];
  const ctx: FitContext = {
    now: new Date(),
    businessDate: day,
    windows: config.ENROLLMENT_WINDOWS,
  };
  const fitting = fitLead(lead);
  const fit = fitSqlParams(fitting, ctx);
  for (let attempt = 0; attempt < PICK_ATTEMPTS; attempt++) {
    // the process's copy of the agents, checked by the pick's statement against the data this
    // transaction sees (decision 043); when it is stale, the fit rule's SQL rendering this time
    const copy = roster?.candidates(fitting, ctx, exclude) ?? undefined;
    // the first pick also looks for a lead an import committed meanwhile
    const refuseIf = attempt === 0 ? first.refuseIf : undefined;
    let pick = await pickAgent(tx, { fit, businessDate: day, exclude, copy, refuseIf });
    if (pick.refused) throw new ImportedMeanwhile();
    const fromMemory = copy !== undefined && !pick.stale;
    if (pick.stale) {
      roster?.stale();
      pick = await pickAgent(tx, { fit, businessDate: day, exclude });
    }
    intakePicks.inc({ by: fromMemory ? 'memory' : 'database' });
    const agent = pick.agent;
    if (!agent) return false;
    if (
      await assignReceivedLead(tx, {
        leadId,
        agentId: agent.id,
        quota: agent.quota,
        businessDate: day,
        agencyCap:
          agent.agencyId !== null && agent.agencyCap !== null
            ? { agencyId: agent.agencyId, cap: agent.agencyCap }
            : null,
        agentLocked: true,
      })
    ) {
      return true;
    }
    exclude.push(agent.id); // filled by a concurrent request since the pick: the next one
  }
  return false;
}

/** The transaction locks an intake request holds on a phone and an email (a consumer's deletion takes them too). */
export { lockContacts } from './intake-quality.repository';
