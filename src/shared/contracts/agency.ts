/**
 * Agencies and their downlines (docs/domain.md, Agencies): the agency, its members, invite codes,
 * the agency's book of business, the packages it pays for, and the platform admins' list.
 */
import { z } from 'zod';
import {
  AGENCY_ROLES,
  AGENCY_STATUSES,
  LEAD_CATEGORIES,
  LEAD_STATUSES,
  SUBSCRIPTION_STATUSES,
} from '../domain';
import { quotaSchema } from './agent';

const id = z.coerce.number().int().positive().max(2_147_483_647);
const bodyId = z.number().int().positive().max(2_147_483_647);

/** A reclaim delay's bounds, in minutes inside the lead's calling window. */
export const RECLAIM_MINUTES_MIN = 5;
export const RECLAIM_MINUTES_MAX = 1440;
/** How long an invite code works unless said (days), and the longest it may. */
export const AGENCY_INVITE_DAYS = 7;
export const AGENCY_INVITE_MAX_DAYS = 90;

export const agencyName = z
  .string()
  .trim()
  .min(1, { error: 'Name the agency' })
  .max(100, { error: 'An agency name is at most 100 characters' });

export const agencySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  status: z.enum(AGENCY_STATUSES),
  /** leads a business day across all members; null: no cap */
  dailyCap: z.number().int().nullable(),
  /** minutes a member has to work a lead before it is taken back; null: off */
  reclaimAfterMinutes: z.number().int().nullable(),
  /** every member must use two-factor authentication (docs/domain.md, Accounts: two factors) */
  requireTwoFactor: z.boolean(),
  createdAt: z.string(),
});
export type Agency = z.infer<typeof agencySchema>;

const person = z.object({ id: z.number().int(), name: z.string() });

/** GET /api/agency: the caller's agency, their role in it, their manager and the owner. */
export const myAgency = z.object({
  agency: agencySchema,
  role: z.enum(AGENCY_ROLES),
  /** the caller's manager (a MANAGER, or the OWNER); null: the owner's own, or the owner */
  manager: person.nullable(),
  owner: person,
  /** whether the agency pays the caller's package */
  paidByAgency: z.boolean(),
});
export type MyAgency = z.infer<typeof myAgency>;

/** POST /api/agency */
export const createAgencyBody = z.object({ name: agencyName });

/** PATCH /api/agency (OWNER): any of the four */
export const updateAgencyBody = z
  .object({
    name: agencyName.optional(),
    dailyCap: z
      .number()
      .int({ error: 'The daily cap is a whole number' })
      .positive({ error: 'The daily cap is at least 1 (or none)' })
      .max(1_000_000)
      .nullable()
      .optional(),
    reclaimAfterMinutes: z
      .number()
      .int({ error: 'Minutes are a whole number' })
      .min(RECLAIM_MINUTES_MIN, {
        error: `Reclaim after ${RECLAIM_MINUTES_MIN} to ${RECLAIM_MINUTES_MAX} minutes (or never)`,
      })
      .max(RECLAIM_MINUTES_MAX, {
        error: `Reclaim after ${RECLAIM_MINUTES_MIN} to ${RECLAIM_MINUTES_MAX} minutes (or never)`,
      })
      .nullable()
      .optional(),
    requireTwoFactor: z.boolean().optional(),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), {
    message: 'Nothing to change',
  });
export type UpdateAgencyBody = z.infer<typeof updateAgencyBody>;

/** The roles an invite may offer: ownership is handed over, never offered by a link. */
export const INVITE_ROLES = ['MANAGER', 'AGENT'] as const;

/** POST /api/agency/invites */
export const createInviteBody = z.object({
  role: z.enum(INVITE_ROLES),
  /** the joiner's manager (a MANAGER or the OWNER of the agency); null: the owner's own */
  managerId: bodyId.nullable().optional(),
  /** how many may join with it; null: any number until it expires */
  maxUses: z.number().int().min(1).max(10_000).nullable().optional(),
  expiresInDays: z.number().int().min(1).max(AGENCY_INVITE_MAX_DAYS).optional(),
});
export type CreateInviteBody = z.infer<typeof createInviteBody>;

/** The code is shown once, here; only its SHA-256 is kept. url: PUBLIC_URL/join/<code> */
export const inviteCreated = z.object({ id: z.number().int(), code: z.string(), url: z.string() });
export type InviteCreated = z.infer<typeof inviteCreated>;

export const agencyInvite = z.object({
  id: z.number().int(),
  role: z.enum(AGENCY_ROLES),
  manager: person.nullable(),
  maxUses: z.number().int().nullable(),
  uses: z.number().int(),
  expiresAt: z.string(),
  createdBy: person.nullable(),
  createdAt: z.string(),
  /** expired or used up: it admits nobody any more */
  usable: z.boolean(),
});
export type AgencyInvite = z.infer<typeof agencyInvite>;
export const agencyInviteList = z.array(agencyInvite);

export const inviteParams = z.object({ id });

/** GET /api/agency/invites/lookup?code= (public: the join page) */
export const inviteLookupQuery = z.object({ code: z.string().trim().min(1).max(200) });
export const inviteLookup = z.object({
  agencyName: z.string(),
  ownerName: z.string(),
  role: z.enum(AGENCY_ROLES),
});
export type InviteLookup = z.infer<typeof inviteLookup>;

/** POST /api/agency/join */
export const joinAgencyBody = z.object({ code: z.string().trim().min(1).max(200) });

export const memberParams = z.object({ userId: id });

/** PATCH /api/agency/members/{userId} (OWNER): OWNER hands ownership over */
export const updateMemberBody = z
  .object({
    role: z.enum(AGENCY_ROLES).optional(),
    /** a MANAGER or the OWNER of the agency; null: the owner's own */
    managerId: bodyId.nullable().optional(),
  })
  .refine((b) => b.role !== undefined || b.managerId !== undefined, {
    message: 'Nothing to change',
  });
export type UpdateMemberBody = z.infer<typeof updateMemberBody>;

/** One row of GET /api/agency/members: who they are and how they work (30 days). */
export const agencyMember = z.object({
  userId: z.number().int(),
  name: z.string(),
  email: z.string(),
  role: z.enum(AGENCY_ROLES),
  manager: person.nullable(),
  joinedAt: z.string(),
  package: z
    .object({
      id: z.number().int(),
      name: z.string(),
      category: z.enum(LEAD_CATEGORIES),
      leadsPerDay: z.number().int(),
    })
    .nullable(),
  subscriptionStatus: z.enum(SUBSCRIPTION_STATUSES).nullable(),
  /** the agency pays this member's package */
  paidByAgency: z.boolean(),
  quotaToday: quotaSchema,
  paused: z.boolean(),
  /** empty: not restricted */
  licensedStates: z.array(z.string()),
  /** leads received in the last 30 days, and of those converted and returned */
  leads30d: z.number().int(),
  converted30d: z.number().int(),
  returns30d: z.number().int(),
  /** median minutes from receiving a lead to first contact, over the last 30 days; null: none */
  speedToLeadMinutes: z.number().nullable(),
});
export type AgencyMember = z.infer<typeof agencyMember>;
export const agencyMemberList = z.array(agencyMember);

/** GET /api/agency/leads: the agency's book, scoped by the caller's role */
export const agencyLeadsQuery = z.object({
  memberId: id.optional(),
  status: z.enum(LEAD_STATUSES).optional(),
  q: z.string().trim().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).max(100_000_000).default(0),
});
export type AgencyLeadsQuery = z.infer<typeof agencyLeadsQuery>;

export const agencyLead = z.object({
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
  /** the member working it; null when it went back to the agency's pool */
  agent: person.nullable(),
  assignedAt: z.string().nullable(),
  firstContactAt: z.string().nullable(),
  /** times the agency took it back from a member who did not work it */
  reclaims: z.number().int(),
  createdAt: z.string(),
});
export type AgencyLead = z.infer<typeof agencyLead>;
export const agencyLeadPage = z.object({ items: z.array(agencyLead), total: z.number().int() });
export type AgencyLeadPage = z.infer<typeof agencyLeadPage>;

export const agencyLeadParams = z.object({
  id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER),
});
/** POST /api/agency/leads/{id}/reassign */
export const reassignAgencyLeadBody = z.object({ userId: bodyId });

/** PUT /api/agency/members/{userId}/subscription (OWNER): the agency pays this package */
export const memberSubscriptionBody = z.object({ packageId: bodyId });
/**
 * What paying for a member answers: the member's row, or, with Stripe when the agency has no
 * payment method yet, the page where the owner pays first.
 */
export const memberSubscriptionAnswer = z.union([
  agencyMember,
  z.object({ checkoutUrl: z.string() }),
]);

/** GET /api/admin/agencies: one row per agency */
export const adminAgency = z.object({
  id: z.number().int(),
  name: z.string(),
  status: z.enum(AGENCY_STATUSES),
  owner: z.object({ id: z.number().int(), name: z.string(), email: z.string() }).nullable(),
  members: z.number().int(),
  /** the agency's book: every lead given through it */
  leads: z.number().int(),
  /** members whose package the agency pays */
  paidMembers: z.number().int(),
  dailyCap: z.number().int().nullable(),
  createdAt: z.string(),
});
export type AdminAgency = z.infer<typeof adminAgency>;
export const adminAgencyList = z.array(adminAgency);
export const adminAgencyParams = z.object({ id });
/** PATCH /api/admin/agencies/{id} */
export const adminAgencyBody = z.object({ status: z.enum(AGENCY_STATUSES) });
