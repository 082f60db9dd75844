import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { leads } from '../../db/schema';

/**
 * Leads assigned to each agent on a business date, by any trigger (manual included): what
 * counts against the daily quota. Agents with none are absent from the map.
 */
export async function assignedOnDate(
  db: Db,
  businessDate: string,
  agentIds?: number[],
): Promise<Map<number, number>> {
  if (agentIds && agentIds.length === 0) return new Map();
  const rows = await db
    .select({ agentId: leads.agentId, n: sql<number>`count(*)::int` })
    .from(leads)
    .where(
      and(
        eq(leads.assignedOn, businessDate),
        agentIds ? inArray(leads.agentId, agentIds) : sql`${leads.agentId} is not null`,
      ),
    )
    .groupBy(leads.agentId);
  return new Map(rows.map((r) => [r.agentId as number, r.n]));
}
