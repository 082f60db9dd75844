import { type SQL, sql } from 'drizzle-orm';
import type { Lead, LeadListQuery } from '../../../shared/contracts/leads';
import { LEAD_STATUSES, type LeadStatus } from '../../../shared/domain';
import { type Db, intArrayLiteral, queryRows } from '../../db/client';
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

/** A row of `leads` as raw SQL answers it. */
export interface LeadRow {
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

export function leadFromRow(row: LeadRow): Lead {
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
  return leadFromRow({
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

/**
 * A lead status written into the statement as a literal, so the planner sees which status (and
 * can pick a partial or status index); only the enum's own values ever get here.
 */
export function leadStatusLiteral(status: LeadStatus): SQL {
  if (!(LEAD_STATUSES as readonly string[]).includes(status))
    throw new Error('unknown lead status');
  return sql.raw(`'${status}'`);
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
 * or leads_status_idx backwards and the total comes from the kept counts. A search first reads
 * the newest search documents in id order (RECENT_SEARCH_WINDOW); when they do not fill the page
 * it goes through the trigram index of lead_search (plus the id ranges still queued for it).
 */
export async function listLeadsPage(db: Db, query: LeadListQuery): Promise<LeadsPage> {
  const limit = query.limit ?? DEFAULT_PAGE_SIZE;
  const offset = query.offset ?? 0;
  const status = query.status ? leadStatusLiteral(query.status) : null;
  if (!query.q) {
    const [rows, total] = await Promise.all([
      queryRows<LeadRow>(
        db,
        sql`select * from leads ${status ? sql`where status = ${status}` : sql``}
            order by id desc limit ${limit} offset ${offset}`,
      ),
      leadTotal(db, query.status),
    ]);
    return { leads: rows.map(leadFromRow), total, exact: true };
  }

  const queued = await queuedRanges(db);
  if (queued.length === 0 && !query.q.includes(DOC_SEPARATOR)) {
    const recent = await searchRecent(db, query.q, query.status);
    const need = offset + limit;
    const found = recent.ids.length;
    // enough matches among the newest leads for this page (or the window held every lead)
    if (found > SEARCH_COUNT_LIMIT ? need <= found : recent.complete || found > need) {
      const pageIds = recent.ids.slice(offset, need);
      const rows = pageIds.length
        ? await queryRows<LeadRow>(
            db,
            sql`select * from leads where id = any(${intArrayLiteral(pageIds, 'bigint')}) order by id desc`,
          )
        : [];
      const capped = found > SEARCH_COUNT_LIMIT;
      return {
        leads: rows.map(leadFromRow),
        total: capped ? SEARCH_COUNT_LIMIT : found,
        exact: recent.complete && !capped,
      };
    }
  }

  const matches = searchMatches(query.q, queued);
  const statusFilter = status ? sql`and l.status = ${status}` : sql``;
  const [rows, [{ n }]] = await Promise.all([
    queryRows<LeadRow>(
      db,
      status
        ? sql`select l.* from ${matches} m join leads l on l.id = m.id
              where true ${statusFilter}
              order by m.id desc limit ${limit} offset ${offset}`
        : // the page's ids first, then only those leads are read
          sql`select l.* from (select m.id from ${matches} m
                               order by m.id desc limit ${limit} offset ${offset}) p
              join leads l on l.id = p.id order by l.id desc`,
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
  return { leads: rows.map(leadFromRow), total: exact ? n : SEARCH_COUNT_LIMIT, exact };
}

/**
 * How many of the newest search documents a search reads in id order before it turns to the
 * trigram index. A common word ("smith": 1.6% of the leads) fills a page within them in a few
 * milliseconds, where the index would hand over all of its 16,000 matches to be sorted; a rare
 * one (a phone number) is not found there and goes to the index, which is then quick.
 */
export const RECENT_SEARCH_WINDOW = 5_000;

interface RecentMatches {
  /** matching lead ids, newest first, at most SEARCH_COUNT_LIMIT + 1 */
  ids: number[];
  /** whether the window held every search document (the ids are then all the matches) */
  complete: boolean;
}

async function searchRecent(db: Db, q: string, status?: LeadStatus): Promise<RecentMatches> {
  const pattern = likePattern(q);
  const statusJoin = status
    ? sql`join leads l on l.id = w.lead_id and l.status = ${leadStatusLiteral(status)}`
    : sql``;
  const [row] = await queryRows<{ ids: (number | string)[]; scanned: number }>(
    db,
    sql`with w as materialized (
          select lead_id, doc from lead_search order by lead_id desc limit ${RECENT_SEARCH_WINDOW}
        )
        select (select count(*) from w)::int as scanned,
               array(select w.lead_id from w ${statusJoin}
                      where w.doc like lower(${pattern})
                      order by w.lead_id desc limit ${SEARCH_COUNT_LIMIT + 1}) as ids`,
  );
  return { ids: row.ids.map(Number), complete: row.scanned < RECENT_SEARCH_WINDOW };
}

/** Id ranges of large inserts that the background indexer has not reached yet. */
function queuedRanges(db: Db) {
  return queryRows<{ first_id: number; last_id: number }>(
    db,
    sql`select first_id, last_id from lead_search_queue order by first_id`,
  );
}

/**
 * The ids of the leads whose first name, last name, phone or email contains `q`, ignoring case
 * (ILIKE's meaning: both sides lowercased), as a subquery with one column `id`.
 */
function searchMatches(q: string, queued: { first_id: number; last_id: number }[]): SQL {
  const pattern = likePattern(q);
  if (q.includes(DOC_SEPARATOR)) {
    return sql`(select id from leads where first_name ilike ${pattern} or last_name ilike ${pattern}
                or phone ilike ${pattern} or email ilike ${pattern})`;
  }
  const indexed = sql`select lead_id as id from lead_search where doc like lower(${pattern})`;
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
