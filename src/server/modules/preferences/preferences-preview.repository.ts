import { sql } from 'drizzle-orm';
import { LEAD_CATEGORIES, type LeadCategory } from '../../../shared/domain';
import { type Db, enumLiteral, queryRows } from '../../db/client';
import { normalizedCitySql } from '../fit/fit-rule-sql.service';

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
