import type { Analytics } from '../../../shared/contracts/admin';
import { LEAD_CATEGORIES, type LeadCategory } from '../../../shared/domain';
import type { Db } from '../../db/client';
import { businessDate } from '../../lib/business-time';
import { leadCountsByKey } from '../leads/leads.service';
import { assignmentsPerDay, topConverters } from './analytics.repository';

/**
 * The analytics screen's figures, for the business day that is today in `timeZone`, from the
 * counts the triggers keep (lead_counts, agent_lead_counts, assignment_counts): none of them
 * reads the leads or history tables.
 */
export async function getAnalytics(db: Db, timeZone: string): Promise<Analytics> {
  const today = businessDate(timeZone);
  const [counts, assignmentsOverTime, conversionsByAgent] = await Promise.all([
    leadCountsByKey(db),
    assignmentsPerDay(db, today, timeZone),
    topConverters(db),
  ]);
  let totalLeads = 0;
  let assignedLeads = 0;
  let convertedLeads = 0;
  const byCategory = new Map<LeadCategory, number>();
  for (const c of counts) {
    totalLeads += c.n;
    if (c.hasAgent) assignedLeads += c.n;
    if (c.status === 'CONVERTED') convertedLeads += c.n;
    byCategory.set(c.category, (byCategory.get(c.category) ?? 0) + c.n);
  }
  const categoryDistribution = LEAD_CATEGORIES.filter((c) => (byCategory.get(c) ?? 0) > 0).map(
    (category) => ({ category, count: byCategory.get(category) ?? 0 }),
  );
  return {
    totalLeads,
    assignedLeads,
    convertedLeads,
    assignmentsOverTime,
    conversionsByAgent,
    categoryDistribution,
  };
}
