import { sql } from 'drizzle-orm';
import type { AccountApproval, LeadCategory, SubscriptionStatus } from '../../../shared/domain';
import { type Db, queryRows } from '../../db/client';

export interface AgentRow {
  id: number;
  name: string;
  email: string;
  approval: AccountApproval;
  subscriptionId: number | null;
  status: SubscriptionStatus | null;
  packageName: string | null;
  priceMonthlyCents: number | null;
  leadsPerDay: number | null;
  category: LeadCategory | null;
  totalLeads: number;
  convertedLeads: number;
  assignedToday: number;
  /** Stripe Billing (docs/domain.md, Billing) */
  stripeSubscriptionId: string | null;
  currentPeriodEnd: Date | string | null;
  lastInvoiceStatus: string | null;
  lastInvoiceAmountCents: number | null;
  lastInvoiceAt: Date | string | null;
  lastInvoiceUrl: string | null;
  /** docs/domain.md, Pause and Licensed states */
  phone: string | null;
  licensedStates: string[];
  pausedSince: Date | string | null;
  /** the last paused business date; null while paused until resumed */
  pausedThrough: string | null;
  paused: boolean;
  /** docs/domain.md, Offboarding */
  disabled: boolean;
}

/**
 * Every agent with their subscription, lead counts and today's quota use: one statement. The
 * totals come from the counts the triggers keep (agent_lead_counts), today's assignments from
 * leads_assigned_day_idx: neither reads an agent's whole history.
 */
export async function listAgentRows(
  db: Db,
  today: string,
  onlyAgentId?: number,
  timeZone = 'America/New_York',
  approval?: AccountApproval,
): Promise<AgentRow[]> {
  return queryRows<AgentRow>(
    db,
    sql`
      select u.id, u.name, u.email, u.approval,
             s.id as "subscriptionId", s.status, p.name as "packageName",
             p.price_monthly_cents as "priceMonthlyCents", p.leads_per_day as "leadsPerDay",
             p.category,
             coalesce(l.total, 0)::int as "totalLeads",
             coalesce(l.converted, 0)::int as "convertedLeads",
             coalesce(t.today, 0)::int as "assignedToday",
             s.stripe_subscription_id as "stripeSubscriptionId",
             s.current_period_end as "currentPeriodEnd",
             s.last_invoice_status as "lastInvoiceStatus",
             s.last_invoice_amount_cents as "lastInvoiceAmountCents",
             s.last_invoice_at as "lastInvoiceAt", s.last_invoice_url as "lastInvoiceUrl",
             u.phone, u.licensed_states::text[] as "licensedStates",
             u.paused_at as "pausedSince",
             to_char((u.paused_until at time zone ${timeZone})::date - 1, 'YYYY-MM-DD')
               as "pausedThrough",
             (u.paused_at is not null and (u.paused_until is null or u.paused_until > now()))
               as "paused",
             u.disabled_at is not null as disabled
      from users u
      left join subscriptions s on s.user_id = u.id
      left join packages p on p.id = s.package_id
      left join (
        select agent_id, sum(n) as total, sum(n) filter (where status = 'CONVERTED') as converted
        from agent_lead_counts
        ${onlyAgentId === undefined ? sql`` : sql`where agent_id = ${onlyAgentId}`}
        group by agent_id
      ) l on l.agent_id = u.id
      left join (
        select agent_id, count(*) as today
        from leads
        where assigned_on = ${today}::date and agent_id is not null
          ${onlyAgentId === undefined ? sql`` : sql`and agent_id = ${onlyAgentId}`}
        group by agent_id
      ) t on t.agent_id = u.id
      where u.role = 'AGENT' ${onlyAgentId === undefined ? sql`` : sql`and u.id = ${onlyAgentId}`}
        ${approval === undefined ? sql`` : sql`and u.approval = ${approval}::account_approval`}
      order by lower(u.name), u.id`,
  );
}
