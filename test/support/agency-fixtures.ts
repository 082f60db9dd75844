/**
 * Agencies for the engine's tests, written straight to the tables (the agencies module, which
 * owns them, is built beside this one).
 */
import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../src/server/db/client';

export async function createAgency(
  db: Db,
  opts: {
    dailyCap?: number | null;
    reclaimAfterMinutes?: number | null;
    status?: 'ACTIVE' | 'SUSPENDED';
    ownerId?: number;
    members?: number[];
  } = {},
): Promise<number> {
  const [row] = await queryRows<{ id: number }>(
    db,
    sql`insert into agencies (name, status, daily_cap, reclaim_after_minutes)
        values ('Agency', ${opts.status ?? 'ACTIVE'}::agency_status, ${opts.dailyCap ?? null},
                ${opts.reclaimAfterMinutes ?? null})
        returning id`,
  );
  if (opts.ownerId !== undefined) {
    await db.execute(
      sql`insert into agency_members (user_id, agency_id, role)
          values (${opts.ownerId}, ${row.id}, 'OWNER')`,
    );
  }
  for (const userId of opts.members ?? []) {
    await db.execute(
      sql`insert into agency_members (user_id, agency_id, role) values (${userId}, ${row.id}, 'AGENT')`,
    );
  }
  return row.id;
}

export async function resetAgencies(db: Db): Promise<void> {
  await db.execute(sql`truncate agency_members, agencies restart identity cascade`);
}

/** Each lead's agent and agency. */
export async function leadOwners(
  db: Db,
): Promise<Map<number, { agentId: number | null; agencyId: number | null; status: string }>> {
  const rows = await queryRows<{
    id: number;
    agentId: number | null;
    agencyId: number | null;
    status: string;
  }>(
    db,
    sql`select id::int as id, agent_id as "agentId", agency_id as "agencyId", status::text as status
          from leads`,
  );
  return new Map(rows.map((r) => [r.id, r]));
}
