import { desc, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { assignmentRuns } from '../../db/schema';

/** One round trip to the database (throws when it is down). */
export async function pingDatabase(db: Db): Promise<void> {
  await db.execute(sql`select 1`);
}

export async function findNewestRun(db: Db) {
  const [run] = await db.select().from(assignmentRuns).orderBy(desc(assignmentRuns.id)).limit(1);
  return run ?? null;
}
