import { sql } from 'drizzle-orm';
import type { AdminStats } from '../../../shared/contracts/admin';
import { type Db, queryRows } from '../../db/client';

/** The admin dashboard's figures, in one statement. */
export async function adminStats(db: Db): Promise<AdminStats> {
  const [row] = await queryRows<Omit<AdminStats, 'conversionRate'> & { convertedLeads: number }>(
    db,
    sql`
      select
        (select count(*) from packages)::int as "totalPackages",
        (select count(*) from packages where active)::int as "activePackages",
        (select count(*) from leads)::int as "totalLeads",
        (select count(*) from leads where status = 'NEW' and agent_id is null)::int
          as "unassignedLeads",
        (select count(*) from leads where status = 'CONVERTED')::int as "convertedLeads",
        (select count(*) from users where role = 'AGENT')::int as "totalAgents",
        (select count(*) from users u join subscriptions s on s.user_id = u.id
          where u.role = 'AGENT' and s.status = 'ACTIVE')::int as "activeAgents"`,
  );
  const { convertedLeads, ...counts } = row;
  return {
    ...counts,
    conversionRate: counts.totalLeads === 0 ? 0 : (convertedLeads / counts.totalLeads) * 100,
  };
}
