import { type SQL, sql } from 'drizzle-orm';
import { LEAD_CATEGORIES, type LeadCategory } from '../../../shared/domain';
import { type Db, enumLiteral, queryRows } from '../../db/client';

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

export interface PreviewFilter {
  categories: LeadCategory[];
  states: string[];
  licensedStates: string[];
  /** normalized as the engine compares them (normalizeCity) */
  cities: string[];
  ageMin: number | null;
  ageMax: number | null;
}

/** A text list as a parameter (one JSON text), so the statement's shape does not vary with it. */
function textList(values: string[]): SQL {
  return sql`array(select jsonb_array_elements_text(${JSON.stringify(values)}::jsonb))`;
}

/**
 * Leads stored on each business date from `from` to `to` (both included) that the filter
 * matches: one range of the category's leads by creation time, the other conditions checked on
 * the index's columns (leads_preview_idx), only those the filter sets.
 */
export async function matchedPerDay(
  db: Db,
  filter: PreviewFilter,
  from: string,
  to: string,
  timeZone: string,
): Promise<{ date: string; count: number }[]> {
  if (filter.categories.length === 0) return [];
  const conditions: SQL[] = [
    sql`category in (${sql.join(
      filter.categories.map((c) => sql`${enumLiteral(c, LEAD_CATEGORIES)}::lead_category`),
      sql`, `,
    )})`,
    sql`created_at >= (${from}::date::timestamp at time zone ${timeZone})`,
    sql`created_at < ((${to}::date + 1)::timestamp at time zone ${timeZone})`,
  ];
  if (filter.states.length > 0) conditions.push(sql`state = any(${textList(filter.states)})`);
  if (filter.licensedStates.length > 0)
    conditions.push(sql`state = any(${textList(filter.licensedStates)})`);
  if (filter.cities.length > 0)
    conditions.push(
      sql`lower(regexp_replace(btrim(city), '\\s+', ' ', 'g')) = any(${textList(filter.cities)})`,
    );
  if (filter.ageMin !== null) conditions.push(sql`age >= ${filter.ageMin}`);
  if (filter.ageMax !== null) conditions.push(sql`age <= ${filter.ageMax}`);
  return queryRows<{ date: string; count: number }>(
    db,
    sql`select to_char((created_at at time zone ${timeZone})::date, 'YYYY-MM-DD') as date,
               count(*)::int as count
          from leads
         where ${sql.join(conditions, sql` and `)}
         group by 1`,
  );
}
