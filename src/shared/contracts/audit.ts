import { z } from 'zod';

/** One row of the audit log (docs/domain.md, Audit log). */
export const auditEvent = z.object({
  id: z.number().int(),
  at: z.string(),
  actorId: z.number().int().nullable(),
  /** the actor's name and email when the account still exists */
  actorName: z.string().nullable(),
  actorEmail: z.string().nullable(),
  actorRole: z.string().nullable(),
  ip: z.string().nullable(),
  action: z.string(),
  targetType: z.string().nullable(),
  targetId: z.string().nullable(),
  /** what the target was (named events only) and what was asked of it: objects, secrets removed */
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
});
export type AuditEvent = z.infer<typeof auditEvent>;

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'A date as YYYY-MM-DD')
  .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)), 'A date as YYYY-MM-DD');

/** `GET /api/admin/audit` (newest first); from and to are UTC days, both included. */
export const adminAuditQuery = z.object({
  actorId: z.coerce.number().int().positive().max(2_147_483_647).optional(),
  /** part of the action, without case ("login", "POST /api/admin/sources") */
  action: z.string().trim().max(200).optional(),
  targetType: z.string().trim().max(50).optional(),
  from: day.optional(),
  to: day.optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(50),
});
export type AdminAuditQuery = z.infer<typeof adminAuditQuery>;

/** `GET /api/agency/audit`: the owner's page of their agency's events. */
export const agencyAuditQuery = adminAuditQuery.pick({ page: true, pageSize: true });
export type AgencyAuditQuery = z.infer<typeof agencyAuditQuery>;

export const auditPage = z.object({
  events: z.array(auditEvent),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type AuditPage = z.infer<typeof auditPage>;

/** Names of the security events recorded explicitly (the writes are "METHOD /route"). */
export const AUDIT_ACTIONS = {
  login: 'auth.login',
  loginFailed: 'auth.login_failed',
  logout: 'auth.logout',
  passwordChanged: 'auth.password_changed',
  passwordReset: 'auth.password_reset',
  twoFactorEnabled: 'auth.two_factor_enabled',
  twoFactorDisabled: 'auth.two_factor_disabled',
  passkeyAdded: 'auth.passkey_added',
  passkeyRemoved: 'auth.passkey_removed',
  webhookUrlChanged: 'delivery.webhook_url_changed',
} as const;
