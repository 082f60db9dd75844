/** Enumerations and constants of the lead business, shared by server and web. */

export const LEAD_CATEGORIES = ['MEDICARE', 'ACA', 'FINAL_EXPENSE'] as const;
export type LeadCategory = (typeof LEAD_CATEGORIES)[number];

export const LEAD_STATUSES = [
  'NEW',
  'ASSIGNED',
  'CONTACTED',
  'IN_PROGRESS',
  'CONVERTED',
  'INVALID',
] as const;
export type LeadStatus = (typeof LEAD_STATUSES)[number];

/** The statuses an agent may set on their own lead. */
export const AGENT_SETTABLE_STATUSES = [
  'CONTACTED',
  'IN_PROGRESS',
  'CONVERTED',
  'INVALID',
] as const;
export type AgentSettableStatus = (typeof AGENT_SETTABLE_STATUSES)[number];

/**
 * The statuses of a lead an admin may move to another agent (docs/domain.md, Assignment, "By
 * hand"): given and still being worked. A CONVERTED lead is a sale made, an INVALID one is done
 * (or returned), a NEW one is assigned, not reassigned.
 */
export const REASSIGNABLE_STATUSES = ['ASSIGNED', 'CONTACTED', 'IN_PROGRESS'] as const;
export type ReassignableStatus = (typeof REASSIGNABLE_STATUSES)[number];

export const SUBSCRIPTION_STATUSES = ['ACTIVE', 'PAST_DUE', 'CANCELED', 'INACTIVE'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/**
 * Who set a subscription's status: the agent, an admin, the payment provider, or the agency that
 * pays the member's package (its suspension, its payments, the end of its paying).
 */
export const SUBSCRIPTION_ACTORS = ['AGENT', 'ADMIN', 'BILLING', 'AGENCY'] as const;
export type SubscriptionActor = (typeof SUBSCRIPTION_ACTORS)[number];

export const USER_ROLES = ['ADMIN', 'AGENT'] as const;
export type UserRole = (typeof USER_ROLES)[number];

/**
 * Whether an admin let the account work (docs/domain.md, Accounts): every account is APPROVED
 * unless registration asks for approval (REGISTRATION=approval), where a new agent is PENDING
 * until an admin approves or refuses (REFUSED: cannot log in).
 */
export const ACCOUNT_APPROVALS = ['APPROVED', 'PENDING', 'REFUSED'] as const;
export type AccountApproval = (typeof ACCOUNT_APPROVALS)[number];

/**
 * An agency's standing (docs/domain.md, Agencies): a SUSPENDED agency's members get no leads and
 * its agency-paid subscriptions are held.
 */
export const AGENCY_STATUSES = ['ACTIVE', 'SUSPENDED'] as const;
export type AgencyStatus = (typeof AGENCY_STATUSES)[number];

/** A member's role in its agency: the OWNER sees all, a MANAGER their team, an AGENT their own. */
/** How a package is paid (docs/domain.md, Pay per lead): a monthly subscription, or each lead from a wallet. */
export const PACKAGE_PRICINGS = ['SUBSCRIPTION', 'PER_LEAD'] as const;
export type PackagePricing = (typeof PACKAGE_PRICINGS)[number];

/**
 * The kinds of a wallet's ledger entries (docs/domain.md, The wallet): money in (a top-up, an
 * admin's credit, a lead's price given back) and out (a lead's price, a refund of a top-up).
 */
export const WALLET_ENTRY_KINDS = [
  'TOP_UP',
  'LEAD',
  'RETURN_CREDIT',
  'RECLAIM_CREDIT',
  'ADMIN_CREDIT',
  'REFUND',
] as const;
export type WalletEntryKind = (typeof WALLET_ENTRY_KINDS)[number];

export const AGENCY_ROLES = ['OWNER', 'MANAGER', 'AGENT'] as const;
export type AgencyRole = (typeof AGENCY_ROLES)[number];

/** Who may sign up (docs/domain.md, Accounts): anyone, anyone with an admin's approval, or by invite. */
export const REGISTRATION_MODES = ['open', 'approval', 'invite'] as const;
export type RegistrationMode = (typeof REGISTRATION_MODES)[number];

/**
 * RETURN: the replacement run after an admin approves a return (docs/domain.md, Returns and
 * credits). AGENCY: the run after an agency took back a departing member's uncontacted leads
 * (docs/domain.md, Agencies: leaving).
 */
export const ASSIGNMENT_TRIGGERS = ['SCHEDULE', 'MANUAL', 'IMPORT', 'RETURN', 'AGENCY'] as const;
export type AssignmentTrigger = (typeof ASSIGNMENT_TRIGGERS)[number];

/** How an assigned lead reaches its agent besides the portal itself (docs/domain.md, Delivery of assigned leads). */
export const DELIVERY_CHANNELS = ['EMAIL', 'WEBHOOK'] as const;
export type DeliveryChannel = (typeof DELIVERY_CHANNELS)[number];

/**
 * PENDING: waiting for its first attempt or a retry; SENT: accepted by the receiver; FAILED:
 * given up (a final rejection, retries used up, or the endpoint switched off); SKIPPED: the
 * channel was off or not configured when its turn came.
 */
export const DELIVERY_STATUSES = ['PENDING', 'SENT', 'FAILED', 'SKIPPED'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** Why an agent returns a lead (docs/domain.md, Returns and credits): a closed list, as lead vendors' return policies have. */
export const RETURN_REASONS = [
  'WRONG_NUMBER',
  'DUPLICATE',
  'OUT_OF_AREA',
  'FAKE_INFO',
  'CONSUMER_DENIES',
  'LANGUAGE_BARRIER',
  'UNDER_AGE',
] as const;
export type ReturnReason = (typeof RETURN_REASONS)[number];

export const RETURN_STATUSES = ['PENDING', 'APPROVED', 'DENIED'] as const;
export type ReturnStatus = (typeof RETURN_STATUSES)[number];

/** Why a lead offered at import or intake was not stored (docs/domain.md, Lead quality; the Sources figures). */
/**
 * Whether a source's leads must carry consent checked with TrustedForm (docs/domain.md, Consent
 * verified at intake); NONE takes the consent as the source recorded it.
 */
export const CONSENT_VERIFICATIONS = ['NONE', 'TRUSTEDFORM'] as const;
export type ConsentVerification = (typeof CONSENT_VERIFICATIONS)[number];

/** What a lead's consent check came to (a lead whose check failed is never stored). */
export const CONSENT_OUTCOMES = ['VERIFIED'] as const;
export type ConsentOutcome = (typeof CONSENT_OUTCOMES)[number];

export const REFUSAL_REASONS = ['INVALID', 'DUPLICATE', 'DNC', 'SUPPRESSED', 'CONSENT'] as const;
export type RefusalReason = (typeof REFUSAL_REASONS)[number];

/** Follow-up messages (docs/domain.md, Follow-up messages and calls). */
export const MESSAGE_CHANNELS = ['SMS', 'EMAIL'] as const;
export type MessageChannel = (typeof MESSAGE_CHANNELS)[number];

/**
 * WAITING: for the lead's calling window; QUEUED: handed to the queue or the provider; SENT:
 * accepted by the provider; DELIVERED: the provider's status callback says it arrived; FAILED:
 * the provider refused it or it bounced; BLOCKED: a gate held it back at send time (no consent,
 * do-not-call, opted out, service or provider gone), with the reason in `error`; RECEIVED: an
 * inbound message from the lead (a STOP).
 */
export const MESSAGE_STATUSES = [
  'WAITING',
  'QUEUED',
  'SENT',
  'DELIVERED',
  'FAILED',
  'BLOCKED',
  'RECEIVED',
] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

/** A click-to-call's state, as the provider's status callbacks report it (docs/domain.md, Follow-up messages and calls). */
export const CALL_STATUSES = [
  'QUEUED',
  'RINGING',
  'IN_PROGRESS',
  'COMPLETED',
  'BUSY',
  'NO_ANSWER',
  'FAILED',
  'CANCELED',
] as const;
export type CallStatus = (typeof CALL_STATUSES)[number];

export const MIN_PASSWORD_LENGTH = 6;
export const MIN_LEAD_AGE = 18;
export const MAX_LEAD_AGE = 120;

/**
 * The places leads come from: the 50 US states, the District of Columbia and Puerto Rico, with
 * their names (for CSV imports that spell the name out).
 */
export const US_STATES = {
  AL: 'Alabama',
  AK: 'Alaska',
  AZ: 'Arizona',
  AR: 'Arkansas',
  CA: 'California',
  CO: 'Colorado',
  CT: 'Connecticut',
  DE: 'Delaware',
  DC: 'District of Columbia',
  FL: 'Florida',
  GA: 'Georgia',
  HI: 'Hawaii',
  ID: 'Idaho',
  IL: 'Illinois',
  IN: 'Indiana',
  IA: 'Iowa',
  KS: 'Kansas',
  KY: 'Kentucky',
  LA: 'Louisiana',
  ME: 'Maine',
  MD: 'Maryland',
  MA: 'Massachusetts',
  MI: 'Michigan',
  MN: 'Minnesota',
  MS: 'Mississippi',
  MO: 'Missouri',
  MT: 'Montana',
  NE: 'Nebraska',
  NV: 'Nevada',
  NH: 'New Hampshire',
  NJ: 'New Jersey',
  NM: 'New Mexico',
  NY: 'New York',
  NC: 'North Carolina',
  ND: 'North Dakota',
  OH: 'Ohio',
  OK: 'Oklahoma',
  OR: 'Oregon',
  PA: 'Pennsylvania',
  PR: 'Puerto Rico',
  RI: 'Rhode Island',
  SC: 'South Carolina',
  SD: 'South Dakota',
  TN: 'Tennessee',
  TX: 'Texas',
  UT: 'Utah',
  VT: 'Vermont',
  VA: 'Virginia',
  WA: 'Washington',
  WV: 'West Virginia',
  WI: 'Wisconsin',
  WY: 'Wyoming',
} as const;
export type StateCode = keyof typeof US_STATES;
export const STATE_CODES = Object.keys(US_STATES) as StateCode[];

/** Work a consumer's deletion leaves to do outside the database (docs/domain.md, Consumer deletion and retention). */
export const PRIVACY_TASK_KINDS = ['WEBHOOK', 'RECORDING'] as const;
export type PrivacyTaskKind = (typeof PRIVACY_TASK_KINDS)[number];
export const PRIVACY_TASK_STATUSES = ['PENDING', 'DONE', 'SKIPPED', 'FAILED'] as const;
export type PrivacyTaskStatus = (typeof PRIVACY_TASK_STATUSES)[number];
