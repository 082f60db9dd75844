import type { AgentStats } from '../../../shared/contracts/agent';
import type { Db } from '../../db/client';
import { businessDate } from '../../lib/business-time';
import { assignedOnBusinessDate, dailyQuotaLimit } from '../assignment/quota.service';
import { findAgentSubscription } from '../subscriptions/subscriptions.service';
import { countLeadsOfAgent } from './stats-agent.repository';

/**
 * The dashboard's numbers. Today's quota counts every lead assigned to the agent on today's
 * business date (any trigger); its limit is the package's leads per day while the subscription
 * is ACTIVE, and 0 otherwise (only active subscribers receive leads).
 */
export async function getAgentStats(
  db: Db,
  timeZone: string,
  agentId: number,
): Promise<AgentStats> {
  const today = businessDate(timeZone);
  const [subscription, assignedToday, counts] = await Promise.all([
    findAgentSubscription(db, agentId),
    assignedOnBusinessDate(db, today, [agentId]),
    countLeadsOfAgent(db, agentId),
  ]);
  const limit = subscription
    ? dailyQuotaLimit(subscription.status, subscription.package.leadsPerDay)
    : 0;
  return {
    ...(subscription ? { subscription } : {}),
    todayQuota: { assigned: assignedToday.get(agentId) ?? 0, limit },
    totalLeads: counts.total,
    convertedLeads: counts.converted,
  };
}
