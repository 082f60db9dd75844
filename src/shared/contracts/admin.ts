import { z } from 'zod';
import {
  ACCOUNT_APPROVALS,
  ASSIGNMENT_TRIGGERS,
  LEAD_CATEGORIES,
  SUBSCRIPTION_STATUSES,
} from '../domain';
import { quotaSchema } from './agent';
import { billingInvoice } from './billing';

export const adminStats = z.object({
  totalPackages: z.number().int(),
  activePackages: z.number().int(),
  totalLeads: z.number().int(),
  unassignedLeads: z.number().int(),
  totalAgents: z.number().int(),
  activeAgents: z.number().int(),
  conversionRate: z.number(),
});
export type AdminStats = z.infer<typeof adminStats>;

export const adminAgent = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  /** docs/domain.md, Accounts: PENDING until an admin approves (REGISTRATION=approval) */
  approval: z.enum(ACCOUNT_APPROVALS).optional(),
  totalLeads: z.number().int(),
  convertedLeads: z.number().int(),
  todayQuota: quotaSchema.nullable(),
  subscription: z
    .object({
      id: z.number().int(),
      status: z.enum(SUBSCRIPTION_STATUSES),
      package: z.object({
        name: z.string(),
        priceMonthlyCents: z.number().int(),
        category: z.enum(LEAD_CATEGORIES),
        leadsPerDay: z.number().int(),
      }),
    })
    .nullable(),
  /** Stripe Billing (docs/domain.md, Billing): null when Stripe never billed this agent */
  billing: z
    .object({
      /** the Stripe subscription's end of paid period: the next renewal */
      currentPeriodEnd: z.string().nullable(),
      lastInvoice: billingInvoice.nullable(),
    })
    .nullable()
    .optional(),
  /** the agent's own phone (E.164) */
  phone: z.string().nullable().optional(),
  /** states the agent is licensed in; empty: not restricted */
  licensedStates: z.array(z.string()).optional(),
  /** the pause now; null when not paused (until: last paused business date) */
  pause: z.object({ since: z.string(), until: z.string().nullable() }).nullable().optional(),
  /** an admin disabled the account: no login, no leads (docs/domain.md, Offboarding) */
  disabled: z.boolean().optional(),
});
export type AdminAgent = z.infer<typeof adminAgent>;

/** The agents table's filter: only the agents waiting for approval, say. */
export const adminAgentsQuery = z.object({ approval: z.enum(ACCOUNT_APPROVALS).optional() });
/** An admin's decision on a PENDING agent: approve (the agent works) or refuse (REFUSED). */
export const approvalBody = z.object({ approve: z.boolean() });

export const analytics = z.object({
  totalLeads: z.number().int(),
  assignedLeads: z.number().int(),
  convertedLeads: z.number().int(),
  assignmentsOverTime: z.array(z.object({ date: z.string(), count: z.number().int() })),
  conversionsByAgent: z.array(z.object({ name: z.string(), converted: z.number().int() })),
  categoryDistribution: z.array(
    z.object({ category: z.enum(LEAD_CATEGORIES), count: z.number().int() }),
  ),
});
export type Analytics = z.infer<typeof analytics>;

export const assignmentRun = z.object({
  id: z.number().int(),
  trigger: z.enum(ASSIGNMENT_TRIGGERS),
  businessDate: z.string(),
  eligibleAgents: z.number().int(),
  candidateLeads: z.number().int(),
  assigned: z.number().int(),
  durationMs: z.number().int(),
  error: z.string().nullable(),
  startedAt: z.string(),
});
export type AssignmentRun = z.infer<typeof assignmentRun>;

/** What POST /api/admin/assignment/run answers: the run record and how many agents got leads. */
export const assignmentRunResult = assignmentRun.extend({ agentsAssigned: z.number().int() });
export type AssignmentRunResult = z.infer<typeof assignmentRunResult>;

/** A delivery channel's state: recent attempts succeed, all fail, or it is not set up. */
const channelState = z.enum(['OPERATIONAL', 'FAILING', 'NOT_CONFIGURED']);

/** GET /api/health/live: the process answers */
export const livenessResponse = z.object({ status: z.literal('ok') });

/** GET /api/health/ready: 200 when this process can take traffic, 503 and why not otherwise */
export const readinessResponse = z.object({
  status: z.enum(['ready', 'not ready']),
  database: z.enum(['ok', 'down']),
  /** every migration this build ships is applied ('unknown' while the database is down) */
  migrations: z.enum(['ok', 'pending', 'unknown']),
  /** the job queue's workers, where this process runs them (PROCESS_ROLE) */
  workers: z.enum(['ok', 'down', 'not run here']),
  /** the request's id, as in the server's log (on a 503) */
  requestId: z.string().optional(),
});

export const healthResponse = z.object({
  status: z.enum(['ok', 'degraded']),
  database: z.enum(['ok', 'down']),
  lastAssignmentRun: assignmentRun.nullable(),
  /** BUSINESS_TZ: the zone in which "today" and every shown time are meant */
  businessTimeZone: z.string(),
  /** the request's id, as in the server's log (on a 503) */
  requestId: z.string().optional(),
  /** the delivery channels (docs/domain.md, Delivery of assigned leads) and the queue's backlog; absent when the database is down */
  channels: z
    .object({
      email: channelState,
      webhook: channelState,
      /** Twilio (docs/domain.md, Follow-up messages and calls): follow-up SMS, and click-to-call with recording */
      sms: channelState,
      voice: channelState,
      backlog: z.object({
        /** deliveries waiting for an attempt */
        pending: z.number().int(),
        /** how long the oldest due one has waited; null when none is due */
        oldestSeconds: z.number().int().nullable(),
      }),
    })
    .optional(),
});
