import type { AdminAgent } from '../../../shared/contracts/admin';
import type { AccountApproval } from '../../../shared/domain';
import type { Db } from '../../db/client';
import { notFound } from '../../lib/app-error';
import { businessDate } from '../../lib/business-time';
import { dailyQuotaLimit } from '../assignment/quota.service';
import { setAgentApproval } from '../auth/auth.service';
import { type AgentRow, listAgentRows } from './agents.repository';

/** The agents table: every agent, or those of one approval (PENDING: waiting for an admin). */
export async function listAgents(
  db: Db,
  timeZone: string,
  approval?: AccountApproval,
): Promise<AdminAgent[]> {
  const rows = await listAgentRows(db, businessDate(timeZone), undefined, timeZone, approval);
  return rows.map(toAdminAgent);
}

/**
 * An admin approves an agent (who may then work and get leads) or refuses them (REFUSED: they
 * cannot log in, and their sessions end). Either may be decided again later.
 */
export async function decideApproval(
  db: Db,
  timeZone: string,
  agentId: number,
  approve: boolean,
): Promise<AdminAgent> {
  if (!(await setAgentApproval(db, agentId, approve))) throw notFound('Agent');
  const agent = await findAgent(db, timeZone, agentId);
  if (!agent) throw notFound('Agent');
  return agent;
}

export async function findAgent(
  db: Db,
  timeZone: string,
  agentId: number,
): Promise<AdminAgent | null> {
  const [row] = await listAgentRows(db, businessDate(timeZone), agentId, timeZone);
  return row ? toAdminAgent(row) : null;
}

function toAdminAgent(row: AgentRow): AdminAgent {
  const { subscriptionId, status, packageName, priceMonthlyCents, category, leadsPerDay } = row;
  // a subscription always has its package (a NOT NULL foreign key): its fields come together
  const subscription =
    subscriptionId !== null &&
    status !== null &&
    packageName !== null &&
    priceMonthlyCents !== null &&
    category !== null &&
    leadsPerDay !== null
      ? {
          id: subscriptionId,
          status,
          package: { name: packageName, priceMonthlyCents, category, leadsPerDay },
        }
      : null;
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    approval: row.approval,
    totalLeads: row.totalLeads,
    convertedLeads: row.convertedLeads,
    // the same rule as the agent's own dashboard
    todayQuota: subscription
      ? {
          assigned: row.assignedToday,
          limit: dailyQuotaLimit(subscription.status, subscription.package.leadsPerDay),
        }
      : null,
    subscription,
    billing: billingOf(row),
    phone: row.phone,
    licensedStates: row.licensedStates,
    pause:
      row.paused && row.pausedSince !== null
        ? { since: new Date(row.pausedSince).toISOString(), until: row.pausedThrough }
        : null,
    disabled: row.disabled,
  };
}

/** What Stripe Billing says of the agent's subscription; null when Stripe never billed it. */
function billingOf(row: AgentRow): AdminAgent['billing'] {
  if (row.stripeSubscriptionId === null && row.lastInvoiceStatus === null) return null;
  const iso = (value: Date | string | null) =>
    value === null ? null : new Date(value).toISOString();
  const invoiceAt = iso(row.lastInvoiceAt);
  return {
    currentPeriodEnd: iso(row.currentPeriodEnd),
    lastInvoice:
      (row.lastInvoiceStatus === 'paid' || row.lastInvoiceStatus === 'failed') &&
      row.lastInvoiceAmountCents !== null &&
      invoiceAt !== null
        ? {
            status: row.lastInvoiceStatus,
            amountCents: row.lastInvoiceAmountCents,
            at: invoiceAt,
            url: row.lastInvoiceUrl,
          }
        : null,
  };
}
