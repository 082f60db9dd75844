import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  date,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import {
  ASSIGNMENT_TRIGGERS,
  LEAD_CATEGORIES,
  LEAD_STATUSES,
  SUBSCRIPTION_STATUSES,
  USER_ROLES,
} from '../../shared/domain';

export const userRole = pgEnum('user_role', USER_ROLES);
export const leadCategory = pgEnum('lead_category', LEAD_CATEGORIES);
export const leadStatus = pgEnum('lead_status', LEAD_STATUSES);
export const subscriptionStatus = pgEnum('subscription_status', SUBSCRIPTION_STATUSES);
export const assignmentTrigger = pgEnum('assignment_trigger', ASSIGNMENT_TRIGGERS);
export const historyKind = pgEnum('lead_history_kind', [
  'IMPORTED',
  'AUTO_ASSIGNED',
  'MANUAL_ASSIGNED',
  'STATUS_CHANGED',
]);
export const importStatus = pgEnum('import_status', ['RUNNING', 'DONE', 'FAILED']);

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export const users = pgTable(
  'users',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    role: userRole('role').notNull().default('AGENT'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('users_email_key').on(sql`lower(${t.email})`),
    index('users_role_idx').on(t.role),
  ],
);

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
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('subscriptions_package_idx').on(t.packageId)],
);

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

export const imports = pgTable('imports', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
  filename: text('filename').notNull(),
  status: importStatus('status').notNull().default('RUNNING'),
  rowsSeen: integer('rows_seen').notNull().default(0),
  imported: integer('imported').notNull().default(0),
  duplicates: integer('duplicates').notNull().default(0),
  errorCount: integer('error_count').notNull().default(0),
  /** The first row errors (capped), for the admin to read. */
  errors: jsonb('errors').$type<{ line: number; reason: string }[]>().notNull().default([]),
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
    agentId: integer('agent_id').references(() => users.id, { onDelete: 'set null' }),
    assignedAt: timestamp('assigned_at', { withTimezone: true }),
    /** The business date (BUSINESS_TZ) of the assignment: what quotas count. */
    assignedOn: date('assigned_on', { mode: 'string' }),
    assignmentRunId: integer('assignment_run_id').references(() => assignmentRuns.id),
    importId: integer('import_id').references(() => imports.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('leads_external_id_key').on(t.externalId),
    index('leads_agent_idx').on(t.agentId, t.createdAt.desc()),
    index('leads_agent_day_idx').on(t.agentId, t.assignedOn),
    index('leads_new_idx')
      .on(t.category, t.createdAt.desc())
      .where(sql`${t.status} = 'NEW' and ${t.agentId} is null`),
    index('leads_created_idx').on(t.createdAt.desc(), t.id.desc()),
    index('leads_status_created_idx').on(t.status, t.createdAt.desc(), t.id.desc()),
  ],
);

export const leadHistory = pgTable(
  'lead_history',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    leadId: bigint('lead_id', { mode: 'number' })
      .notNull()
      .references(() => leads.id, { onDelete: 'cascade' }),
    kind: historyKind('kind').notNull(),
    /** Who acted; null for the engine. */
    actorId: integer('actor_id').references(() => users.id, { onDelete: 'set null' }),
    fromStatus: leadStatus('from_status'),
    toStatus: leadStatus('to_status').notNull(),
    agentId: integer('agent_id').references(() => users.id, { onDelete: 'set null' }),
    assignmentRunId: integer('assignment_run_id').references(() => assignmentRuns.id),
    createdAt: createdAt(),
  },
  (t) => [
    index('lead_history_lead_idx').on(t.leadId),
    index('lead_history_assigned_day_idx')
      .on(t.createdAt)
      .where(sql`${t.kind} in ('AUTO_ASSIGNED', 'MANUAL_ASSIGNED')`),
  ],
);
