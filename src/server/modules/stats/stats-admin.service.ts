import type { AdminStats } from '../../../shared/contracts/admin';
import type { Db } from '../../db/client';
import { leadCountsByKey } from '../leads/leads.service';
import { countPackagesAndAgents } from './stats-admin.repository';

/**
 * The admin dashboard's figures: lead figures from the kept counts (a million leads cost a few
 * dozen counter rows), packages and agents counted (small tables). The conversion rate is
 * converted leads over the leads given to an agent (a lead no agent had cannot convert), in
 * percent.
 */
export async function getAdminStats(db: Db): Promise<AdminStats> {
  const [counts, row] = await Promise.all([leadCountsByKey(db), countPackagesAndAgents(db)]);
  let totalLeads = 0;
  let unassignedLeads = 0;
  let assignedLeads = 0;
  let convertedLeads = 0;
  for (const c of counts) {
    totalLeads += c.n;
    if (c.hasAgent) assignedLeads += c.n;
    if (c.status === 'NEW' && !c.hasAgent) unassignedLeads += c.n;
    if (c.status === 'CONVERTED') convertedLeads += c.n;
  }
  return {
    ...row,
    totalLeads,
    unassignedLeads,
    conversionRate: assignedLeads === 0 ? 0 : (convertedLeads / assignedLeads) * 100,
  };
}
