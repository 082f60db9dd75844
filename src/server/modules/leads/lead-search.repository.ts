import { and, desc, eq, lt, type SQL, sql } from 'drizzle-orm';
import type {
  AgentLeadListQuery,
  AgentLeadSort,
  Lead,
  LeadListQuery,
} from '../../../shared/contracts/leads';
import { LEAD_STATUSES, type LeadStatus } from '../../../shared/domain';
import {
  type Db,
  enumLiteral,
  intArrayLiteral,
  queryPreparedRows,
  queryRows,
} from '../../db/client';
import { leads, users } from '../../db/schema';
import { compactLeadCountsIfNeeded, leadTotalQuery } from './lead-counts.repository';

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

/** A lead as the API shows it, from a Drizzle row (single-lead answers; lists: LEAD_FIELDS). */
export function toLead(row: typeof leads.$inferSelect): Lead {
  return {
    id: row.id,
    firstName: row.firstName,
    lastName: row.lastName,
    phone: row.phone,
    email: row.email,
    city: row.city,
    state: row.state,
    age: row.age,
    category: row.category,
    status: row.status,
    externalId: row.externalId,
    agentId: row.agentId,
    assignedAt: row.assignedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    zip: row.zip,
    timeZone: row.timeZone,
    sourceId: row.sourceId,
    consentAt: row.consentAt?.toISOString() ?? null,
    consentText: row.consentText,
    trustedFormCertUrl: row.trustedFormCertUrl,
    jornayaLeadId: row.jornayaLeadId,
    consentIp: row.consentIp,
    consentOutcome: row.consentOutcome,
    consentVerifiedAt: row.consentVerifiedAt?.toISOString() ?? null,
    consentExpiresAt: row.consentExpiresAt?.toISOString() ?? null,
    returnedAt: row.returnedAt?.toISOString() ?? null,
    anonymizedAt: row.anonymizedAt?.toISOString() ?? null,
    optedOutAt: row.optedOutAt?.toISOString() ?? null,
    firstContactAt: row.firstContactAt?.toISOString() ?? null,
  };
}

/** A timestamptz column as Date.toISOString() writes it (UTC, milliseconds, "Z"). */
const isoText = (column: string) =>
  `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * The Lead contract's fields, as toLead names and writes them, selected from the leads row
 * `l`: the list answers are built of them by the database (decision 011), one JSON text per page
 * that the server sends as it is, instead of rows it would parse, map, validate and serialize.
 */
const LEAD_FIELDS = sql.raw(`select l.id, l.first_name as "firstName", l.last_name as "lastName",
  l.phone, l.email, l.city, l.state, l.age, l.category, l.status, l.external_id as "externalId",
  l.agent_id as "agentId", ${isoText('l.assigned_at')} as "assignedAt",
  ${isoText('l.created_at')} as "createdAt", l.zip, l.time_zone as "timeZone",
  l.source_id as "sourceId", ${isoText('l.consent_at')} as "consentAt",
  l.consent_text as "consentText", l.trusted_form_cert_url as "trustedFormCertUrl",
  l.jornaya_lead_id as "jornayaLeadId", l.consent_ip as "consentIp",
  l.consent_outcome as "consentOutcome", ${isoText('l.consent_verified_at')} as "consentVerifiedAt",
  ${isoText('l.consent_expires_at')} as "consentExpiresAt",
  ${isoText('l.returned_at')} as "returnedAt", ${isoText('l.anonymized_at')} as "anonymizedAt",
  ${isoText('l.opted_out_at')} as "optedOutAt",
  ${isoText('l.first_contact_at')} as "firstContactAt", l.return_pending as "returnPending",
  l.on_dnc as "onDnc"`);

/**
 * The leads rows `rows` selects, each with `return_pending`: the agent's return of it waits for a
 * decision, and `on_dnc`: its phone is on the do-not-call list now. Joined to the rows as
 * selected (a page, already limited): at most one PENDING return per lead
 * (lead_returns_lead_key), so a lead is never repeated; the list is probed by its primary key.
 */
function withListFlags(rows: SQL): SQL {
  return sql`select p.*, r.lead_id is not null as return_pending,
                    (p.phone is not null
                     and exists (select 1 from dnc_numbers d where d.phone = p.phone)) as on_dnc
               from (${rows}) p
               left join lead_returns r on r.lead_id = p.id and r.status = 'PENDING'`;
}

/**
 * One lead as the lists show it (returnPending included), as JSON text; null when there is no
 * such lead, or, with `agentId`, when it is not that agent's.
 */
export async function findLeadJson(
  db: Db,
  leadId: number,
  agentId?: number,
): Promise<string | null> {
  const own = agentId === undefined ? sql`` : sql`and agent_id = ${agentId}`;
  const [row] = await queryRows<{ lead: string }>(
    db,
    sql`select row_to_json(lead)::text as lead
          from (${withListFlags(sql`select * from leads where id = ${leadId} ${own}`)}) l,
               lateral (${LEAD_FIELDS}) lead`,
  );
  return row?.lead ?? null;
}

/**
 * A subquery of one row: `leads`, the JSON array (as text) of the leads rows that `rows` selects,
 * in `order` (written against the alias `l`), '[]' when there are none; `n`, how many.
 * (json_agg of a record costs the database half what json_build_object does per lead.)
 */
export function leadsJsonPage(rows: SQL, order: SQL): SQL {
  return sql`(select coalesce(json_agg(lead order by ${order}), '[]')::text as leads,
                     count(*)::int as n
              from (${withListFlags(rows)}) l, lateral (${LEAD_FIELDS}) lead)`;
}

/** `%`, `_` and `\` typed by the admin are matched literally. */
export function likePattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Only what phone numbers are written with: digits, spaces, brackets, dots, dashes, a plus. */
const PHONE_LIKE = /^[\d\s().+-]+$/;

/**
 * A search's words: what the user typed, split at white space. A lead matches when every word is
 * found in one of its fields, so "Karen Brown" and "Brown Karen" both find Karen Brown
 * (docs/domain.md, Lists, search and export).
 */
export function searchTerms(q: string): string[] {
  // a phone number in any spelling ('(813) 555-0199', '813.555.0199', '+1 813 555 0199', or a
  // part of one): its digits, found within the stored E.164
  if (PHONE_LIKE.test(q) && (q.match(/\d/g)?.length ?? 0) >= 3) return [q.replace(/\D/g, '')];
  const words = q
    .trim()
    .split(/\s+/)
    .filter((w) => w !== '');
  return words.length === 0 ? [q] : [...new Set(words)];
}

/**
 * Every word of `q` in one of the lead's four searched fields (ILIKE: case ignored); `table`
 * qualifies the columns where another joined table has the same names.
 */
function fieldsMatch(q: string, table = ''): SQL {
  const [first, last, phone, email] = ['first_name', 'last_name', 'phone', 'email'].map((c) =>
    sql.raw(table ? `${table}.${c}` : c),
  );
  return sql.join(
    searchTerms(q).map((term) => {
      const p = likePattern(term);
      return sql`(${first} ilike ${p} or ${last} ilike ${p} or ${phone} ilike ${p} or ${email} ilike ${p})`;
    }),
    sql` and `,
  );
}

/** Every word of `q` in the search document `doc` (lowercased, fields apart: see lead_search_doc). */
function docMatches(doc: SQL, q: string): SQL {
  return sql.join(
    searchTerms(q).map((term) => sql`${doc} like lower(${likePattern(term)})`),
    sql` and `,
  );
}

export interface LeadsPage {
  /** the page's leads as a JSON array (leadsJsonPage) */
  leadsJson: string;
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
  const status = query.status ? enumLiteral(query.status, LEAD_STATUSES) : null;
  if (!query.q) {
    const [row] = await queryPreparedRows<{ leads: string; n: number; deltas: number }>(
      db,
      sql`select page.leads, total.n, total.deltas
          from ${leadsJsonPage(
            sql`select * from leads ${status ? sql`where status = ${status}` : sql``}
                order by id desc limit ${limit} offset ${offset}`,
            sql`l.id desc`,
          )} page, ${leadTotalQuery(query.status)} total`,
    );
    await compactLeadCountsIfNeeded(db, row.deltas);
    return { leadsJson: row.leads, total: row.n, exact: true };
  }

  const queued = await queuedRanges(db);
  if (queued.length === 0 && !query.q.includes(DOC_SEPARATOR)) {
    const recent = await searchRecent(db, query.q, query.status);
    const need = offset + limit;
    const found = recent.ids.length;
    // enough matches among the newest leads for this page (or the window held every lead)
    if (found > SEARCH_COUNT_LIMIT ? need <= found : recent.complete || found > need) {
      const pageIds = recent.ids.slice(offset, need);
      const [row] = pageIds.length
        ? await queryRows<{ leads: string }>(
            db,
            sql`select leads from ${leadsJsonPage(
              sql`select * from leads where id = any(${intArrayLiteral(pageIds, 'bigint')})`,
              sql`l.id desc`,
            )} page`,
          )
        : [{ leads: '[]' }];
      const capped = found > SEARCH_COUNT_LIMIT;
      return {
        leadsJson: row.leads,
        total: capped ? SEARCH_COUNT_LIMIT : found,
        exact: recent.complete && !capped,
      };
    }
  }

  const matches = searchMatches(query.q, queued);
  const statusFilter = status ? sql`and l.status = ${status}` : sql``;
  const [[page], [{ n }]] = await Promise.all([
    queryRows<{ leads: string }>(
      db,
      sql`select leads from ${leadsJsonPage(
        status
          ? sql`select l.* from ${matches} m join leads l on l.id = m.id
                where true ${statusFilter}
                order by m.id desc limit ${limit} offset ${offset}`
          : // the page's ids first, then only those leads are read
            sql`select l.* from (select m.id from ${matches} m
                                 order by m.id desc limit ${limit} offset ${offset}) p
                join leads l on l.id = p.id`,
        sql`l.id desc`,
      )} page`,
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
  return { leadsJson: page.leads, total: exact ? n : SEARCH_COUNT_LIMIT, exact };
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
  const statusJoin = status
    ? sql`join leads l on l.id = w.lead_id and l.status = ${enumLiteral(status, LEAD_STATUSES)}`
    : sql``;
  const [row] = await queryRows<{ ids: (number | string)[]; scanned: number }>(
    db,
    sql`with w as materialized (
          select lead_id, doc from lead_search order by lead_id desc limit ${RECENT_SEARCH_WINDOW}
        )
        select (select count(*) from w)::int as scanned,
               array(select w.lead_id from w ${statusJoin}
                      where ${docMatches(sql`w.doc`, q)}
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
  if (q.includes(DOC_SEPARATOR)) {
    return sql`(select id from leads where ${fieldsMatch(q)})`;
  }
  const indexed = sql`select lead_id as id from lead_search where ${docMatches(sql`doc`, q)}`;
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
        and ${docMatches(sql`lead_search_doc(first_name, last_name, phone, email)`, q)}
    ) both_parts)`;
}

/** One page of an agent's leads (or all of them), with how many match in all. */
export interface AgentLeadsPage {
  /** the page's leads as a JSON array (leadsJsonPage) */
  leadsJson: string;
  total: number;
}

/**
 * My Leads' orders, each read as it is from an index on (agent_id, ...) (leads_agent_uncontacted_idx,
 * leads_agent_received_idx; oldest first reads the latter backwards), written for the page's
 * select and for its JSON (alias `l`).
 */
const AGENT_ORDERS: Record<AgentLeadSort, (alias: string) => string> = {
  uncontacted: (a) => `(${a}status <> 'ASSIGNED'), ${a}assigned_at desc, ${a}id desc`,
  newest: (a) => `${a}assigned_at desc, ${a}id desc`,
  oldest: (a) => `${a}assigned_at asc nulls last, ${a}id asc nulls last`,
};

/**
 * The agent's leads in the query's order (the uncontacted first by default): one page (with the
 * total) when the query has a limit, else all of them. One statement: the page as JSON, and the
 * total from the kept counts (or, for a search, by counting).
 */
export async function listLeadsOfAgent(
  db: Db,
  agentId: number,
  query: AgentLeadListQuery,
): Promise<AgentLeadsPage> {
  const order = AGENT_ORDERS[query.sort ?? 'uncontacted'];
  const status = query.status
    ? sql`and status = ${enumLiteral(query.status, LEAD_STATUSES)}`
    : sql``;
  const search = query.q ? sql`and ${fieldsMatch(query.q)}` : sql``;
  const where = sql`agent_id = ${agentId} ${status} ${search}`;
  const paged = query.limit !== undefined;
  const page = leadsJsonPage(
    sql`select * from leads where ${where} order by ${sql.raw(order(''))}
        ${paged ? sql`limit ${query.limit} offset ${query.offset ?? 0}` : sql``}`,
    sql.raw(order('l.')),
  );
  const total = !paged
    ? sql`page.n`
    : query.q
      ? sql`(select count(*)::int from leads where ${where})`
      : sql`(select coalesce(sum(n), 0)::int from agent_lead_counts
             where agent_id = ${agentId} ${status})`;
  const [row] = await queryPreparedRows<{ leads: string; total: number }>(
    db,
    sql`select page.leads, ${total} as total from ${page} page`,
  );
  return { leadsJson: row.leads, total: row.total };
}

/** The export's filter: the leads list's (a status, and every word of the search). */
function exportFilter(filter: { status?: LeadStatus; q?: string }): SQL[] {
  const conditions: SQL[] = [];
  if (filter.status) conditions.push(eq(leads.status, filter.status));
  if (filter.q) conditions.push(fieldsMatch(filter.q, 'leads'));
  return conditions;
}

/**
 * One batch of the export: the leads matching the filter below `afterId` (keyset pagination on
 * the primary key, newest first), with the exported columns and the agent who holds the lead.
 */
export function readExportBatch(
  db: Db,
  filter: { status?: LeadStatus; q?: string },
  afterId: number | null,
  batchSize: number,
) {
  const after: SQL[] = afterId === null ? [] : [lt(leads.id, afterId)];
  return db
    .select({
      id: leads.id,
      firstName: leads.firstName,
      lastName: leads.lastName,
      phone: leads.phone,
      email: leads.email,
      city: leads.city,
      state: leads.state,
      age: leads.age,
      category: leads.category,
      status: leads.status,
      externalId: leads.externalId,
      createdAt: leads.createdAt,
      agentName: users.name,
      agentEmail: users.email,
      assignedAt: leads.assignedAt,
      zip: leads.zip,
      timeZone: leads.timeZone,
      consentAt: leads.consentAt,
      consentText: leads.consentText,
      trustedFormCertUrl: leads.trustedFormCertUrl,
      jornayaLeadId: leads.jornayaLeadId,
      consentIp: leads.consentIp,
    })
    .from(leads)
    .leftJoin(users, eq(users.id, leads.agentId))
    .where(and(...exportFilter(filter), ...after))
    .orderBy(desc(leads.id))
    .limit(batchSize);
}

/**
 * Indexes up to `maxLeads` queued leads for the admin search (one transaction of the database's
 * lead_search_catch_up); answers how many lead ids it covered, 0 when nothing was queued.
 */
export async function catchUpSearchIndex(db: Db, maxLeads: number): Promise<number> {
  const [{ done }] = await queryRows<{ done: number }>(
    db,
    sql`select lead_search_catch_up(${maxLeads}::int)::float8 as done`,
  );
  return done;
}

/** A group of NEW leads as the engine reads them (category, state, city as stored, age). */
export interface LeadGroupKey {
  category: string;
  state: string;
  city: string;
  age: number;
}

/**
 * One page of the NEW, unassigned leads of these groups (the admin list's `noFit` filter, design
 * 12), newest first, searched by `q` when given; the groups go in as one JSON parameter.
 */
export async function listLeadsOfGroups(
  db: Db,
  groups: LeadGroupKey[],
  query: LeadListQuery,
): Promise<LeadsPage> {
  if (groups.length === 0 || (query.status && query.status !== 'NEW'))
    return { leadsJson: '[]', total: 0, exact: true };
  const limit = query.limit ?? DEFAULT_PAGE_SIZE;
  const offset = query.offset ?? 0;
  const where = sql`l.status = 'NEW' and l.agent_id is null
    and (l.category::text, l.state, l.city, l.age) in (
      select g.category, g.state, g.city, g.age
        from jsonb_to_recordset(${JSON.stringify(groups)}::jsonb)
             as g(category text, state text, city text, age int))
    ${query.q ? sql`and ${fieldsMatch(query.q, 'l')}` : sql``}`;
  const [[page], [{ n }]] = await Promise.all([
    queryRows<{ leads: string }>(
      db,
      sql`select leads from ${leadsJsonPage(
        sql`select l.* from leads l where ${where} order by l.id desc limit ${limit} offset ${offset}`,
        sql`l.id desc`,
      )} page`,
    ),
    queryRows<{ n: number }>(db, sql`select count(*)::int as n from leads l where ${where}`),
  ]);
  return { leadsJson: page.leads, total: n, exact: true };
}
