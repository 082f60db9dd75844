import { sql } from 'drizzle-orm';
import { LEAD_CATEGORIES, type LeadCategory } from '../../../shared/domain';
import { type Db, enumLiteral, queryRows } from '../../db/client';
import { normalizedCitySql } from '../fit/fit-rule-sql.service';
import { highestPriceSql } from '../fit/per-lead-price.service';

export interface AgentPackageFacts {
  category: LeadCategory | null;
  leadsPerDay: number | null;
  licensedStates: string[];
}

/** The agent's ACTIVE package (category, leads a day) and licence. */
export async function agentPackageFacts(db: Db, agentId: number): Promise<AgentPackageFacts> {
  const [row] = await queryRows<AgentPackageFacts>(
    db,
    sql`select p.category::text as category, p.leads_per_day as "leadsPerDay",
               u.licensed_states::text[] as "licensedStates"
          from users u
          left join subscriptions s on s.user_id = u.id and s.status = 'ACTIVE'
          left join packages p on p.id = s.package_id
         where u.id = ${agentId}`,
  );
  return row ?? { category: null, leadsPerDay: null, licensedStates: [] };
}

export interface DayCountRow {
  /** days after `from` */
  d: number;
  state: string;
  /** normalized as the fit rule compares cities */
  city: string;
  age: number;
  n: number;
}

/**
 * One category's leads stored on business dates from..to, counted by (day, state, city, age):
 * everything a preview filters on, so that any preferences are answered from these counts.
 */
export function categoryDayCounts(
  db: Db,
  category: LeadCategory,
  from: string,
  to: string,
  timeZone: string,
): Promise<DayCountRow[]> {
  return queryRows<DayCountRow>(
    db,
    sql`select (created_at at time zone ${timeZone})::date - ${from}::date as d, state,
               ${normalizedCitySql(sql`city`)} as city, age,
               count(*)::int as n
          from leads
         where category = ${enumLiteral(category, LEAD_CATEGORIES)}::lead_category
           and created_at >= (${from}::date::timestamp at time zone ${timeZone})
           and created_at < ((${to}::date + 1)::timestamp at time zone ${timeZone})
         group by 1, 2, 3, 4`,
  );
}

/**
 * One category's leads stored from the start of business date `from` in `timeZone`, counted by
 * the hour after that start (0: the first hour): how a day's leads spread over its hours, which
 * the preview reads to count what arrives within an agent's schedule.
 */
export function categoryHourCounts(
  db: Db,
  category: LeadCategory,
  from: string,
  to: string,
  timeZone: string,
): Promise<{ h: number; n: number }[]> {
  return queryRows<{ h: number; n: number }>(
    db,
    sql`select floor(extract(epoch from created_at
                  - (${from}::date::timestamp at time zone ${timeZone})) / 3600)::int as h,
               count(*)::int as n
          from leads
         where category = ${enumLiteral(category, LEAD_CATEGORIES)}::lead_category
           and created_at >= (${from}::date::timestamp at time zone ${timeZone})
           and created_at < ((${to}::date + 1)::timestamp at time zone ${timeZone})
         group by 1`,
  );
}

export interface AgentLimits {
  schedule: {
    timeZone: string;
    days: Record<string, { start: string; end: string } | null>;
  } | null;
  daily: number | null;
  weekly: number | null;
  monthly: number | null;
  monthlyBudgetCents: number | null;
  /** the most a lead of the agent's PER_LEAD package can cost; null: a subscription or none */
  highestCents: number | null;
}

/** The agent's schedule, caps and, on a PER_LEAD package, the highest price of a lead. */
export async function agentLimits(db: Db, agentId: number): Promise<AgentLimits> {
  const [row] = await queryRows<AgentLimits>(
    db,
    sql`select (select jsonb_build_object('timeZone', sc.time_zone, 'days', sc.days)
                  from agent_schedules sc where sc.user_id = u.id) as schedule,
               c.daily, c.weekly, c.monthly, c.monthly_budget_cents as "monthlyBudgetCents",
               case when p.pricing = 'PER_LEAD' then ${highestPriceSql(sql`p`)} end
                 as "highestCents"
          from users u
          left join agent_caps c on c.user_id = u.id
          left join subscriptions s on s.user_id = u.id and s.status = 'ACTIVE'
          left join packages p on p.id = s.package_id
         where u.id = ${agentId}`,
  );
  return (
    row ?? {
      schedule: null,
      daily: null,
      weekly: null,
      monthly: null,
      monthlyBudgetCents: null,
      highestCents: null,
    }
  );
}
