import { eq, sql } from 'drizzle-orm';
import type { LegalPageName } from '../../../shared/contracts/legal';
import type { Db } from '../../db/client';
import { legalPages } from '../../db/schema';

export async function findLegalPage(db: Db, page: LegalPageName) {
  const [row] = await db.select().from(legalPages).where(eq(legalPages.page, page));
  return row ?? null;
}

/** Writes the page's text (the newest save wins). */
export async function upsertLegalPage(db: Db, page: LegalPageName, body: string, userId: number) {
  const [row] = await db
    .insert(legalPages)
    .values({ page, body, updatedBy: userId })
    .onConflictDoUpdate({
      target: legalPages.page,
      set: { body, updatedBy: userId, updatedAt: sql`now()` },
    })
    .returning();
  return row;
}
