import { and, asc, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { userPasskeys, webauthnChallenges } from '../../db/schema';

export type PasskeyRow = typeof userPasskeys.$inferSelect;

export async function findPasskeysOfUser(db: Db, userId: number): Promise<PasskeyRow[]> {
  return db
    .select()
    .from(userPasskeys)
    .where(eq(userPasskeys.userId, userId))
    .orderBy(asc(userPasskeys.createdAt), asc(userPasskeys.id));
}

export async function countPasskeys(db: Db, userId: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(userPasskeys)
    .where(eq(userPasskeys.userId, userId));
  return Number(row?.n ?? 0);
}

export async function findPasskeyByCredentialId(db: Db, credentialId: string) {
  const [row] = await db
    .select()
    .from(userPasskeys)
    .where(eq(userPasskeys.credentialId, credentialId))
    .limit(1);
  return row ?? null;
}

/** A new passkey; null when the credential is already registered (to anyone). */
export async function insertPasskey(
  db: Db,
  values: {
    userId: number;
    credentialId: string;
    publicKey: string;
    counter: number;
    transports: string[];
    userHandle: string;
    name: string;
  },
): Promise<PasskeyRow | null> {
  const [row] = await db.insert(userPasskeys).values(values).onConflictDoNothing().returning();
  return row ?? null;
}

export async function renamePasskey(db: Db, userId: number, id: number, name: string) {
  const [row] = await db
    .update(userPasskeys)
    .set({ name })
    .where(and(eq(userPasskeys.id, id), eq(userPasskeys.userId, userId)))
    .returning();
  return row ?? null;
}

export async function deletePasskey(db: Db, userId: number, id: number): Promise<boolean> {
  const rows = await db
    .delete(userPasskeys)
    .where(and(eq(userPasskeys.id, id), eq(userPasskeys.userId, userId)))
    .returning({ id: userPasskeys.id });
  return rows.length > 0;
}

export async function deletePasskeysOfUser(db: Db, userId: number): Promise<number> {
  const rows = await db
    .delete(userPasskeys)
    .where(eq(userPasskeys.userId, userId))
    .returning({ id: userPasskeys.id });
  return rows.length;
}

/**
 * Records a use and its counter (the counter rule, decision 036): it must have grown since it was
 * read, unless the authenticator keeps none (0 then and now); the update is conditional on the
 * counter read, so two parallel assertions cannot both move it.
 */
export async function takeCounter(
  db: Db,
  id: number,
  oldCounter: number,
  newCounter: number,
): Promise<boolean> {
  if (!(newCounter > oldCounter || (newCounter === 0 && oldCounter === 0))) return false;
  const rows = await db
    .update(userPasskeys)
    .set({ counter: newCounter, lastUsedAt: new Date() })
    .where(and(eq(userPasskeys.id, id), eq(userPasskeys.counter, oldCounter)))
    .returning({ id: userPasskeys.id });
  return rows.length > 0;
}

export async function insertChallenge(
  db: Db,
  values: {
    challenge: string;
    purpose: string;
    userId: number | null;
    userHandle?: string | null;
    expiresAt: Date;
  },
) {
  // expired ones of anyone go with each new one
  await db.delete(webauthnChallenges).where(lt(webauthnChallenges.expiresAt, new Date()));
  await db.insert(webauthnChallenges).values(values);
}

/** Takes a live challenge of this purpose (and user, or none), once: null when not there. */
export async function takeChallenge(
  db: Db,
  challenge: string,
  purpose: string,
  userId: number | null,
): Promise<{ userHandle: string | null } | null> {
  const rows = await db
    .delete(webauthnChallenges)
    .where(
      and(
        eq(webauthnChallenges.challenge, challenge),
        eq(webauthnChallenges.purpose, purpose),
        userId === null ? isNull(webauthnChallenges.userId) : eq(webauthnChallenges.userId, userId),
        gt(webauthnChallenges.expiresAt, new Date()),
      ),
    )
    .returning({ userHandle: webauthnChallenges.userHandle });
  return rows[0] ?? null;
}

/** Every challenge handed out to the user (an admin's reset of their second factor). */
export async function deleteChallengesOfUser(db: Db, userId: number) {
  await db.delete(webauthnChallenges).where(eq(webauthnChallenges.userId, userId));
}
