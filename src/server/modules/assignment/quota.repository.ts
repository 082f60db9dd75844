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

/**
 * Leads assigned through each agency on a business date (leads.agency_id: any member, any
 * trigger): what counts against the agency's daily cap. Agencies with none are absent.
 */
export async function agencyAssignedOnDate(
  db: Db,
  businessDate: string,
  agencyIds?: number[],
): Promise<Map<number, number>> {
  if (agencyIds && agencyIds.length === 0) return new Map();
  const rows = await db
    .select({ agencyId: leads.agencyId, n: sql<number>`count(*)::int` })
    .from(leads)
    .where(
      and(
        eq(leads.assignedOn, businessDate),
        agencyIds ? inArray(leads.agencyId, agencyIds) : sql`${leads.agencyId} is not null`,
      ),
    )
    .groupBy(leads.agencyId);
  return new Map(rows.map((r) => [r.agencyId as number, r.n]));
}
