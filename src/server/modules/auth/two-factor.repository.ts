import { and, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { pendingLogins, recoveryCodes, userTotp } from '../../db/schema';

export async function findTotp(db: Db, userId: number) {
  const [row] = await db.select().from(userTotp).where(eq(userTotp.userId, userId)).limit(1);
  return row ?? null;
}

/** A new pending secret in place of any earlier pending one; false when TOTP is already on. */
export async function writePendingSecret(db: Db, userId: number, secret: string) {
  const rows = await db
    .insert(userTotp)
    .values({ userId, secret })
    .onConflictDoUpdate({
      target: userTotp.userId,
      set: { secret, lastTimeStep: null, createdAt: sql`now()` },
      setWhere: isNull(userTotp.enabledAt),
    })
    .returning({ userId: userTotp.userId });
  return rows.length > 0;
}

/**
 * Takes a code's time step, once: only when it is newer than the last one taken (a conditional
 * update, so two parallel requests with one code cannot both pass). `enable` also turns TOTP on.
 */
export async function takeTimeStep(
  db: Db,
  userId: number,
  timeStep: number,
  enable: boolean,
): Promise<boolean> {
  const rows = await db
    .update(userTotp)
    .set({ lastTimeStep: timeStep, ...(enable ? { enabledAt: new Date() } : {}) })
    .where(
      and(
        eq(userTotp.userId, userId),
        enable ? isNull(userTotp.enabledAt) : sql`${userTotp.enabledAt} is not null`,
        or(isNull(userTotp.lastTimeStep), lt(userTotp.lastTimeStep, timeStep)),
      ),
    )
    .returning({ userId: userTotp.userId });
  return rows.length > 0;
}

export async function replaceRecoveryCodes(db: Db, userId: number, codeHashes: string[]) {
  await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  await db.insert(recoveryCodes).values(codeHashes.map((codeHash) => ({ userId, codeHash })));
}

/** Uses a recovery code once (a conditional update): false when unknown or already used. */
export async function takeRecoveryCode(db: Db, userId: number, codeHash: string) {
  const rows = await db
    .update(recoveryCodes)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(recoveryCodes.userId, userId),
        eq(recoveryCodes.codeHash, codeHash),
        isNull(recoveryCodes.usedAt),
      ),
    )
    .returning({ id: recoveryCodes.id });
  return rows.length > 0;
}

export async function countUnusedRecoveryCodes(db: Db, userId: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
  return Number(row?.n ?? 0);
}

export async function deleteTwoFactor(db: Db, userId: number) {
  await db.delete(userTotp).where(eq(userTotp.userId, userId));
  await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
}

export async function insertPendingLogin(
  db: Db,
  values: { tokenHash: string; userId: number; expiresAt: Date },
) {
  // a user's older unfinished logins are dropped, and any expired one of anyone
  await db.delete(pendingLogins).where(lt(pendingLogins.expiresAt, new Date()));
  await db.insert(pendingLogins).values(values);
}

export async function findPendingLogin(db: Db, tokenHash: string) {
  const [row] = await db
    .select({ userId: pendingLogins.userId })
    .from(pendingLogins)
    .where(and(eq(pendingLogins.tokenHash, tokenHash), gt(pendingLogins.expiresAt, new Date())))
    .limit(1);
  return row ?? null;
}

/** Ends a pending login, once: false when another request ended it first. */
export async function deletePendingLogin(db: Db, tokenHash: string): Promise<boolean> {
  const rows = await db
    .delete(pendingLogins)
    .where(eq(pendingLogins.tokenHash, tokenHash))
    .returning({ userId: pendingLogins.userId });
  return rows.length > 0;
}

/** Every pending login of the user (an admin's reset of their second factor). */
export async function deletePendingLoginsOfUser(db: Db, userId: number) {
  await db.delete(pendingLogins).where(eq(pendingLogins.userId, userId));
}
