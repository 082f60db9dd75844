import { and, eq, sql } from 'drizzle-orm';
import type { AccountApproval, UserRole } from '../../../shared/domain';
import { type Db, queryRows } from '../../db/client';
import { users } from '../../db/schema';

export async function findUserByEmail(db: Db, email: string) {
  const [row] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = ${email.toLowerCase()}`)
    .limit(1);
  return row ?? null;
}

/** Inserts a user; null when the email is taken (the unique index decides, so races are safe). */
export async function insertUser(
  db: Db,
  values: {
    name: string;
    email: string;
    passwordHash: string;
    role: UserRole;
    approval?: AccountApproval;
  },
) {
  const [row] = await db
    .insert(users)
    .values({ ...values, email: values.email.toLowerCase() })
    .onConflictDoNothing()
    .returning({
      id: users.id,
      name: users.name,
      email: users.email,
      role: users.role,
      approval: users.approval,
    });
  return row ?? null;
}

export async function findUserById(db: Db, id: number) {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row ?? null;
}

export async function setPasswordHash(db: Db, userId: number, passwordHash: string) {
  await db.update(users).set({ passwordHash }).where(eq(users.id, userId));
}

/** Sets an agent's approval; false when there is no such agent. */
export async function writeApproval(
  db: Db,
  agentId: number,
  approval: AccountApproval,
): Promise<boolean> {
  const rows = await db
    .update(users)
    .set({ approval })
    .where(and(eq(users.id, agentId), eq(users.role, 'AGENT')))
    .returning({ id: users.id });
  return rows.length > 0;
}

export async function countAdmins(db: Db): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(users)
    .where(eq(users.role, 'ADMIN'));
  return row.n;
}

// ---- an agent's own facts, kept on the account (their modules decide; this writes)

/**
 * Pauses the agent through `through` (a business date: the pause ends at the start of the next
 * business day in the business time zone, daylight saving included), or until resumed (null).
 * A pause already running keeps its start.
 */
export async function writePause(
  db: Db,
  userId: number,
  through: string | null,
  timeZone: string,
): Promise<void> {
  const until =
    through === null
      ? sql`null`
      : sql`((${through}::date + 1)::timestamp at time zone ${timeZone})`;
  await db.execute(
    sql`update users
           set paused_at = case when paused_at is not null
                                 and (paused_until is null or paused_until > now())
                                then paused_at else now() end,
               paused_until = ${until}
         where id = ${userId}`,
  );
}

export async function clearPause(db: Db, userId: number): Promise<void> {
  await db.execute(
    sql`update users set paused_at = null, paused_until = null where id = ${userId}`,
  );
}

/** Sets an agent's licensed states; false when there is no such agent. */
export async function writeLicensedStates(
  db: Db,
  agentId: number,
  states: string[],
): Promise<boolean> {
  const rows = await queryRows<{ id: number }>(
    db,
    sql`update users set licensed_states = ${`{${states.join(',')}}`}::text[]
         where id = ${agentId} and role = 'AGENT' returning id`,
  );
  return rows.length > 0;
}

/** The agent's own phone (E.164), or none; a different number is not verified. */
export async function setPhone(db: Db, userId: number, phone: string | null): Promise<void> {
  await db.execute(
    sql`update users
           set phone = ${phone}::text,
               phone_verified_at = case when phone is not distinct from ${phone}::text
                                        then phone_verified_at end
         where id = ${userId}`,
  );
}

/** The agent proved `phone` is theirs; false when their phone is another number by now. */
export async function setPhoneVerified(db: Db, userId: number, phone: string): Promise<boolean> {
  const rows = await queryRows<{ id: number }>(
    db,
    sql`update users set phone_verified_at = now()
         where id = ${userId} and phone = ${phone}::text returning id`,
  );
  return rows.length > 0;
}

/**
 * Disables the account (keeping the first time it was disabled) or enables it again; null when
 * there is no such user.
 */
export async function writeDisabled(db: Db, userId: number, disabled: boolean) {
  const [row] = await db
    .update(users)
    .set({ disabledAt: disabled ? sql`coalesce(${users.disabledAt}, now())` : null })
    .where(eq(users.id, userId))
    .returning({
      id: users.id,
      name: users.name,
      email: users.email,
      role: users.role,
      approval: users.approval,
      disabledAt: users.disabledAt,
    });
  return row ?? null;
}
