import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, lt, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { agencies, agencyMembers, sessions, userPasskeys, users, userTotp } from '../../db/schema';
import type { SessionUser } from '../../types';

export interface SessionPolicy {
  idleMs: number;
  absoluteMs: number;
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

/** A new random token; only its hash is stored. */
export async function createSession(db: Db, userId: number, policy: SessionPolicy) {
  const token = randomBytes(32).toString('base64url');
  const now = Date.now();
  await db.insert(sessions).values({
    tokenHash: hashToken(token),
    userId,
    lastSeenAt: new Date(now),
    expiresAt: new Date(now + policy.absoluteMs),
  });
  return token;
}

/** The statement every signed-in request runs: built once per database and prepared. */
function sessionUserStatement(db: Db) {
  return db
    .select({
      id: users.id,
      name: users.name,
      email: users.email,
      role: users.role,
      approval: users.approval,
      lastSeenAt: sessions.lastSeenAt,
      expiresAt: sessions.expiresAt,
      twoFactorOnAt: userTotp.enabledAt,
      // a passkey is two factors on as well (decision 036)
      hasPasskey: sql<boolean>`exists (select 1 from ${userPasskeys} where ${userPasskeys.userId} = ${sessions.userId})`,
      agencyRequiresTwoFactor: agencies.requireTwoFactor,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(userTotp, eq(userTotp.userId, sessions.userId))
    .leftJoin(agencyMembers, eq(agencyMembers.userId, sessions.userId))
    .leftJoin(agencies, eq(agencies.id, agencyMembers.agencyId))
    .where(
      and(
        eq(sessions.tokenHash, sql.placeholder('tokenHash')),
        gt(sessions.expiresAt, sql.placeholder('now')),
        gt(sessions.lastSeenAt, sql.placeholder('idleSince')),
        // a disabled account's sessions are deleted; this refuses one that raced the delete
        isNull(users.disabledAt),
      ),
    )
    .limit(1)
    .prepare('session_user');
}
const sessionUserStatements = new WeakMap<Db, ReturnType<typeof sessionUserStatement>>();

/**
 * The session's user when the session exists and has passed neither expiry, and when it ends
 * unless another request comes first (the earlier of its absolute and idle expiry).
 */
export async function findSessionUser(
  db: Db,
  tokenHash: string,
  policy: SessionPolicy,
): Promise<{
  user: SessionUser;
  endsAt: Date;
  twoFactor: boolean;
  agencyRequiresTwoFactor: boolean;
} | null> {
  const now = Date.now();
  let statement = sessionUserStatements.get(db);
  if (!statement) {
    statement = sessionUserStatement(db);
    sessionUserStatements.set(db, statement);
  }
  const [row] = await statement.execute({
    tokenHash,
    now: new Date(now).toISOString(),
    idleSince: new Date(now - policy.idleMs).toISOString(),
  });
  if (!row) return null;
  let lastSeenAt = row.lastSeenAt.getTime();
  // write the idle clock at most once a minute, not on every request
  if (now - lastSeenAt > 60_000) {
    lastSeenAt = now;
    await db
      .update(sessions)
      .set({ lastSeenAt: new Date(now) })
      .where(eq(sessions.tokenHash, tokenHash));
  }
  return {
    user: {
      id: row.id,
      name: row.name,
      email: row.email,
      role: row.role,
      approval: row.approval,
    },
    endsAt: new Date(Math.min(row.expiresAt.getTime(), lastSeenAt + policy.idleMs)),
    twoFactor: row.twoFactorOnAt !== null || row.hasPasskey === true,
    agencyRequiresTwoFactor: row.agencyRequiresTwoFactor === true,
  };
}

export async function deleteSession(db: Db, tokenHash: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.tokenHash, tokenHash));
}

export async function deleteExpiredSessions(db: Db, policy: SessionPolicy): Promise<void> {
  await db.delete(sessions).where(lt(sessions.lastSeenAt, new Date(Date.now() - policy.idleMs)));
  await db.delete(sessions).where(lt(sessions.expiresAt, new Date()));
}

/** Ends every session of the user, or every one but `keepTokenHash` (the caller's own). */
export async function deleteUserSessions(
  db: Db,
  userId: number,
  keepTokenHash: string | null = null,
): Promise<void> {
  await db
    .delete(sessions)
    .where(
      keepTokenHash === null
        ? eq(sessions.userId, userId)
        : and(eq(sessions.userId, userId), ne(sessions.tokenHash, keepTokenHash)),
    );
}
