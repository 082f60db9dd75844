import { type SQL, sql } from 'drizzle-orm';
import type { Lead, LeadListQuery } from '../../../shared/contracts/leads';
import type { LeadStatus } from '../../../shared/domain';
import { type Db, queryRows } from '../../db/client';
import type { leads } from '../../db/schema';
import { leadTotal } from './lead-counts.repository';

export const DEFAULT_PAGE_SIZE = 50;

/**
 * A search counts its matches exactly up to this many; past it the total is this figure with
 * `exact: false` (the page shows "1,000+"): counting every match of a common word (16,000 for
 * "smith" in a million leads) would cost a visit to each of them on every page, ~150 ms here,
 * against ~20 ms for the first thousand.
 */
export const SEARCH_COUNT_LIMIT = 1_000;

/** The separator of lead_search.doc: a search holding it falls back to testing each field. */
const DOC_SEPARATOR = '\u001f';

interface LeadRow {
  id: number;
  external_id: string | null;
  first_name: string | null;
  last_name: string | null;
  phone: string | null;
  email: string | null;
  city: string;
  state: string;
  age: number;
  category: Lead['category'];
  status: Lead['status'];
  agent_id: number | null;
  assigned_at: Date | string | null;
  created_at: Date | string;
}

const iso = (v: Date | string) => (v instanceof Date ? v : new Date(v)).toISOString();

function fromRow(row: LeadRow): Lead {
  return {
    id: Number(row.id),
    firstName: row.first_name,
    lastName: row.last_name,
    phone: row.phone,
    email: row.email,
    city: row.city,
    state: row.state,
    age: row.age,
    category: row.category,
    status: row.status,
    externalId: row.external_id,
    agentId: row.agent_id,
    assignedAt: row.assigned_at === null ? null : iso(row.assigned_at),
    createdAt: iso(row.created_at),
  };
}

/** A lead as the API shows it, from a Drizzle row. */
export function toLead(row: typeof leads.$inferSelect): Lead {
  return fromRow({
    id: row.id,
    external_id: row.externalId,
    first_name: row.firstName,
    last_name: row.lastName,
    phone: row.phone,
    email: row.email,
    city: row.city,
    state: row.state,
    age: row.age,
    category: row.category,
    status: row.status,
    agent_id: row.agentId,
    assigned_at: row.assignedAt,
    created_at: row.createdAt,
  });
}

/** `%`, `_` and `\` typed by the admin are matched literally. */
export function likePattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export interface LeadsPage {
  leads: Lead[];
  total: number;
  /** false when a search has more than SEARCH_COUNT_LIMIT matches (total is then that limit) */
  exact: boolean;
}

/**
 * One page of leads, newest (highest id) first. Without a search the page reads the primary key
 * or leads_status_idx backwards and the total comes from the kept counts; a search goes through
 * the trigram index of lead_search (plus the id ranges still queued for it).
 */
export async function listLeadsPage(db: Db, query: LeadListQuery): Promise<LeadsPage> {
  const limit = query.limit ?? DEFAULT_PAGE_SIZE;
  const offset = query.offset ?? 0;
  // an enum value checked by the schema, written as a literal so the planner sees it
  const status = query.status ? sql.raw(`'${query.status satisfies LeadStatus}'`) : null;
  if (!query.q) {
    const [rows, total] = await Promise.all([
      queryRows<LeadRow>(
        db,
        sql`select * from leads ${status ? sql`where status = ${status}` : sql``}
            order by id desc limit ${limit} offset ${offset}`,
      ),
      leadTotal(db, query.status),
    ]);
    return { leads: rows.map(fromRow), total, exact: true };
  }

  const matches = await searchMatches(db, query.q);
  const statusFilter = status ? sql`and l.status = ${status}` : sql``;
  const [rows, [{ n }]] = await Promise.all([
    queryRows<LeadRow>(
      db,
      sql`select l.* from ${matches} m join leads l on l.id = m.id
          where true ${statusFilter}
          order by m.id desc limit ${limit} offset ${offset}`,
    ),
    queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from (
            select 1 from ${matches} m
            ${status ? sql`join leads l on l.id = m.id where true ${statusFilter}` : sql``}
            limit ${SEARCH_COUNT_LIMIT + 1}) capped`,
    ),
  ]);
  const exact = n <= SEARCH_COUNT_LIMIT;
  return { leads: rows.map(fromRow), total: exact ? n : SEARCH_COUNT_LIMIT, exact };
}

/**
 * The ids of the leads whose first name, last name, phone or email contains `q`, ignoring case
 * (ILIKE's meaning: both sides lowercased), as a subquery with one column `id`.
 */
async function searchMatches(db: Db, q: string): Promise<SQL> {
  const pattern = likePattern(q);
  if (q.includes(DOC_SEPARATOR)) {
    return sql`(select id from leads where first_name ilike ${pattern} or last_name ilike ${pattern}
                or phone ilike ${pattern} or email ilike ${pattern})`;
  }
  const indexed = sql`select lead_id as id from lead_search where doc like lower(${pattern})`;
  // leads of a large insert that the background indexer has not reached yet
  const queued = await queryRows<{ first_id: number; last_id: number }>(
    db,
    sql`select first_id, last_id from lead_search_queue order by first_id`,
  );
  if (queued.length === 0) return sql`(${indexed})`;
  const ranges = sql.join(
    queued.map((r) => sql`id between ${r.first_id} and ${r.last_id}`),
    sql` or `,
  );
  return sql`(select distinct id from (
      ${indexed}
      union all
      select id from leads
      where (${ranges})
        and lead_search_doc(first_name, last_name, phone, email) like lower(${pattern})
    ) both_parts)`;
}
