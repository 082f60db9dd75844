import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { type Db, idsParam, queryPreparedRows } from '../../db/client';
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
  // named agents (a dashboard's one, an explanation's few dozen): one prepared statement, the
  // ids bound as one array; every agent (a run's read): one pass over the day
  const rows = agentIds
    ? await queryPreparedRows<{ agentId: number; n: number }>(
        db,
        sql`select agent_id as "agentId", count(*)::int as n
              from leads
             where assigned_on = ${businessDate}::date and agent_id = any(${idsParam(agentIds, 'int')})
             group by agent_id`,
      )
    : await db
        .select({ agentId: leads.agentId, n: sql<number>`count(*)::int` })
        .from(leads)
        .where(and(eq(leads.assignedOn, businessDate), sql`${leads.agentId} is not null`))
        .groupBy(leads.agentId);
  return new Map(rows.map((r) => [r.agentId as number, r.n]));
}

/**
 * Leads assigned to one agent (`agentId`: a column or a parameter) from `from` through
 * `through`, business dates, by any trigger, as an expression: what assignedOnDate and
 * assignedInPeriods count, for a statement that reads other facts of the agent beside it. The
 * days are bound as one array and matched one by one, so each is one look-up of the
 * (assigned_on, agent_id) index (a range on its first column would pass over every agent's leads
 * of those days).
 */
export function assignedBetweenSql(agentId: SQL, from: string, through: string): SQL {
  const days: string[] = [];
  for (let d = new Date(`${from}T00:00:00Z`); d <= new Date(`${through}T00:00:00Z`); ) {
    days.push(d.toISOString().slice(0, 10));
    d = new Date(d.getTime() + 86_400_000);
  }
  return sql`(select count(*)::int from leads l
               where l.assigned_on = any(${`{${days.join(',')}}`}::date[])
                 and l.agent_id = ${agentId})`;
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

/**
 * Leads each of these agents received this business week (from Monday) and this month, through
 * `businessDate`, by any trigger: what counts against the agent's weekly and monthly caps. One
 * range read of (assigned_on, agent_id) from the earlier of the two starts. Absent: none.
 */
export async function assignedInPeriods(
  db: Db,
  range: { weekStart: string; monthStart: string; businessDate: string },
  agentIds: number[],
): Promise<Map<number, { week: number; month: number }>> {
  if (agentIds.length === 0) return new Map();
  const from = range.weekStart < range.monthStart ? range.weekStart : range.monthStart;
  const rows = await queryPreparedRows<{ agentId: number; week: number; month: number }>(
    db,
    sql`select agent_id as "agentId",
               (count(*) filter (where assigned_on >= ${range.weekStart}::date))::int as week,
               (count(*) filter (where assigned_on >= ${range.monthStart}::date))::int as month
          from leads
         where assigned_on between ${from}::date and ${range.businessDate}::date
           and agent_id = any(${idsParam(agentIds, 'int')})
         group by agent_id`,
  );
  return new Map(rows.map((r) => [r.agentId, { week: r.week, month: r.month }]));
}
