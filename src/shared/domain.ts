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

export const SUBSCRIPTION_STATUSES = ['ACTIVE', 'PAST_DUE', 'CANCELED', 'INACTIVE'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/** Who set a subscription's status: the agent, an admin, or (later) the payment provider. */
export const SUBSCRIPTION_ACTORS = ['AGENT', 'ADMIN', 'BILLING'] as const;
export type SubscriptionActor = (typeof SUBSCRIPTION_ACTORS)[number];

export const USER_ROLES = ['ADMIN', 'AGENT'] as const;
export type UserRole = (typeof USER_ROLES)[number];

export const ASSIGNMENT_TRIGGERS = ['SCHEDULE', 'MANUAL', 'IMPORT'] as const;
export type AssignmentTrigger = (typeof ASSIGNMENT_TRIGGERS)[number];

/** How an assigned lead reaches its agent besides the portal itself (design 8). */
export const DELIVERY_CHANNELS = ['EMAIL', 'WEBHOOK'] as const;
export type DeliveryChannel = (typeof DELIVERY_CHANNELS)[number];

/**
 * PENDING: waiting for its first attempt or a retry; SENT: accepted by the receiver; FAILED:
 * given up (a final rejection, retries used up, or the endpoint switched off); SKIPPED: the
 * channel was off or not configured when its turn came.
 */
export const DELIVERY_STATUSES = ['PENDING', 'SENT', 'FAILED', 'SKIPPED'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export const MIN_PASSWORD_LENGTH = 6;
export const MIN_LEAD_AGE = 18;
export const MAX_LEAD_AGE = 120;

/** The 50 US state codes with their names (for CSV imports that spell the name out). */
export const US_STATES = {
  AL: 'Alabama',
  AK: 'Alaska',
  AZ: 'Arizona',
  AR: 'Arkansas',
  CA: 'California',
  CO: 'Colorado',
  CT: 'Connecticut',
  DE: 'Delaware',
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
