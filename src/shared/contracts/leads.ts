import { z } from 'zod';
import {
  AGENT_SETTABLE_STATUSES,
  CONSENT_OUTCOMES,
  LEAD_CATEGORIES,
  LEAD_STATUSES,
} from '../domain';
import { MISFIT_REASONS } from './explanation';

export const leadSchema = z.object({
  id: z.number().int(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  city: z.string(),
  state: z.string(),
  age: z.number().int(),
  category: z.enum(LEAD_CATEGORIES),
  status: z.enum(LEAD_STATUSES),
  externalId: z.string().nullable(),
  agentId: z.number().int().nullable(),
  assignedAt: z.string().nullable(),
  createdAt: z.string(),
  /** 5-digit ZIP when the source gave one */
  zip: z.string().nullable(),
  /** IANA zone of the lead: its ZIP's, else its state's (docs/domain.md, Calling window) */
  timeZone: z.string().nullable(),
  sourceId: z.number().int().nullable(),
  /** the consumer's consent as the source recorded it (docs/domain.md, Do-not-call list and consent) */
  consentAt: z.string().nullable(),
  consentText: z.string().nullable(),
  trustedFormCertUrl: z.string().nullable(),
  jornayaLeadId: z.string().nullable(),
  consentIp: z.string().nullable(),
  /** VERIFIED when TrustedForm retained and matched the certificate; null when nothing was checked */
  consentOutcome: z.enum(CONSENT_OUTCOMES).nullable(),
  consentVerifiedAt: z.string().nullable(),
  /** until when TrustedForm keeps the certificate */
  consentExpiresAt: z.string().nullable(),
  /** when an admin approved the agent's return of it */
  returnedAt: z.string().nullable(),
  /** when the consumer's data was removed (a deletion request or the retention limit: docs/domain.md, Consumer deletion and retention) */
  anonymizedAt: z.string().nullable(),
  /** when the lead answered STOP to a follow-up message */
  optedOutAt: z.string().nullable(),
  /** the agent's first contact: status change, connected call or follow-up (docs/domain.md, Analytics that explain) */
  firstContactAt: z.string().nullable(),
  /** the agent asked to return it and no admin has decided yet (lists and single leads) */
  returnPending: z.boolean().optional(),
  /** the lead's phone is on the do-not-call list now, however late it was added (lists and single leads) */
  onDnc: z.boolean().optional(),
});
export type Lead = z.infer<typeof leadSchema>;

export const leadListQuery = z.object({
  status: z.enum(LEAD_STATUSES).optional(),
  q: z.string().trim().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(1000).optional(),
  offset: z.coerce.number().int().min(0).max(100_000_000).optional(),
  /** admin list only: the NEW leads that fit no agent for this reason (docs/domain.md, Analytics that explain) */
  noFit: z.enum(MISFIT_REASONS).optional(),
});
export type LeadListQuery = z.infer<typeof leadListQuery>;

/**
 * My Leads' orders (docs/domain.md, Lists, search and export), by when the agent received each
 * lead: the uncontacted (ASSIGNED) first, each part newest first (the default); newest first;
 * oldest first.
 */
export const AGENT_LEAD_SORTS = ['uncontacted', 'newest', 'oldest'] as const;
export type AgentLeadSort = (typeof AGENT_LEAD_SORTS)[number];

export const agentLeadListQuery = leadListQuery.omit({ noFit: true }).extend({
  sort: z.enum(AGENT_LEAD_SORTS).optional(),
});
export type AgentLeadListQuery = z.infer<typeof agentLeadListQuery>;

export const leadIdParams = z.object({
  id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER),
});

export const statusUpdateBody = z.object({ status: z.enum(AGENT_SETTABLE_STATUSES) });

export const assignLeadBody = z.object({
  leadId: z.number().int().positive(),
  userId: z.number().int().positive().max(2_147_483_647),
  /**
   * Who the admin saw holding the lead: null, nobody (a NEW lead: assign it); an agent's id
   * (reassign it from them). When the lead has moved since, 409 and nothing changes. Left out:
   * whatever the lead's state calls for (docs/domain.md, Assignment, "By hand").
   */
  fromAgentId: z.number().int().positive().max(2_147_483_647).nullable().optional(),
});
export type AssignLeadBody = z.infer<typeof assignLeadBody>;

export const importRowError = z.object({ line: z.number().int(), reason: z.string() });
export type ImportRowError = z.infer<typeof importRowError>;

export const importResult = z.object({
  imported: z.number().int(),
  /** rows refused as duplicates: same phone or email within the window, or same externalId */
  duplicates: z.number().int(),
  /** rows refused because their phone is on the do-not-call list */
  dnc: z.number().int(),
  /** rows refused because the consumer asked for their data to be deleted */
  suppressed: z.number().int(),
  /** rows refused because their consent failed its check (docs/domain.md, Consent verified at intake) */
  consent: z.number().int(),
  /** the first refused rows (duplicates, do-not-call, deleted consumers, consent), by line, with why */
  duplicateLines: z.array(importRowError),
  errors: z.array(importRowError),
  errorCount: z.number().int(),
  importId: z.number().int(),
  assigned: z.number().int().nullable(),
});
export type ImportResult = z.infer<typeof importResult>;

export const IMPORT_STATUSES = ['RUNNING', 'DONE', 'FAILED'] as const;

/** An import as recorded; while it runs, the counts are those processed so far. */
export const importRecord = z.object({
  id: z.number().int(),
  userId: z.number().int().nullable(),
  filename: z.string(),
  status: z.enum(IMPORT_STATUSES),
  rowsSeen: z.number().int(),
  imported: z.number().int(),
  duplicates: z.number().int(),
  dnc: z.number().int(),
  suppressed: z.number().int(),
  consent: z.number().int(),
  /** the first refused rows (duplicates, do-not-call, deleted consumers, consent), by line, with why */
  duplicateLines: z.array(importRowError),
  /** the first invalid rows, by line, with why */
  errors: z.array(importRowError),
  errorCount: z.number().int(),
  /** why a FAILED import stored nothing */
  message: z.string().nullable(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type ImportRecord = z.infer<typeof importRecord>;

export const importListQuery = z.object({ status: z.enum(IMPORT_STATUSES).optional() });
export type ImportListQuery = z.infer<typeof importListQuery>;
