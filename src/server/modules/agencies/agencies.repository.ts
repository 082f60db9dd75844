import { and, eq, sql } from 'drizzle-orm';
import type { AdminAgency, Agency } from '../../../shared/contracts/agency';
import type { AgencyRole, AgencyStatus } from '../../../shared/domain';
import { type Db, queryRows } from '../../db/client';
import { isoInstant } from '../../db/iso-instant';
import { agencies, agencyMembers } from '../../db/schema';

/** A user's membership: who they are in which agency. */
export interface Membership {
  userId: number;
  agencyId: number;
  role: AgencyRole;
  managerId: number | null;
}

const AGENCY_COLUMNS = sql`a.id, a.name, a.status::text as status, a.daily_cap as "dailyCap",
  a.reclaim_after_minutes as "reclaimAfterMinutes", a.require_two_factor as "requireTwoFactor",
  ${isoInstant(sql`a.created_at`)} as "createdAt"`;

export async function findAgency(db: Db, agencyId: number): Promise<Agency | null> {
  const [row] = await queryRows<Agency>(
    db,
    sql`select ${AGENCY_COLUMNS} from agencies a where a.id = ${agencyId}`,
  );
  return row ?? null;
}

/** The user's membership; `lock`: held (and the agency's row) until the transaction ends. */
export async function findMembership(
  db: Db,
  userId: number,
  lock = false,
): Promise<Membership | null> {
  const [row] = await queryRows<Membership>(
    db,
    sql`select m.user_id as "userId", m.agency_id as "agencyId", m.role::text as role,
               m.manager_id as "managerId"
          from agency_members m where m.user_id = ${userId}
          ${lock ? sql`for update` : sql``}`,
  );
  return row ?? null;
}

/** Every membership of the agency, its rows locked until the transaction ends (owner first). */
export function lockMembers(tx: Db, agencyId: number): Promise<Membership[]> {
  return queryRows<Membership>(
    tx,
    sql`select m.user_id as "userId", m.agency_id as "agencyId", m.role::text as role,
               m.manager_id as "managerId"
          from agency_members m where m.agency_id = ${agencyId}
         order by m.role, m.user_id
           for update`,
  );
}

/** The agency's row, locked: membership changes of one agency go one at a time. */
export async function lockAgency(
  tx: Db,
  agencyId: number,
): Promise<{ id: number; status: AgencyStatus } | null> {
  const [row] = await queryRows<{ id: number; status: AgencyStatus }>(
    tx,
    sql`select id, status::text as status from agencies where id = ${agencyId} for update`,
  );
  return row ?? null;
}

/** A new agency with its owner; null when the user joined one meanwhile. */
export async function insertAgencyWithOwner(
  tx: Db,
  name: string,
  ownerId: number,
): Promise<number | null> {
  const [agency] = await tx.insert(agencies).values({ name }).returning({ id: agencies.id });
  const [member] = await tx
    .insert(agencyMembers)
    .values({ userId: ownerId, agencyId: agency.id, role: 'OWNER', managerId: null })
    .onConflictDoNothing()
    .returning({ userId: agencyMembers.userId });
  return member ? agency.id : null;
}

/** The user joins the agency; false when they are a member of one already. */
export async function insertMember(
  tx: Db,
  member: { userId: number; agencyId: number; role: AgencyRole; managerId: number | null },
): Promise<boolean> {
  const rows = await tx
    .insert(agencyMembers)
    .values(member)
    .onConflictDoNothing()
    .returning({ userId: agencyMembers.userId });
  return rows.length > 0;
}

export async function updateAgency(
  db: Db,
  agencyId: number,
  fields: Partial<
    Pick<
      typeof agencies.$inferInsert,
      'name' | 'dailyCap' | 'reclaimAfterMinutes' | 'requireTwoFactor'
    >
  >,
): Promise<void> {
  await db
    .update(agencies)
    .set({ ...fields, updatedAt: sql`now()` })
    .where(eq(agencies.id, agencyId));
}

export async function updateAgencyStatus(
  tx: Db,
  agencyId: number,
  status: AgencyStatus,
): Promise<boolean> {
  const rows = await tx
    .update(agencies)
    .set({ status, updatedAt: sql`now()` })
    .where(eq(agencies.id, agencyId))
    .returning({ id: agencies.id });
  return rows.length > 0;
}

export async function deleteAgency(tx: Db, agencyId: number): Promise<void> {
  await tx.delete(agencies).where(eq(agencies.id, agencyId));
}

/**
 * The member leaves the agency; the members they managed become the owner's own. False when they
 * were not a member of it.
 */
export async function deleteMember(tx: Db, agencyId: number, userId: number): Promise<boolean> {
  const rows = await tx
    .delete(agencyMembers)
    .where(and(eq(agencyMembers.agencyId, agencyId), eq(agencyMembers.userId, userId)))
    .returning({ userId: agencyMembers.userId });
  if (rows.length === 0) return false;
  await tx
    .update(agencyMembers)
    .set({ managerId: null })
    .where(and(eq(agencyMembers.agencyId, agencyId), eq(agencyMembers.managerId, userId)));
  return true;
}

export async function updateMember(
  tx: Db,
  userId: number,
  fields: { role?: AgencyRole; managerId?: number | null },
): Promise<void> {
  await tx.update(agencyMembers).set(fields).where(eq(agencyMembers.userId, userId));
}

/** A MANAGER's team goes back to the owner (the manager is one no longer). */
export async function releaseTeam(tx: Db, agencyId: number, managerId: number): Promise<void> {
  await tx
    .update(agencyMembers)
    .set({ managerId: null })
    .where(and(eq(agencyMembers.agencyId, agencyId), eq(agencyMembers.managerId, managerId)));
}

/** Names of users, by id. */
export async function userNames(db: Db, ids: number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await queryRows<{ id: number; name: string }>(
    db,
    sql`select id, name from users where id = any(${`{${ids.join(',')}}`}::int[])`,
  );
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** The owner of the agency (id and name). */
export async function findOwner(
  db: Db,
  agencyId: number,
): Promise<{ id: number; name: string } | null> {
  const [row] = await queryRows<{ id: number; name: string }>(
    db,
    sql`select u.id, u.name from agency_members m join users u on u.id = m.user_id
         where m.agency_id = ${agencyId} and m.role = 'OWNER' limit 1`,
  );
  return row ?? null;
}

/** The members whose package the agency pays. */
export async function findAgencyPaidUserIds(tx: Db, agencyId: number): Promise<number[]> {
  const rows = await queryRows<{ userId: number }>(
    tx,
    sql`select user_id as "userId" from subscriptions where paid_by_agency_id = ${agencyId}`,
  );
  return rows.map((r) => r.userId);
}

/** The platform admins' list: every agency with its owner and figures. */
export function listAgenciesForAdmin(db: Db, agencyId?: number): Promise<AdminAgency[]> {
  return queryRows<AdminAgency>(
    db,
    sql`select a.id, a.name, a.status::text as status, a.daily_cap as "dailyCap",
               ${isoInstant(sql`a.created_at`)} as "createdAt",
               (select json_build_object('id', u.id, 'name', u.name, 'email', u.email)
                  from agency_members o join users u on u.id = o.user_id
                 where o.agency_id = a.id and o.role = 'OWNER' limit 1) as owner,
               (select count(*)::int from agency_members m where m.agency_id = a.id) as members,
               (select count(*)::int from leads l where l.agency_id = a.id) as leads,
               (select count(*)::int from subscriptions s where s.paid_by_agency_id = a.id)
                 as "paidMembers"
          from agencies a
         ${agencyId === undefined ? sql`` : sql`where a.id = ${agencyId}`}
         order by a.name, a.id`,
  );
}

export async function findAgencyForAdmin(db: Db, agencyId: number): Promise<AdminAgency | null> {
  const [row] = await listAgenciesForAdmin(db, agencyId);
  return row ?? null;
}
