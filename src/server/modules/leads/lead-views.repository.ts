/** When an agent first opened a lead given to them (`lead_views`). */
import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/client';

/**
 * Records the view of the agent's own lead under its current assignment, the first one kept;
 * answers that first view's time, or null when the lead is not the agent's.
 */
export async function recordFirstView(
  db: Db,
  leadId: number,
  agentId: number,
): Promise<string | null> {
  const [row] = await queryRows<{ viewed_at: string }>(
    db,
    sql`with own as (
          select id, agent_id, assigned_at from leads
           where id = ${leadId} and agent_id = ${agentId} and assigned_at is not null),
        added as (
          insert into lead_views (lead_id, agent_id, assigned_at)
          select id, agent_id, assigned_at from own
          on conflict (lead_id, agent_id, assigned_at) do nothing
          returning viewed_at)
        select to_char(coalesce(
                 (select viewed_at from added),
                 (select v.viewed_at from lead_views v join own o
                    on v.lead_id = o.id and v.agent_id = o.agent_id and v.assigned_at = o.assigned_at)
               ) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as viewed_at
          from own`,
  );
  return row?.viewed_at ?? null;
}
