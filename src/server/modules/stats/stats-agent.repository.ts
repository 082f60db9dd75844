import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { leads } from '../../db/schema';

/** Leads the agent holds, all time, and how many of them are converted. */
export async function countLeadsOfAgent(
  db: Db,
  agentId: number,
): Promise<{ total: number; converted: number }> {
  const [row] = await db
    .select({
      total: sql<number>`count(*)::int`,
      converted: sql<number>`(count(*) filter (where ${leads.status} = 'CONVERTED'))::int`,
    })
    .from(leads)
    .where(eq(leads.agentId, agentId));
  return { total: row?.total ?? 0, converted: row?.converted ?? 0 };
}
