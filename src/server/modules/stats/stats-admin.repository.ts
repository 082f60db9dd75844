import { sql } from 'drizzle-orm';
import type { AdminStats } from '../../../shared/contracts/admin';
import { type Db, queryRows } from '../../db/client';

export type PackageAndAgentCounts = Pick<
  AdminStats,
  'totalPackages' | 'activePackages' | 'totalAgents' | 'activeAgents'
>;

/** Packages and agents counted (small tables), in one statement. */
export async function countPackagesAndAgents(db: Db): Promise<PackageAndAgentCounts> {
  const [row] = await queryRows<PackageAndAgentCounts>(
    db,
    sql`
      select
        (select count(*) from packages)::int as "totalPackages",
        (select count(*) from packages where active)::int as "activePackages",
        (select count(*) from users where role = 'AGENT')::int as "totalAgents",
        (select count(*) from users u join subscriptions s on s.user_id = u.id
          where u.role = 'AGENT' and s.status = 'ACTIVE')::int as "activeAgents"`,
  );
  return row;
}
