import { type SQL, sql } from 'drizzle-orm';
import type { AuditEvent } from '../../../shared/contracts/audit';
import { type Db, queryRows } from '../../db/client';

export interface AuditRow {
  actorId: number | null;
  actorRole: string | null;
  ip: string | null;
  action: string;
  targetType: string | null;
  targetId: string | null;
  before: unknown;
  after: unknown;
  /** the agency the event is about, when the caller knows it */
  agencyId: number | null;
  /** a user the event is about (the target), whose agency the row takes when none is given */
  targetUserId: number | null;
}

const json = (value: unknown) =>
  value === undefined || value === null ? null : JSON.stringify(value);

/**
 * Appends one row. Its agency is the one given, else the actor's (a member then), else the
 * target user's, read in the same statement.
 */
export async function insertAuditEvent(db: Pick<Db, 'execute'>, row: AuditRow): Promise<void> {
  await db.execute(sql`
    insert into audit_events
      (actor_id, actor_role, ip, action, target_type, target_id, before, after, agency_id)
    values (
      ${row.actorId}, ${row.actorRole}, ${row.ip}, ${row.action}, ${row.targetType},
      ${row.targetId}, ${json(row.before)}::jsonb, ${json(row.after)}::jsonb,
      coalesce(
        ${row.agencyId}::int,
        (select agency_id from agency_members where user_id = ${row.actorId}::int),
        (select agency_id from agency_members where user_id = ${row.targetUserId}::int)
      )
    )`);
}

/** The caller's agency role, if a member. */
export async function findAgencyRole(
  db: Pick<Db, 'execute'>,
  userId: number,
): Promise<{ agencyId: number; role: string } | null> {
  const [row] = await queryRows<{ agencyId: number; role: string }>(
    db,
    sql`select agency_id as "agencyId", role from agency_members where user_id = ${userId}`,
  );
  return row ?? null;
}

export interface AuditFilter {
  actorId?: number;
  action?: string;
  targetType?: string;
  /** inclusive, UTC day starts */
  from?: Date;
  /** exclusive */
  until?: Date;
  agencyId?: number;
}

function where(f: AuditFilter): SQL {
  const parts: SQL[] = [sql`true`];
  if (f.actorId !== undefined) parts.push(sql`e.actor_id = ${f.actorId}`);
  if (f.action) parts.push(sql`strpos(lower(e.action), lower(${f.action})) > 0`);
  if (f.targetType) parts.push(sql`e.target_type = ${f.targetType}`);
  if (f.from) parts.push(sql`e.at >= ${f.from.toISOString()}::timestamptz`);
  if (f.until) parts.push(sql`e.at < ${f.until.toISOString()}::timestamptz`);
  if (f.agencyId !== undefined) parts.push(sql`e.agency_id = ${f.agencyId}`);
  return sql.join(parts, sql` and `);
}

/** A page of events, newest first, and how many match. */
export async function findAuditEvents(
  db: Db,
  filter: AuditFilter,
  limit: number,
  offset: number,
): Promise<{ events: AuditEvent[]; total: number }> {
  const w = where(filter);
  const [events, [count]] = await Promise.all([
    queryRows<AuditEvent>(
      db,
      sql`select e.id::int as id, to_char(e.at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as at,
            e.actor_id as "actorId", u.name as "actorName", u.email as "actorEmail",
            e.actor_role as "actorRole", e.ip, e.action, e.target_type as "targetType",
            e.target_id as "targetId", e.before, e.after
          from audit_events e left join users u on u.id = e.actor_id
          where ${w}
          order by e.at desc, e.id desc
          limit ${limit} offset ${offset}`,
    ),
    queryRows<{ total: number }>(
      db,
      sql`select count(*)::int as total from audit_events e where ${w}`,
    ),
  ]);
  return { events, total: count?.total ?? 0 };
}
