/**
 * The audit log (docs/domain.md, Audit log; decision 035): append-only rows of who did what, from
 * where, to what. Other modules record their security events through `recordAuditEvent`; the
 * writes of admins, agency owners and managers are recorded by the hook (audit-hook.ts).
 */
import type { AdminAuditQuery, AgencyAuditQuery, AuditPage } from '../../../shared/contracts/audit';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { clientKey } from '../../lib/client-address';
import { findAgencyRole, findAuditEvents, insertAuditEvent } from './audit.repository';

export interface AuditActor {
  id: number;
  /** ADMIN or AGENT, or the member's agency role (OWNER, MANAGER) */
  role: string;
}

export interface AuditEventInput {
  /** null: nobody signed in (a failed login) */
  actor: AuditActor | null;
  /** the request's address (request.ip); stored as the throttles count it (IPv6 by /64) */
  ip: string | null;
  action: string;
  targetType?: string | null;
  targetId?: string | number | null;
  before?: unknown;
  after?: unknown;
  agencyId?: number | null;
}

/** Keys whose values are never stored: passwords, keys, tokens, secrets, card data, codes. */
const SECRET_KEY =
  /pass(word)?|secret|token|api_?key|^key$|authori[sz]ation|auth_?header|card|cvc|cvv|^pan$|otp|totp|^code$|recovery/i;

/** The most of a body kept as `after` (its JSON text); beyond it only its size is kept. */
export const AUDIT_BODY_MAX_CHARS = 8192;

/** A copy of a value without its secrets (any depth), bounded in size. */
/**
 * Text as jsonb can keep it: a lone UTF-16 surrogate (which a JSON body may carry) becomes U+FFFD
 * and NUL is dropped; jsonb refuses both, and the request would fail for its audit row.
 */
function storable(text: string): string {
  return text.replace(LONE_SURROGATE, '\ufffd').replaceAll('\0', '');
}
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

export function withoutSecrets(value: unknown): unknown {
  const strip = (v: unknown, depth: number): unknown => {
    if (typeof v === 'string') return storable(v);
    if (v === null || typeof v !== 'object') return v;
    if (depth > 8) return '[nested]';
    if (Array.isArray(v)) return v.map((x) => strip(x, depth + 1));
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      out[storable(k)] = SECRET_KEY.test(k) ? '[redacted]' : strip(x, depth + 1);
    }
    return out;
  };
  const clean = strip(value, 0);
  if (clean === undefined) return null;
  const text = JSON.stringify(clean);
  if (text !== undefined && text.length > AUDIT_BODY_MAX_CHARS) {
    return { omitted: 'too large', chars: text.length };
  }
  return clean;
}

const USER_TARGETS = new Set(['user', 'agent', 'member']);

/** Appends one event (never throws for a bad shape: secrets are stripped here too). */
export async function recordAuditEvent(db: Pick<Db, 'execute'>, e: AuditEventInput): Promise<void> {
  const targetId = e.targetId === undefined || e.targetId === null ? null : String(e.targetId);
  const targetType = e.targetType ?? null;
  const targetUserId =
    targetType && USER_TARGETS.has(targetType) && targetId && /^\d{1,9}$/.test(targetId)
      ? Number(targetId)
      : null;
  await insertAuditEvent(db, {
    actorId: e.actor?.id ?? null,
    actorRole: e.actor?.role ?? null,
    ip: e.ip ? clientKey(e.ip) : null,
    action: e.action.slice(0, 300),
    targetType,
    targetId,
    before: withoutSecrets(e.before),
    after: withoutSecrets(e.after),
    agencyId: e.agencyId ?? null,
    targetUserId,
  });
}

/** The caller's agency and role in it, if a member (the hook asks before an agency write). */
export function agencyRoleOf(db: Db, userId: number) {
  return findAgencyRole(db, userId);
}

function dayStart(day: string): Date {
  return new Date(`${day}T00:00:00Z`);
}

/** The admins' Audit screen: every event, filtered, newest first. */
export async function adminAuditPage(db: Db, q: AdminAuditQuery): Promise<AuditPage> {
  const until = q.to ? new Date(dayStart(q.to).getTime() + 86_400_000) : undefined;
  const { events, total } = await findAuditEvents(
    db,
    {
      actorId: q.actorId,
      action: q.action || undefined,
      targetType: q.targetType || undefined,
      from: q.from ? dayStart(q.from) : undefined,
      until,
    },
    q.pageSize,
    (q.page - 1) * q.pageSize,
  );
  return { events, total, page: q.page, pageSize: q.pageSize };
}

/**
 * An agency owner's page: the events about their agency (its members as actors or targets, the
 * agency itself). Only the OWNER: a manager or an agent gets 403, one in no agency 404.
 */
export async function agencyAuditPage(
  db: Db,
  userId: number,
  q: AgencyAuditQuery,
): Promise<AuditPage> {
  const me = await findAgencyRole(db, userId);
  if (!me) throw new AppError('NOT_FOUND', 'You are not in an agency');
  if (me.role !== 'OWNER')
    throw new AppError('FORBIDDEN', "Only the agency's owner sees its audit log");
  const { events, total } = await findAuditEvents(
    db,
    { agencyId: me.agencyId },
    q.pageSize,
    (q.page - 1) * q.pageSize,
  );
  return { events, total, page: q.page, pageSize: q.pageSize };
}
