import type { Analytics } from '../../../shared/contracts/admin';
import type { PeriodQuery } from '../../../shared/contracts/analytics';
import { LEAD_CATEGORIES, type LeadCategory } from '../../../shared/domain';
import type { Db } from '../../db/client';
import { businessDate } from '../../lib/business-time';
import { leadCountsByKey } from '../leads/leads.service';
import {
  assignedByAgent,
  assignmentsPerDay,
  storedByCategory,
  TOP_AGENTS,
  topConverters,
} from './analytics.repository';
import { daysBetween, resolvePeriod } from './speed-and-sources.service';

/**
 * The analytics screen's figures, for the business day that is today in `timeZone`, from the
 * counts the triggers keep (lead_counts, agent_lead_counts, assignment_counts): none of them
 * reads the leads or history tables.
 */
export async function getAnalytics(
  db: Db,
  timeZone: string,
  period: PeriodQuery = {},
): Promise<Analytics> {
  if (period.from || period.to) return getAnalyticsOfPeriod(db, timeZone, period);
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
  const categoryDistribution = byCategoryList(byCategory);
  return {
    totalLeads,
    assignedLeads,
    convertedLeads,
    assignmentsOverTime,
    conversionsByAgent,
    categoryDistribution,
  };
}

function byCategoryList(byCategory: Map<LeadCategory, number>): Analytics['categoryDistribution'] {
  return LEAD_CATEGORIES.filter((c) => (byCategory.get(c) ?? 0) > 0).map((category) => ({
    category,
    count: byCategory.get(category) ?? 0,
  }));
}

/**
 * The same figures for a period of business dates (docs/domain.md, Analytics that explain):
 * Total Leads and the categories count the leads stored in it; Assigned Leads, Converted and the
 * agents' conversions count the leads assigned in it (as speed to lead does), converted by now;
 * the chart has one point per day of the period.
 */
async function getAnalyticsOfPeriod(
  db: Db,
  timeZone: string,
  query: PeriodQuery,
): Promise<Analytics> {
  const { from, to } = resolvePeriod(query, timeZone);
  const [stored, agents, assignmentsOverTime] = await Promise.all([
    storedByCategory(db, from, to, timeZone),
    assignedByAgent(db, from, to),
    assignmentsPerDay(db, to, timeZone, daysBetween(from, to) + 1),
  ]);
  const byCategory = new Map(stored.map((r) => [r.category, r.n]));
  return {
    totalLeads: stored.reduce((n, r) => n + r.n, 0),
    assignedLeads: agents.reduce((n, a) => n + a.assigned, 0),
    convertedLeads: agents.reduce((n, a) => n + a.converted, 0),
    assignmentsOverTime,
    conversionsByAgent: agents
      .filter((a) => a.converted > 0)
      .slice(0, TOP_AGENTS)
      .map((a) => ({ name: a.name, converted: a.converted })),
    categoryDistribution: byCategoryList(byCategory),
  };
}
