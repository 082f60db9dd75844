import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import {
  ACCOUNT_APPROVALS,
  AGENCY_ROLES,
  AGENCY_STATUSES,
  ASSIGNMENT_TRIGGERS,
  CALL_STATUSES,
  CONSENT_OUTCOMES,
  CONSENT_VERIFICATIONS,
  DELIVERY_CHANNELS,
  DELIVERY_STATUSES,
  LEAD_CATEGORIES,
  LEAD_STATUSES,
  MESSAGE_CHANNELS,
  MESSAGE_STATUSES,
  PACKAGE_PRICINGS,
  PRIVACY_TASK_KINDS,
  PRIVACY_TASK_STATUSES,
  REFUSAL_REASONS,
  RETURN_REASONS,
  RETURN_STATUSES,
  SUBSCRIPTION_ACTORS,
  SUBSCRIPTION_STATUSES,
  USER_ROLES,
  WALLET_ENTRY_KINDS,
} from '../../shared/domain';

export const userRole = pgEnum('user_role', USER_ROLES);
export const accountApproval = pgEnum('account_approval', ACCOUNT_APPROVALS);
export const leadCategory = pgEnum('lead_category', LEAD_CATEGORIES);
export const leadStatus = pgEnum('lead_status', LEAD_STATUSES);
export const subscriptionStatus = pgEnum('subscription_status', SUBSCRIPTION_STATUSES);
export const assignmentTrigger = pgEnum('assignment_trigger', ASSIGNMENT_TRIGGERS);
/** Who set a subscription's status: only the agent's own cancellation can be undone by the agent. */
export const subscriptionActor = pgEnum('subscription_actor', SUBSCRIPTION_ACTORS);
export const packagePricing = pgEnum('package_pricing', PACKAGE_PRICINGS);
export const walletEntryKind = pgEnum('wallet_entry_kind', WALLET_ENTRY_KINDS);
export const agencyStatus = pgEnum('agency_status', AGENCY_STATUSES);
export const agencyRole = pgEnum('agency_role', AGENCY_ROLES);
export const historyKind = pgEnum('lead_history_kind', [
  'IMPORTED',
  /** arrived through the intake API (POST /api/v1/leads) */
  'RECEIVED',
  'AUTO_ASSIGNED',
  'MANUAL_ASSIGNED',
  'STATUS_CHANGED',
  /** returns (docs/domain.md, Returns and credits): the agent asked, an admin approved or denied */
  'RETURN_REQUESTED',
  'RETURN_APPROVED',
  'RETURN_DENIED',
  /** the lead answered STOP to a follow-up message: never messaged again */
  'OPTED_OUT',
  /** an admin moved an assigned lead from one agent (from_agent_id) to another (agent_id) */
  'REASSIGNED',
  /** an agency took back a lead its member did not work in time (docs/domain.md, Agencies) */
  'RECLAIMED',
]);
export const importStatus = pgEnum('import_status', ['RUNNING', 'DONE', 'FAILED']);
export const deliveryChannel = pgEnum('delivery_channel', DELIVERY_CHANNELS);
export const deliveryStatus = pgEnum('delivery_status', DELIVERY_STATUSES);
export const returnReason = pgEnum('return_reason', RETURN_REASONS);
export const returnStatus = pgEnum('return_status', RETURN_STATUSES);
export const refusalReason = pgEnum('refusal_reason', REFUSAL_REASONS);
export const messageChannel = pgEnum('message_channel', MESSAGE_CHANNELS);
export const messageStatus = pgEnum('message_status', MESSAGE_STATUSES);
export const callStatus = pgEnum('call_status', CALL_STATUSES);
export const privacyTaskKind = pgEnum('privacy_task_kind', PRIVACY_TASK_KINDS);
export const privacyTaskStatus = pgEnum('privacy_task_status', PRIVACY_TASK_STATUSES);
export const consentVerification = pgEnum('consent_verification', CONSENT_VERIFICATIONS);
export const consentOutcome = pgEnum('consent_outcome', CONSENT_OUTCOMES);

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export const users = pgTable(
  'users',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    role: userRole('role').notNull().default('AGENT'),
    /** the agent's own phone, E.164: click-to-call rings it (docs/domain.md, Follow-up messages and calls) */
    phone: text('phone'),
    /** when the agent proved `phone` is theirs by a code sent to it; cleared when it changes */
    phoneVerifiedAt: timestamp('phone_verified_at', { withTimezone: true }),
    /** states the agent is licensed in (docs/domain.md, Licensed states); empty: not restricted */
    licensedStates: text('licensed_states').array().notNull().default(sql`'{}'::text[]`),
    /** set while the agent has paused deliveries (docs/domain.md, Pause) */
    pausedAt: timestamp('paused_at', { withTimezone: true }),
    /** when the pause ends by itself; null with pausedAt set: until the agent resumes */
    pausedUntil: timestamp('paused_until', { withTimezone: true }),
    /** an admin's approval (docs/domain.md, Accounts): only an APPROVED agent works and gets leads */
    approval: accountApproval('approval').notNull().default('APPROVED'),
    /** when an admin disabled the account (docs/domain.md, Offboarding); null: enabled */
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('users_email_key').on(sql`lower(${t.email})`),
    index('users_role_idx').on(t.role),
  ],
);

/**
 * Password reset links (docs/domain.md, Accounts): the token's SHA-256 only, 30 minutes, used
 * once; a newer link of the same user makes the older ones unusable.
 */
export const passwordResets = pgTable(
  'password_resets',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('password_resets_user_idx').on(t.userId)],
);

/**
 * Invite links an admin makes (docs/domain.md, Accounts): the token's SHA-256 only, 7 days, used
 * once; an invite may name the email it is for.
 */
export const invites = pgTable('invites', {
  tokenHash: text('token_hash').primaryKey(),
  /** the only email that may register with it; null: any */
  email: text('email'),
  createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
  createdAt: createdAt(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
  usedBy: integer('used_by').references(() => users.id, { onDelete: 'set null' }),
});

export const sessions = pgTable(
  'sessions',
  {
    /** sha256 of the cookie token; the token itself is never stored. */
    tokenHash: text('token_hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

/**
 * A user's TOTP (docs/domain.md, Accounts: two factors): the secret (base32) while pending
 * (enabledAt null) and once on; never answered again after setup. lastTimeStep: the newest
 * 30-second step a code was accepted for, so no code is accepted twice (replay).
 */
export const userTotp = pgTable('user_totp', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  secret: text('secret').notNull(),
  enabledAt: timestamp('enabled_at', { withTimezone: true }),
  lastTimeStep: bigint('last_time_step', { mode: 'number' }),
  createdAt: createdAt(),
});

/** Recovery codes of a user with two factors on: their SHA-256 only, each usable once. */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('recovery_codes_user_code_key').on(t.userId, t.codeHash)],
);

/**
 * A login whose password was right, waiting for its second factor: the httpOnly cookie's token
 * (its SHA-256 only), 5 minutes, used once.
 */
export const pendingLogins = pgTable(
  'pending_logins',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('pending_logins_user_idx').on(t.userId)],
);

/**
 * A user's passkeys (WebAuthn credentials; docs/domain.md, Accounts: two factors): the credential
 * id and COSE public key (base64url), the signature counter (a clone is refused when it does not
 * grow), the transports the browser named, the user handle the credential carries, the user's name
 * for it, and when it was last used.
 */
export const userPasskeys = pgTable(
  'user_passkeys',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    credentialId: text('credential_id').notNull(),
    publicKey: text('public_key').notNull(),
    counter: bigint('counter', { mode: 'number' }).notNull().default(0),
    transports: text('transports').array().notNull().default(sql`'{}'::text[]`),
    /** the WebAuthn user.id (base64url), one per user: every passkey of a user carries the same */
    userHandle: text('user_handle').notNull(),
    name: text('name').notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('user_passkeys_credential_key').on(t.credentialId),
    index('user_passkeys_user_idx').on(t.userId),
  ],
);

/**
 * WebAuthn challenges handed out and not yet answered: in the database so that any process can
 * check the answer; taken once (a conditional delete), 5 minutes. `purpose` says which ceremony
 * (register, confirm, second_factor, login) and `user_id` whose (none for a usernameless login).
 */
export const webauthnChallenges = pgTable(
  'webauthn_challenges',
  {
    challenge: text('challenge').primaryKey(),
    purpose: text('purpose').notNull(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    /** a registration's: the WebAuthn user.id the options named, for the passkey it makes */
    userHandle: text('user_handle'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('webauthn_challenges_expires_idx').on(t.expiresAt)],
);

/** The footer's legal pages (docs/domain.md, Legal pages): the text an admin wrote for each. */
export const legalPages = pgTable('legal_pages', {
  /** 'privacy' or 'terms' */
  page: text('page').primaryKey(),
  body: text('body').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  updatedBy: integer('updated_by').references(() => users.id, { onDelete: 'set null' }),
});

/** An agency (docs/domain.md, Agencies): an owner, its downline, the leads they share. */
export const agencies = pgTable('agencies', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  name: text('name').notNull(),
  status: agencyStatus('status').notNull().default('ACTIVE'),
  /** leads a business day across all members; null: no cap */
  dailyCap: integer('daily_cap'),
  /** minutes (inside the lead's calling window) a member has to work a lead; null: no reclaim */
  reclaimAfterMinutes: integer('reclaim_after_minutes'),
  /** Stripe Billing: the agency's one customer, billed for the members' packages */
  stripeCustomerId: text('stripe_customer_id').unique(),
  /** the agency's Stripe subscription, one item per package, quantity the members on it */
  stripeSubscriptionId: text('stripe_subscription_id').unique(),
  /** what Stripe's events say of the agency's payment (ACTIVE, PAST_DUE, CANCELED); null: no word */
  billingStatus: subscriptionStatus('billing_status'),
  /** the `created` of the newest Stripe event applied: an older one never undoes it */
  billingEventAt: timestamp('billing_event_at', { withTimezone: true }),
  /** bumped with every change of the members the agency pays; Stripe's items follow it */
  seatsVersion: integer('seats_version').notNull().default(0),
  /** the seats version Stripe's items were last brought in step with */
  seatsSyncedVersion: integer('seats_synced_version').notNull().default(0),
  /** the owner requires two factors of every member (docs/domain.md, Accounts: two factors) */
  requireTwoFactor: boolean('require_two_factor').notNull().default(false),
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A user's membership: at most one agency per user. */
export const agencyMembers = pgTable(
  'agency_members',
  {
    userId: integer('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    agencyId: integer('agency_id')
      .notNull()
      .references(() => agencies.id, { onDelete: 'cascade' }),
    role: agencyRole('role').notNull().default('AGENT'),
    /** the member's manager (a MANAGER or the OWNER of the same agency); null: the owner's own */
    managerId: integer('manager_id').references(() => users.id, { onDelete: 'set null' }),
    joinedAt: timestamp('joined_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('agency_members_agency_idx').on(t.agencyId, t.role),
    index('agency_members_manager_idx').on(t.managerId),
  ],
);

/** Invite links to an agency: the code's SHA-256 only, an expiry and a number of uses. */
export const agencyInvites = pgTable(
  'agency_invites',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    agencyId: integer('agency_id')
      .notNull()
      .references(() => agencies.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull().unique(),
    role: agencyRole('role').notNull().default('AGENT'),
    managerId: integer('manager_id').references(() => users.id, { onDelete: 'set null' }),
    maxUses: integer('max_uses'),
    uses: integer('uses').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [index('agency_invites_agency_idx').on(t.agencyId)],
);

export const packages = pgTable('packages', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  slug: text('slug').notNull().unique(),
  name: text('name').notNull(),
  category: leadCategory('category').notNull(),
  priceMonthlyCents: integer('price_monthly_cents').notNull(),
  leadsPerDay: integer('leads_per_day').notNull(),
  commissionPct: integer('commission_pct').notNull(),
  active: boolean('active').notNull().default(true),
  enrollmentOnly: boolean('enrollment_only').notNull().default(false),
  serviceCrm: boolean('service_crm').notNull().default(true),
  serviceCallRecording: boolean('service_call_recording').notNull().default(true),
  serviceFollowUpMessage: boolean('service_follow_up_message').notNull().default(false),
  /** SUBSCRIPTION: the monthly price; PER_LEAD: each lead paid from the agent's wallet at assignment */
  pricing: packagePricing('pricing').notNull().default('SUBSCRIPTION'),
  /** a PER_LEAD package's price of a lead no rule of its price list matches */
  perLeadCents: integer('per_lead_cents'),
  /** Stripe Billing (docs/domain.md, Billing): the package's product, and its current monthly price and cents */
  stripeProductId: text('stripe_product_id'),
  stripePriceId: text('stripe_price_id'),
  stripePriceCents: integer('stripe_price_cents'),
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** One current subscription per agent; switching packages updates it in place. */
export const subscriptions = pgTable(
  'subscriptions',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .unique()
      .references(() => users.id, { onDelete: 'cascade' }),
    packageId: integer('package_id')
      .notNull()
      .references(() => packages.id),
    status: subscriptionStatus('status').notNull().default('ACTIVE'),
    /** the agency paying for this member's package (docs/domain.md, Agencies); null: the agent pays */
    paidByAgencyId: integer('paid_by_agency_id').references(() => agencies.id, {
      onDelete: 'set null',
    }),
    statusSetBy: subscriptionActor('status_set_by').notNull().default('AGENT'),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** Stripe Billing (docs/domain.md, Billing): the Stripe subscription and the price it bills */
    stripeSubscriptionId: text('stripe_subscription_id').unique(),
    stripePriceId: text('stripe_price_id'),
    currentPeriodEnd: timestamp('current_period_end', { withTimezone: true }),
    /** the `created` of the newest Stripe event applied: an older one never undoes it */
    billingEventAt: timestamp('billing_event_at', { withTimezone: true }),
    lastInvoiceId: text('last_invoice_id'),
    /** 'paid' or 'failed' */
    lastInvoiceStatus: text('last_invoice_status'),
    lastInvoiceAmountCents: integer('last_invoice_amount_cents'),
    lastInvoiceAt: timestamp('last_invoice_at', { withTimezone: true }),
    lastInvoiceUrl: text('last_invoice_url'),
  },
  (t) => [index('subscriptions_package_idx').on(t.packageId)],
);

/** An agent's Stripe customer, and the Checkout they started and have not finished yet. */
export const billingCustomers = pgTable('billing_customers', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  stripeCustomerId: text('stripe_customer_id').notNull().unique(),
  checkoutSessionId: text('checkout_session_id'),
  checkoutPackageId: integer('checkout_package_id').references(() => packages.id),
  checkoutStartedAt: timestamp('checkout_started_at', { withTimezone: true }),
  createdAt: createdAt(),
});

/** Stripe events already applied, by id: a replayed event changes nothing. */
export const billingEvents = pgTable('billing_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  /** the event's own `created` */
  eventCreatedAt: timestamp('event_created_at', { withTimezone: true }).notNull(),
  processedAt: timestamp('processed_at', { withTimezone: true }).notNull().defaultNow(),
});

export const preferences = pgTable('preferences', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  states: text('states').array().notNull().default(sql`'{}'::text[]`),
  /** Stored as typed; matching lowercases and collapses spaces. */
  cities: text('cities').array().notNull().default(sql`'{}'::text[]`),
  ageMin: integer('age_min'),
  ageMax: integer('age_max'),
  categories: leadCategory('categories').array().notNull().default(sql`'{}'::lead_category[]`),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * An agent's schedule (docs/domain.md, Schedule and caps): the hours of each weekday, in the
 * agent's own time zone, when they take leads. No row: any time. Owned by modules/schedule.
 */
export const agentSchedules = pgTable('agent_schedules', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** an IANA time zone */
  timeZone: text('time_zone').notNull(),
  /** { mon: { start: 'HH:MM', end: 'HH:MM' } | null, ... sun }; a null day: no leads that day */
  days: jsonb('days').$type<Record<string, { start: string; end: string } | null>>().notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * An agent's own caps (docs/domain.md, Schedule and caps): each null means none. Owned by
 * modules/schedule.
 */
export const agentCaps = pgTable('agent_caps', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  daily: integer('daily'),
  weekly: integer('weekly'),
  monthly: integer('monthly'),
  /** bounds a month's pay-per-lead charges (not in force until pay per lead exists) */
  monthlyBudgetCents: integer('monthly_budget_cents'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * A PER_LEAD package's price list (docs/domain.md, Pay per lead): rules in `position` order, the
 * first whose every set field matches the lead gives its price; none matches: the package's
 * perLeadCents.
 */
export const packagePrices = pgTable(
  'package_prices',
  {
    packageId: integer('package_id')
      .notNull()
      .references(() => packages.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    state: text('state'),
    ageMin: integer('age_min'),
    ageMax: integer('age_max'),
    sourceId: integer('source_id').references(() => sources.id, { onDelete: 'cascade' }),
    priceCents: integer('price_cents').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.packageId, t.position] }),
    check('package_prices_positive', sql`${t.priceCents} > 0`),
  ],
);

/**
 * An agent's wallet (docs/domain.md, The wallet): the balance its ledger sums to, kept here so a
 * charge can lock one row and the database refuses a negative balance; and auto-recharge.
 */
export const wallets = pgTable(
  'wallets',
  {
    userId: integer('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    balanceCents: integer('balance_cents').notNull().default(0),
    autoRechargeEnabled: boolean('auto_recharge_enabled').notNull().default(false),
    autoRechargeBelowCents: integer('auto_recharge_below_cents'),
    autoRechargeAmountCents: integer('auto_recharge_amount_cents'),
    /** the month (its first business day) `spentCents` counts: the monthly budget's spend */
    spentMonth: date('spent_month'),
    /** the leads' prices charged in `spentMonth`, less those given back */
    spentCents: integer('spent_cents').notNull().default(0),
    /** the card saved by a Stripe top-up (its PaymentMethod id): what auto-recharge charges */
    cardPaymentMethod: text('card_payment_method'),
    /** an off-session charge asked of Stripe and not yet answered: no second one meanwhile */
    rechargePendingSince: timestamp('recharge_pending_since', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('wallets_never_negative', sql`${t.balanceCents} >= 0`)],
);

/**
 * The wallet's append-only ledger: each entry a signed amount (+ in, - out); a trigger refuses
 * any update or delete. `reference` (a Stripe payment, a lead's charge) is unique, so an event
 * applied twice writes one entry.
 */
export const walletEntries = pgTable(
  'wallet_entries',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: walletEntryKind('kind').notNull(),
    amountCents: integer('amount_cents').notNull(),
    balanceAfterCents: integer('balance_after_cents').notNull(),
    /** the lead charged or credited (no foreign key: a ledger row is never changed, not even to null) */
    leadId: bigint('lead_id', { mode: 'number' }),
    /** a LEAD entry's business month (its first day): a credit of it lowers that month's spend */
    chargedMonth: date('charged_month'),
    reference: text('reference').unique(),
    note: text('note'),
    /** who wrote it by hand (an admin's credit); null: the system */
    actorId: integer('actor_id'),
    createdAt: createdAt(),
  },
  (t) => [
    index('wallet_entries_user_idx').on(t.userId, t.id),
    index('wallet_entries_lead_idx').on(t.leadId),
    check('wallet_entries_not_zero', sql`${t.amountCents} <> 0`),
  ],
);

export const imports = pgTable('imports', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
  filename: text('filename').notNull(),
  /** The source the admin named for the file (sources.id), if any; its leads carry it too. */
  sourceId: integer('source_id').references(() => sources.id),
  status: importStatus('status').notNull().default('RUNNING'),
  rowsSeen: integer('rows_seen').notNull().default(0),
  imported: integer('imported').notNull().default(0),
  duplicates: integer('duplicates').notNull().default(0),
  errorCount: integer('error_count').notNull().default(0),
  /** The first row errors (capped), for the admin to read. */
  errors: jsonb('errors').$type<{ line: number; reason: string }[]>().notNull().default([]),
  /** rows refused because their phone is on the do-not-call list (docs/domain.md, Do-not-call list and consent) */
  dnc: integer('dnc').notNull().default(0),
  /** rows refused because the consumer asked to be deleted (docs/domain.md, Consumer deletion and retention) */
  suppressed: integer('suppressed').notNull().default(0),
  /** rows refused because their consent failed its check (docs/domain.md, Consent verified at intake) */
  consent: integer('consent').notNull().default(0),
  /** the first duplicate rows (capped), by line, with what they duplicate */
  duplicateLines: jsonb('duplicate_lines')
    .$type<{ line: number; reason: string }[]>()
    .notNull()
    .default([]),
  message: text('message'),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
  finishedAt: timestamp('finished_at', { withTimezone: true }),
});

export const assignmentRuns = pgTable(
  'assignment_runs',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    trigger: assignmentTrigger('trigger').notNull(),
    businessDate: date('business_date', { mode: 'string' }).notNull(),
    /** 'daily:YYYY-MM-DD' for scheduled runs: unique, so every business date runs once. */
    scheduleKey: text('schedule_key').unique(),
    eligibleAgents: integer('eligible_agents').notNull().default(0),
    candidateLeads: integer('candidate_leads').notNull().default(0),
    assigned: integer('assigned').notNull().default(0),
    durationMs: integer('duration_ms').notNull().default(0),
    error: text('error'),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [index('assignment_runs_started_idx').on(t.startedAt)],
);

export const leads = pgTable(
  'leads',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    externalId: text('external_id'),
    firstName: text('first_name'),
    lastName: text('last_name'),
    phone: text('phone'),
    email: text('email'),
    city: text('city').notNull(),
    state: text('state').notNull(),
    age: integer('age').notNull(),
    category: leadCategory('category').notNull(),
    status: leadStatus('status').notNull().default('NEW'),
    /**
     * The agent (users.id). Not a foreign-key constraint: its per-row trigger cost a third of an
     * import's time even for the NULLs an import writes. The statement-level triggers of the
     * `scale` migration check it per statement instead, and set it to null when a user is
     * deleted (docs/decisions/007-scale.md).
     */
    agentId: integer('agent_id'),
    assignedAt: timestamp('assigned_at', { withTimezone: true }),
    /** The business date (BUSINESS_TZ) of the assignment: what quotas count. */
    assignedOn: date('assigned_on', { mode: 'string' }),
    /** The run that assigned the lead (assignment_runs.id; runs are never deleted). */
    assignmentRunId: integer('assignment_run_id'),
    /** The import that brought the lead (imports.id; import records are never deleted). */
    importId: integer('import_id'),
    /** Its line in that import's file (the report names a late duplicate by it). */
    importLine: integer('import_line'),
    /** Where the lead came from (sources.id; sources are deactivated, never deleted). */
    sourceId: integer('source_id'),
    /** The consumer's consent to be contacted, as the source recorded it (docs/domain.md). */
    consentAt: timestamp('consent_at', { withTimezone: true }),
    consentText: text('consent_text'),
    trustedFormCertUrl: text('trusted_form_cert_url'),
    jornayaLeadId: text('jornaya_lead_id'),
    consentIp: text('consent_ip'),
    /** the consent check's outcome (docs/domain.md, Consent verified at intake); null: not checked */
    consentOutcome: consentOutcome('consent_outcome'),
    consentVerifiedAt: timestamp('consent_verified_at', { withTimezone: true }),
    /** until when TrustedForm keeps the certificate retained for this lead */
    consentExpiresAt: timestamp('consent_expires_at', { withTimezone: true }),
    /** 5-digit ZIP, when the source gave one: the calling window's time zone (docs/domain.md, Calling window) */
    zip: text('zip'),
    /** IANA zone of the lead (from the ZIP, else the state's main zone), set when stored */
    timeZone: text('time_zone'),
    /** when an admin approved the agent's return; the lead is INVALID and credited */
    returnedAt: timestamp('returned_at', { withTimezone: true }),
    /** when the lead answered STOP: no follow-up message is sent to it again */
    optedOutAt: timestamp('opted_out_at', { withTimezone: true }),
    /** the agency the lead was assigned through (its agent was a member then): the agency's book */
    agencyId: integer('agency_id'),
    /** how many times an agency took the lead back from a member who did not work it (at most 2) */
    reclaims: integer('reclaims').notNull().default(0),
    /** the agent's first contact (status change, connected call or follow-up): speed to lead */
    firstContactAt: timestamp('first_contact_at', { withTimezone: true }),
    /**
     * when the consumer's data was removed (a deletion request or LEAD_RETENTION_DAYS): name,
     * contact, address and consent are gone, status and counts stay (docs/domain.md, Consumer
     * deletion and retention)
     */
    anonymizedAt: timestamp('anonymized_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    // externalId is unique per source; leads without a source (CSV files naming none) share one
    uniqueIndex('leads_source_external_id_key').on(sql`coalesce(${t.sourceId}, 0)`, t.externalId),
    // An imported lead has no agent and no assignment date, so imports skip these three.
    // My Leads reads its two orders as they are (docs/domain.md, Lists, search and export):
    // received (assigned_at desc, id desc: nulls first; read backwards for the oldest first)...
    index('leads_agent_received_idx')
      .on(t.agentId, t.assignedAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`${t.agentId} is not null`),
    // ...and the default, the uncontacted (ASSIGNED) first, each part newest first
    index('leads_agent_uncontacted_idx')
      .on(
        t.agentId,
        sql`(${t.status} <> 'ASSIGNED')`,
        t.assignedAt.desc().nullsFirst(),
        t.id.desc().nullsFirst(),
      )
      .where(sql`${t.agentId} is not null`),
    index('leads_assigned_day_idx')
      .on(t.assignedOn, t.agentId)
      .where(sql`${t.assignedOn} is not null`),
    // The admin list by status, newest (highest id) first; also the engine's pool of NEW leads.
    // The unfiltered list reads the primary key backwards.
    index('leads_status_idx').on(t.status, t.id),
    // duplicates within DUPLICATE_WINDOW_DAYS by phone or email (docs/domain.md, Lead quality)
    index('leads_phone_idx').on(t.phone, t.createdAt).where(sql`${t.phone} is not null`),
    index('leads_email_idx').on(t.email, t.createdAt).where(sql`${t.email} is not null`),
    // the preferences preview (docs/domain.md, Analytics that explain): a category's recent leads by state, age and city,
    // read from the index alone
    index('leads_preview_idx').on(t.category, t.createdAt, t.state, t.age, t.city),
    // an agency's book of business, newest first, and its leads of the day (the daily cap)
    index('leads_agency_idx').on(t.agencyId, t.id.desc()).where(sql`${t.agencyId} is not null`),
    index('leads_agency_day_idx')
      .on(t.agencyId, t.assignedOn)
      .where(sql`${t.agencyId} is not null and ${t.assignedOn} is not null`),
    // sources analytics by period
    index('leads_source_idx').on(t.sourceId, t.createdAt).where(sql`${t.sourceId} is not null`),
  ],
);

export const leadHistory = pgTable(
  'lead_history',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    // No per-row foreign keys: the `engine` migration's statement-level triggers check the lead,
    // users and run, and do what ON DELETE CASCADE / SET NULL did (decision 005).
    leadId: bigint('lead_id', { mode: 'number' }).notNull(),
    kind: historyKind('kind').notNull(),
    /** Who acted; null for the engine. */
    actorId: integer('actor_id'),
    fromStatus: leadStatus('from_status'),
    toStatus: leadStatus('to_status').notNull(),
    agentId: integer('agent_id'),
    /** REASSIGNED: the agent who held the lead before (agent_id holds it now) */
    fromAgentId: integer('from_agent_id'),
    assignmentRunId: integer('assignment_run_id'),
    createdAt: createdAt(),
  },
  // by day: analytics sums assignment_counts, nothing reads history by date
  (t) => [index('lead_history_lead_idx').on(t.leadId)],
);

/*
 * Figures kept by the statement-level triggers of the `scale` migration (one aggregate insert per
 * statement, from its transition table). Each statement appends signed delta rows instead of
 * updating a shared row, so a long import never holds a lock that a manual assignment or a
 * status change would wait for; readers sum the rows and compact them now and then.
 */

/** Leads by (category, status, has an agent): totals, unassigned, converted, categories. */
export const leadCounts = pgTable('lead_counts', {
  category: leadCategory('category').notNull(),
  status: leadStatus('status').notNull(),
  hasAgent: boolean('has_agent').notNull(),
  n: bigint('n', { mode: 'number' }).notNull(),
});

/** Leads by (agent, status): the agents table and conversions by agent. */
export const agentLeadCounts = pgTable(
  'agent_lead_counts',
  {
    agentId: integer('agent_id').notNull(),
    status: leadStatus('status').notNull(),
    n: bigint('n', { mode: 'number' }).notNull(),
  },
  (t) => [index('agent_lead_counts_agent_idx').on(t.agentId, t.status)],
);

/**
 * Assignment history rows (AUTO_ASSIGNED, MANUAL_ASSIGNED) by 15-minute slot of their time:
 * every real time-zone offset is a multiple of 15 minutes, so any BUSINESS_TZ can sum the slots
 * into its business days.
 */
export const assignmentCounts = pgTable(
  'assignment_counts',
  {
    slot: timestamp('slot', { withTimezone: true }).notNull(),
    n: bigint('n', { mode: 'number' }).notNull(),
  },
  // (slot, n): the chart's per-day sums are index-only scans (migration 0005)
  (t) => [index('assignment_counts_slot_n_idx').on(t.slot, t.n)],
);

/**
 * The admin search's document per lead: first name, last name, phone and email, lowercased,
 * separated by U+001F (which a search cannot span), under a pg_trgm GIN index (created in the
 * `scale` migration: it needs the extension). Kept apart from `leads` so that an import does not
 * pay for the trigrams: large inserts queue their id range in lead_search_queue and a background
 * indexer catches up; until then the search also scans the queued ranges, so it stays complete.
 */
export const leadSearch = pgTable('lead_search', {
  leadId: bigint('lead_id', { mode: 'number' }).primaryKey(),
  doc: text('doc').notNull(),
});

/** Id ranges of leads not yet in lead_search (written by the leads insert trigger). */
export const leadSearchQueue = pgTable('lead_search_queue', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  firstId: bigint('first_id', { mode: 'number' }).notNull(),
  lastId: bigint('last_id', { mode: 'number' }).notNull(),
});

/** Where leads come from: a vendor, a landing page (docs/domain.md, Sources and the intake API). Deactivated, never deleted. */
export const sources = pgTable(
  'sources',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    name: text('name').notNull(),
    costPerLeadCents: integer('cost_per_lead_cents').notNull().default(0),
    active: boolean('active').notNull().default(true),
    /** TRUSTEDFORM: each lead's certificate is retained and matched before it is stored */
    consentVerification: consentVerification('consent_verification').notNull().default('NONE'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('sources_name_key').on(sql`lower(${t.name})`)],
);

/** A source's keys for the intake API: shown once, stored as a sha256 hash, listed by prefix. */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    sourceId: integer('source_id')
      .notNull()
      .references(() => sources.id),
    /** sha256 (hex) of the whole key */
    keyHash: text('key_hash').notNull().unique(),
    /** the key's first characters, to tell keys apart in lists */
    prefix: text('prefix').notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    /**
     * the key's rate (SECURITY.md, Intake API keys) as a theoretical arrival time: each request
     * moves it on by 1/rate from now or from itself, whichever is later, and is refused when that
     * would put it more than a second ahead. Kept here so that every process counts together.
     */
    rateTat: timestamp('rate_tat', { withTimezone: true }),
  },
  (t) => [index('api_keys_source_idx').on(t.sourceId)],
);

/** An agent's delivery choices (docs/domain.md, Delivery of assigned leads): email on or off, the CRM webhook. */
export const deliverySettings = pgTable('delivery_settings', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  emailEnabled: boolean('email_enabled').notNull().default(true),
  webhookUrl: text('webhook_url'),
  /** sent as the Authorization header of each webhook call, if set */
  webhookAuthHeader: text('webhook_auth_header'),
  webhookEnabled: boolean('webhook_enabled').notNull().default(false),
  /** Standard Webhooks signing secret, 'whsec_' + base64 */
  webhookSecret: text('webhook_secret').notNull(),
  /** failed attempts in a row; 20 switch the endpoint off */
  webhookFailuresInRow: integer('webhook_failures_in_row').notNull().default(0),
  /** set when the endpoint was switched off after failures in a row; cleared when re-enabled */
  webhookDisabledAt: timestamp('webhook_disabled_at', { withTimezone: true }),
  /** the secret before the last rotation: calls are signed with it too for 24 hours after */
  webhookPreviousSecret: text('webhook_previous_secret'),
  webhookSecretRotatedAt: timestamp('webhook_secret_rotated_at', { withTimezone: true }),
  /** a test event is on its way (one at a time per agent); a stale one lapses after the time limit */
  webhookTestStartedAt: timestamp('webhook_test_started_at', { withTimezone: true }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * One row per delivery of a lead on a channel, updated with each attempt; deliveryAttempts
 * keeps every attempt (docs/domain.md, Delivery of assigned leads).
 */
export const deliveries = pgTable(
  'deliveries',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    leadId: bigint('lead_id', { mode: 'number' }).notNull(),
    agentId: integer('agent_id').notNull(),
    channel: deliveryChannel('channel').notNull(),
    status: deliveryStatus('status').notNull().default('PENDING'),
    /** attempts made so far */
    attempts: integer('attempts').notNull().default(0),
    responseCode: integer('response_code'),
    latencyMs: integer('latency_ms'),
    error: text('error'),
    /** the webhook-id (webhooks) or Message-ID (email): the same on every retry */
    messageId: text('message_id'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    /**
     * while a worker has it claimed: until when its claim holds unless renewed (decision 040);
     * null when no worker has it
     */
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
  },
  (t) => [
    // one delivery of a lead per channel and agent: a fan-out done twice records nothing twice
    // (ON CONFLICT DO NOTHING); also the lead's timeline lookup
    uniqueIndex('deliveries_lead_channel_key').on(t.leadId, t.channel, t.agentId),
    index('deliveries_status_idx').on(t.status, t.id),
    index('deliveries_agent_idx').on(t.agentId, t.id),
    // the claims in flight, for the sweep of those whose worker stopped renewing them
    index('deliveries_lease_idx').on(t.leaseUntil).where(sql`lease_until is not null`),
  ],
);

/** Every attempt of every delivery: when, the answer, how long it took. */
export const deliveryAttempts = pgTable(
  'delivery_attempts',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    deliveryId: bigint('delivery_id', { mode: 'number' })
      .notNull()
      .references(() => deliveries.id, { onDelete: 'cascade' }),
    attempt: integer('attempt').notNull(),
    status: deliveryStatus('status').notNull(),
    responseCode: integer('response_code'),
    latencyMs: integer('latency_ms'),
    error: text('error'),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('delivery_attempts_delivery_idx').on(t.deliveryId, t.attempt)],
);

/** The bell: what an agent or admin is told (a new lead, an endpoint switched off...). */
export const notifications = pgTable(
  'notifications',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    leadId: bigint('lead_id', { mode: 'number' }),
    title: text('title').notNull(),
    body: text('body'),
    readAt: timestamp('read_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('notifications_user_idx').on(t.userId, t.id.desc()),
    index('notifications_unread_idx').on(t.userId).where(sql`${t.readAt} is null`),
  ],
);

/** The do-not-call list (docs/domain.md, Do-not-call list and consent): numbers in E.164; leads on it are refused, sends re-check it. */
export const dncNumbers = pgTable('dnc_numbers', {
  phone: text('phone').primaryKey(),
  addedBy: integer('added_by').references(() => users.id, { onDelete: 'set null' }),
  createdAt: createdAt(),
});

/** Leads refused at import or intake, counted by source and reason (docs/domain.md, Analytics that explain). */
export const leadRefusals = pgTable(
  'lead_refusals',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    sourceId: integer('source_id'),
    importId: integer('import_id'),
    reason: refusalReason('reason').notNull(),
    n: integer('n').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('lead_refusals_source_idx').on(t.sourceId, t.createdAt)],
);

/**
 * Refusals per 15-minute slot (the slots of assignment_counts), source and reason, kept by the
 * trigger on `lead_refusals`: the sources' analytics sum these, so their cost grows with sources
 * and days, never with the refused requests. One row per key, added to in place (a refusal is
 * one short statement at the end of its transaction).
 */
export const refusalCounts = pgTable(
  'refusal_counts',
  {
    slot: timestamp('slot', { withTimezone: true }).notNull(),
    sourceId: integer('source_id'),
    reason: refusalReason('reason').notNull(),
    n: bigint('n', { mode: 'number' }).notNull(),
  },
  (t) => [
    uniqueIndex('refusal_counts_key').on(t.slot, sql`(coalesce(${t.sourceId}, 0))`, t.reason),
  ],
);

/** An agent's request to return a lead and the admin's decision (docs/domain.md, Returns and credits). */
export const leadReturns = pgTable(
  'lead_returns',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    leadId: bigint('lead_id', { mode: 'number' }).notNull(),
    agentId: integer('agent_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    reason: returnReason('reason').notNull(),
    note: text('note'),
    status: returnStatus('status').notNull().default('PENDING'),
    decidedBy: integer('decided_by').references(() => users.id, { onDelete: 'set null' }),
    decisionNote: text('decision_note'),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    // one open or approved return per lead; a denied one may be asked again
    uniqueIndex('lead_returns_lead_key')
      .on(t.leadId)
      .where(sql`${t.status} in ('PENDING', 'APPROVED')`),
    index('lead_returns_status_idx').on(t.status, t.id),
    // the lists' "Return pending" badge: the few returns waiting for a decision, by lead
    index('lead_returns_pending_idx').on(t.leadId).where(sql`${t.status} = 'PENDING'`),
    index('lead_returns_agent_idx').on(t.agentId, t.createdAt),
  ],
);

/** An agent's follow-up templates (docs/domain.md, Follow-up messages and calls); placeholders {firstName} {agentName} {agentPhone}. */
export const followUpSettings = pgTable('follow_up_settings', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  enabled: boolean('enabled').notNull().default(false),
  smsBody: text('sms_body').notNull().default(''),
  emailSubject: text('email_subject').notNull().default(''),
  emailBody: text('email_body').notNull().default(''),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Follow-up messages to leads, and what leads sent back (a STOP), with the provider's status. */
export const followUpMessages = pgTable(
  'follow_up_messages',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    leadId: bigint('lead_id', { mode: 'number' }).notNull(),
    agentId: integer('agent_id'),
    channel: messageChannel('channel').notNull(),
    /** false: from the lead to us (an inbound SMS) */
    outbound: boolean('outbound').notNull().default(true),
    status: messageStatus('status').notNull(),
    toAddress: text('to_address').notNull(),
    subject: text('subject'),
    body: text('body').notNull(),
    /** the provider's message SID, or the email's Message-ID */
    providerId: text('provider_id'),
    error: text('error'),
    /** not before this time: the opening of the lead's calling window */
    sendAfter: timestamp('send_after', { withTimezone: true }),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // the first message of each channel goes once per lead and agent
    uniqueIndex('follow_up_messages_first_key')
      .on(t.leadId, t.channel, t.agentId)
      .where(sql`${t.outbound}`),
    uniqueIndex('follow_up_messages_provider_key').on(t.providerId),
    index('follow_up_messages_status_idx').on(t.status, t.sendAfter),
    index('follow_up_messages_created_idx').on(t.createdAt),
  ],
);

/** Click-to-call calls (docs/domain.md, Follow-up messages and calls): the provider's call, its outcome and recording. */
export const calls = pgTable(
  'calls',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    leadId: bigint('lead_id', { mode: 'number' }).notNull(),
    agentId: integer('agent_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** the provider's Call SID */
    providerSid: text('provider_sid').unique(),
    status: callStatus('status').notNull().default('QUEUED'),
    /** when the provider fetched the bridge (the connect callback): served once per call */
    bridgedAt: timestamp('bridged_at', { withTimezone: true }),
    /** when the lead's leg was answered (a connected call) */
    connectedAt: timestamp('connected_at', { withTimezone: true }),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    durationSeconds: integer('duration_seconds'),
    error: text('error'),
    recordingSid: text('recording_sid'),
    /** the provider's URL of the recording: fetched with the account's credentials, never shown */
    recordingUrl: text('recording_url'),
    recordingSeconds: integer('recording_seconds'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('calls_lead_idx').on(t.leadId, t.id),
    index('calls_agent_idx').on(t.agentId, t.id),
    // the limits on calls: an agent's calls of the last hour, in flight
    index('calls_agent_created_idx').on(t.agentId, t.createdAt),
    uniqueIndex('calls_recording_key').on(t.recordingSid),
  ],
);

/**
 * Codes sent to an agent's phone to verify it (docs/domain.md, Follow-up messages and calls): one
 * row a send, the code's SHA-256 only, good for 10 minutes and 5 tries.
 */
export const phoneCodes = pgTable(
  'phone_codes',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    phone: text('phone').notNull(),
    codeHash: text('code_hash').notNull(),
    tries: integer('tries').notNull().default(0),
    usedAt: timestamp('used_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('phone_codes_user_idx').on(t.userId, t.id)],
);

/**
 * Fixed-window request counters shared by every process (lib/rate-counter.ts): a key (what is
 * limited, and for whom) and its window's start.
 */
export const rateCounters = pgTable(
  'rate_counters',
  {
    key: text('key').notNull(),
    windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
    hits: integer('hits').notNull(),
  },
  (t) => [primaryKey({ columns: [t.key, t.windowStart] })],
);

/**
 * The server's VAPID key pair (docs/domain.md, Alerts to the agent's phone) when the environment
 * gives none: one row, made at first start (every process inserts the same id, the first wins).
 */
export const pushKeys = pgTable(
  'push_keys',
  {
    id: integer('id').primaryKey().default(1),
    publicKey: text('public_key').notNull(),
    privateKey: text('private_key').notNull(),
    createdAt: createdAt(),
  },
  (t) => [check('push_keys_one_row', sql`${t.id} = 1`)],
);

/** The agents' devices that asked for push: one row per endpoint (a device is one user's). */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    endpoint: text('endpoint').notNull(),
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('push_subscriptions_endpoint_key').on(t.endpoint),
    index('push_subscriptions_user_idx').on(t.userId),
  ],
);

/**
 * Each push of an assigned lead to one device: its outcome, for the lead's timeline. The
 * endpoint's origin only (the endpoint itself is a bearer capability); the subscription may be
 * gone since (removed on 404/410 or by the agent), so no foreign key.
 */
export const pushAttempts = pgTable(
  'push_attempts',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    leadId: bigint('lead_id', { mode: 'number' }).notNull(),
    agentId: integer('agent_id').notNull(),
    subscriptionId: bigint('subscription_id', { mode: 'number' }).notNull(),
    origin: text('origin').notNull(),
    attempt: integer('attempt').notNull(),
    /** SENT; RETRY (failed, tried again later); FAILED (for good); GONE (subscription removed); SKIPPED */
    status: text('status').notNull(),
    responseCode: integer('response_code'),
    error: text('error'),
    createdAt: createdAt(),
  },
  (t) => [index('push_attempts_lead_idx').on(t.leadId, t.id)],
);

/**
 * An agent's alerts to their phone (docs/domain.md, Alerts to the agent's phone): push to their
 * devices (on unless turned off), SMS to their verified phone (off until turned on), and quiet
 * hours (HH:MM to HH:MM in the agent's time zone, may cross midnight; both null: none). No row:
 * the defaults. Owned by modules/alerts.
 */
export const alertSettings = pgTable(
  'alert_settings',
  {
    userId: integer('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    push: boolean('push').notNull().default(true),
    sms: boolean('sms').notNull().default(false),
    quietStart: text('quiet_start'),
    quietEnd: text('quiet_end'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('alert_settings_quiet_hours', sql`(${t.quietStart} is null) = (${t.quietEnd} is null)`),
  ],
);

/**
 * Each SMS alert of an assigned lead to its agent's phone: its outcome, for the lead's timeline.
 * SENT (with Twilio's message SID); RETRY (failed, tried again later); FAILED (for good);
 * SKIPPED (a gate held it back: quiet hours, SMS off, phone not verified, lead moved on).
 */
export const smsAlerts = pgTable(
  'sms_alerts',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    leadId: bigint('lead_id', { mode: 'number' }).notNull(),
    agentId: integer('agent_id').notNull(),
    /** the agent's phone it went (or would have gone) to; null when they had none */
    phone: text('phone'),
    attempt: integer('attempt').notNull(),
    status: text('status').notNull(),
    providerSid: text('provider_sid'),
    error: text('error'),
    createdAt: createdAt(),
  },
  (t) => [index('sms_alerts_lead_idx').on(t.leadId, t.id)],
);

/**
 * When an agent first opened a lead given to them (docs/domain.md, Alerts to the agent's phone:
 * opened): one row per assignment (the lead's `assigned_at` then), the first view kept. Speed to
 * open reads it. Owned by modules/leads.
 */
export const leadViews = pgTable(
  'lead_views',
  {
    leadId: bigint('lead_id', { mode: 'number' })
      .notNull()
      .references(() => leads.id, { onDelete: 'cascade' }),
    agentId: integer('agent_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    assignedAt: timestamp('assigned_at', { withTimezone: true }).notNull(),
    viewedAt: timestamp('viewed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.leadId, t.agentId, t.assignedAt] })],
);

/**
 * The audit log (docs/domain.md, Audit log): every write by an admin or an agency's owner or
 * manager, and the security events (logins, failed logins, logouts, passwords, webhook URLs).
 * Append-only: a trigger refuses any UPDATE or DELETE, and no route changes a row. No foreign
 * keys: a row outlives the account or agency it names. Owned by modules/audit.
 */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    /** who did it; null: nobody signed in (a failed login) */
    actorId: integer('actor_id'),
    /** ADMIN, OWNER, MANAGER or AGENT (an agency role when the actor was a member); null: anonymous */
    actorRole: text('actor_role'),
    /** the client address as the throttles count it (IPv6 by its /64) */
    ip: text('ip'),
    /** "METHOD /route/:pattern" for a write, or a named event ("auth.login", ...) */
    action: text('action').notNull(),
    targetType: text('target_type'),
    targetId: text('target_id'),
    before: jsonb('before'),
    after: jsonb('after'),
    /** the agency whose member (as actor or target) or which itself the event is about */
    agencyId: integer('agency_id'),
  },
  (t) => [
    index('audit_events_at_idx').on(t.at, t.id),
    index('audit_events_actor_idx').on(t.actorId, t.id),
    index('audit_events_agency_idx').on(t.agencyId, t.id),
  ],
);

/*
 * Consumer deletion (docs/domain.md, Consumer deletion and retention). Owned by modules/privacy.
 * A request keeps no contact: only the keyed hashes of its phone and email, in
 * `suppressed_contacts`, which refuse the consumer's return at import and intake.
 */

/** The key of the contact hashes: one row, made at the first deletion (every process inserts the same id, the first wins). */
export const privacyKey = pgTable(
  'privacy_key',
  {
    id: integer('id').primaryKey().default(1),
    key: text('key').notNull(),
    createdAt: createdAt(),
  },
  (t) => [check('privacy_key_one_row', sql`${t.id} = 1`)],
);

/** A consumer's deletion request: who asked for it, when, and what it anonymized. No contact is kept. */
export const privacyDeletions = pgTable('privacy_deletions', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  requestedBy: integer('requested_by').references(() => users.id, { onDelete: 'set null' }),
  /** which contacts the request named (their hashes are in suppressed_contacts) */
  byPhone: boolean('by_phone').notNull(),
  byEmail: boolean('by_email').notNull(),
  /** leads anonymized */
  leads: integer('leads').notNull(),
  createdAt: createdAt(),
});

/** contact_hash(key, 'phone' | 'email', contact) of each deleted consumer: refused at import and intake. */
export const suppressedContacts = pgTable('suppressed_contacts', {
  hash: text('hash').primaryKey(),
  deletionId: integer('deletion_id')
    .notNull()
    .references(() => privacyDeletions.id),
});

/**
 * What a deletion leaves to do outside the database, each tried until done: a signed
 * `lead.deleted` webhook to an agent's CRM (its leads), a call recording removed at the provider.
 */
export const privacyTasks = pgTable(
  'privacy_tasks',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    /** the request; null: the retention limit's daily anonymizing */
    deletionId: integer('deletion_id').references(() => privacyDeletions.id),
    kind: privacyTaskKind('kind').notNull(),
    /** WEBHOOK: the agent whose CRM was sent the leads */
    agentId: integer('agent_id'),
    /** WEBHOOK: the leads the CRM is told of, one event each */
    leadIds: bigint('lead_ids', { mode: 'number' }).array(),
    /** RECORDING: the provider's recording */
    recordingSid: text('recording_sid'),
    status: privacyTaskStatus('status').notNull().default('PENDING'),
    attempts: integer('attempts').notNull().default(0),
    error: text('error'),
    /** when it is tried next (a PENDING task whose time is long past lost its job: the sweep enqueues it again) */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    doneAt: timestamp('done_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('privacy_tasks_deletion_idx').on(t.deletionId),
    index('privacy_tasks_pending_idx').on(t.nextAttemptAt).where(sql`${t.status} = 'PENDING'`),
  ],
);

/**
 * Attempt counters whose window starts with its first attempt (the login, registration and
 * password-reset throttles: decision 039), shared by every process: a key (what is limited, and
 * for whom), its attempts, and when its window ends.
 */
export const throttleWindows = pgTable('throttle_windows', {
  key: text('key').primaryKey(),
  hits: integer('hits').notNull(),
  resetsAt: timestamp('resets_at', { withTimezone: true }).notNull(),
});

/**
 * The changes to what the fit rule reads of an agent (decision 043): one row per statement that
 * wrote users' fit columns, subscriptions, packages, preferences, agencies, agency_members,
 * agent_schedules or agent_caps (the trigger fit_roster_changed). The sum of the weights is the
 * version of that data a transaction sees; each web process keeps the agents' fit columns in
 * memory with the version it read them at, and reads them again when the sum moved. Rows are
 * folded into one (their weights summed) now and then, which leaves the sum unchanged.
 */
export const fitRosterChanges = pgTable('fit_roster_changes', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  weight: bigint('weight', { mode: 'number' }).notNull().default(1),
});
