import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { invites, passwordResets } from '../../db/schema';

/** A new reset link's token hash; the user's earlier links become unusable in the same statement. */
export async function insertPasswordReset(
  db: Db,
  userId: number,
  tokenHash: string,
  expiresAt: Date,
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.delete(passwordResets).where(eq(passwordResets.userId, userId));
    await tx.insert(passwordResets).values({ tokenHash, userId, expiresAt });
  });
}

/** Uses a reset link once: its user, or null when it is unknown, expired or used. */
export async function consumePasswordReset(db: Db, tokenHash: string): Promise<number | null> {
  const [row] = await db
    .update(passwordResets)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(passwordResets.tokenHash, tokenHash),
        isNull(passwordResets.usedAt),
        gt(passwordResets.expiresAt, sql`now()`),
      ),
    )
    .returning({ userId: passwordResets.userId });
  return row?.userId ?? null;
}

export async function insertInvite(
  db: Db,
  values: { tokenHash: string; email: string | null; createdBy: number; expiresAt: Date },
): Promise<void> {
  await db.insert(invites).values(values);
}

/** An invite still to be used: the email it is for (null: any), or null when there is none. */
export async function findUsableInvite(
  db: Db,
  tokenHash: string,
): Promise<{ email: string | null } | null> {
  const [row] = await db
    .select({ email: invites.email })
    .from(invites)
    .where(
      and(
        eq(invites.tokenHash, tokenHash),
        isNull(invites.usedAt),
        gt(invites.expiresAt, sql`now()`),
      ),
    )
    .limit(1);
  return row ?? null;
}

/** Uses an invite once for the user it made; false when it was used or expired meanwhile. */
export async function consumeInvite(db: Db, tokenHash: string, userId: number): Promise<boolean> {
  const rows = await db
    .update(invites)
    .set({ usedAt: sql`now()`, usedBy: userId })
    .where(
      and(
        eq(invites.tokenHash, tokenHash),
        isNull(invites.usedAt),
        gt(invites.expiresAt, sql`now()`),
      ),
    )
    .returning({ tokenHash: invites.tokenHash });
  return rows.length > 0;
}
