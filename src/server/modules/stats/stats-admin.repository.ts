import { sql } from 'drizzle-orm';
import type { AdminStats } from '../../../shared/contracts/admin';
import { type Db, queryRows } from '../../db/client';
import { readLeadCounts } from '../leads/lead-counts.repository';

/**
 * The admin dashboard's figures: lead figures from the kept counts (a million leads cost a few
 * dozen counter rows), packages and agents counted (small tables).
 */
export async function adminStats(db: Db): Promise<AdminStats> {
  const [counts, [row]] = await Promise.all([
    readLeadCounts(db),
    queryRows<
      Pick<AdminStats, 'totalPackages' | 'activePackages' | 'totalAgents' | 'activeAgents'>
    >(
      db,
      sql`
        select
          (select count(*) from packages)::int as "totalPackages",
          (select count(*) from packages where active)::int as "activePackages",
          (select count(*) from users where role = 'AGENT')::int as "totalAgents",
          (select count(*) from users u join subscriptions s on s.user_id = u.id
            where u.role = 'AGENT' and s.status = 'ACTIVE')::int as "activeAgents"`,
    ),
  ]);
  let totalLeads = 0;
  let unassignedLeads = 0;
  let convertedLeads = 0;
  for (const c of counts) {
    totalLeads += c.n;
    if (c.status === 'NEW' && !c.hasAgent) unassignedLeads += c.n;
    if (c.status === 'CONVERTED') convertedLeads += c.n;
  }
  return {
    totalPackages: row.totalPackages,
    activePackages: row.activePackages,
    totalLeads,
    unassignedLeads,
    totalAgents: row.totalAgents,
    activeAgents: row.activeAgents,
    conversionRate: totalLeads === 0 ? 0 : (convertedLeads / totalLeads) * 100,
  };
}
