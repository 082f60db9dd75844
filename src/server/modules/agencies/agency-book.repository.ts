import { type SQL, sql } from 'drizzle-orm';
import type { AgencyLead, AgencyMember } from '../../../shared/contracts/agency';
import type { LeadCategory, LeadStatus } from '../../../shared/domain';
import { type Db, queryRows } from '../../db/client';
import { isoInstant } from '../../db/iso-instant';
import { FIT_JOINS, type FitSqlParams, firstMisfitSql } from '../fit/fit-rule-sql.service';
import type { Membership } from './agencies.repository';

/**
 * Who the caller sees among the agency's members (docs/domain.md, Agencies), over the alias `m`
 * (agency_members): the OWNER every member, a MANAGER their team and themselves, an AGENT
 * themselves.
 */
export function memberScopeSql(me: Membership): SQL {
  const agency = sql`m.agency_id = ${me.agencyId}`;
  if (me.role === 'OWNER') return agency;
  if (me.role === 'MANAGER') {
    return sql`${agency} and (m.user_id = ${me.userId} or m.manager_id = ${me.userId})`;
  }
  return sql`${agency} and m.user_id = ${me.userId}`;
}

/**
 * The members in scope with what the members' table shows: role, manager, package, status and
 * who pays, quota today, pause, licence, and the last 30 days' leads, conversions, returns and
 * median minutes to first contact. `userId`: only that member.
 */
export function listMembers(
  db: Db,
  me: Membership,
  today: string,
  userId?: number,
): Promise<AgencyMember[]> {
  return queryRows<AgencyMember>(
    db,
    sql`select m.user_id as "userId", u.name, u.email, m.role::text as role,
               case when mu.id is null then null
                    else json_build_object('id', mu.id, 'name', mu.name) end as manager,
               ${isoInstant(sql`m.joined_at`)} as "joinedAt",
               case when p.id is null then null
                    else json_build_object('id', p.id, 'name', p.name, 'category', p.category,
                                           'leadsPerDay', p.leads_per_day) end as package,
               s.status::text as "subscriptionStatus",
               coalesce(s.paid_by_agency_id = m.agency_id, false) as "paidByAgency",
               json_build_object(
                 'assigned', (select count(*)::int from leads t
                               where t.agent_id = u.id and t.assigned_on = ${today}::date),
                 'limit', case when s.status = 'ACTIVE' then p.leads_per_day else 0 end
               ) as "quotaToday",
               (u.paused_at is not null and (u.paused_until is null or u.paused_until > now()))
                 as paused,
               u.licensed_states::text[] as "licensedStates",
               st.leads as "leads30d", st.converted as "converted30d", st.speed as "speedToLeadMinutes",
               (select count(*)::int from lead_returns r
                 where r.agent_id = u.id and r.created_at >= now() - interval '30 days')
                 as "returns30d"
          from agency_members m
          join users u on u.id = m.user_id
          left join users mu on mu.id = m.manager_id
          left join subscriptions s on s.user_id = u.id
          left join packages p on p.id = s.package_id
          cross join lateral (
            select count(*)::int as leads,
                   (count(*) filter (where l.status = 'CONVERTED'))::int as converted,
                   round((percentile_cont(0.5) within group (
                     order by extract(epoch from l.first_contact_at - l.assigned_at) / 60
                   ) filter (where l.first_contact_at is not null))::numeric, 1)::float8 as speed
              from leads l
             where l.agent_id = u.id and l.assigned_at >= now() - interval '30 days'
          ) st
         where ${memberScopeSql(me)}
           ${userId === undefined ? sql`` : sql`and m.user_id = ${userId}`}
         order by m.role, u.name, u.id`,
  );
}

/**
 * Which of the agency's leads the caller sees, over the alias `l` (leads): the OWNER the whole
 * book (leads no member holds any more too), a MANAGER those held by their team and themselves, an
 * AGENT their own.
 */
function bookScopeSql(me: Membership): SQL {
  const book = sql`l.agency_id = ${me.agencyId}`;
  if (me.role === 'OWNER') return book;
  if (me.role === 'MANAGER') {
    return sql`${book} and l.agent_id in (
      select m.user_id from agency_members m
       where m.agency_id = ${me.agencyId}
         and (m.user_id = ${me.userId} or m.manager_id = ${me.userId}))`;
  }
  return sql`${book} and l.agent_id = ${me.userId}`;
}

const likePattern = (term: string) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * A search as the lead lists read it (docs/domain.md, Lists, search and export): every word in the
 * name, phone or email; a phone-like search compares its digits.
 */
function searchSql(q: string): SQL {
  const digits = q.replace(/\D/g, '');
  if (/^[\d\s()+.-]+$/.test(q) && digits.length >= 3) {
    return sql`regexp_replace(coalesce(l.phone, ''), '\\D', '', 'g') like ${likePattern(digits)}`;
  }
  const words = [...new Set(q.split(/\s+/).filter(Boolean))];
  return sql.join(
    words.map((w) => {
      const p = likePattern(w);
      return sql`(l.first_name ilike ${p} or l.last_name ilike ${p} or l.phone ilike ${p}
                  or l.email ilike ${p})`;
    }),
    sql` and `,
  );
}

export interface BookQuery {
  memberId?: number;
  status?: LeadStatus;
  q?: string;
  limit: number;
  offset: number;
}

/** One page of the agency's book in the caller's scope, newest first, and the total. */
export async function listBook(
  db: Db,
  me: Membership,
  query: BookQuery,
): Promise<{ items: AgencyLead[]; total: number }> {
  const where = sql.join(
    [
      bookScopeSql(me),
      query.memberId === undefined ? null : sql`l.agent_id = ${query.memberId}`,
      query.status === undefined ? null : sql`l.status = ${query.status}::lead_status`,
      query.q ? searchSql(query.q) : null,
    ].filter((c): c is SQL => c !== null),
    sql` and `,
  );
  const [items, [count]] = await Promise.all([
    queryRows<AgencyLead>(
      db,
      sql`select ${LEAD_COLUMNS} from leads l left join users u on u.id = l.agent_id
           where ${where} order by l.id desc limit ${query.limit} offset ${query.offset}`,
    ),
    queryRows<{ total: number }>(
      db,
      sql`select count(*)::int as total from leads l where ${where}`,
    ),
  ]);
  return { items, total: count.total };
}

const LEAD_COLUMNS = sql`l.id::float8 as id, l.first_name as "firstName", l.last_name as "lastName",
  l.phone, l.email, l.city, l.state, l.age, l.category::text as category, l.status::text as status,
  case when u.id is null then null else json_build_object('id', u.id, 'name', u.name) end as agent,
  ${isoInstant(sql`l.assigned_at`)} as "assignedAt",
  ${isoInstant(sql`l.first_contact_at`)} as "firstContactAt",
  l.reclaims, ${isoInstant(sql`l.created_at`)} as "createdAt"`;

/** One lead of the book as the list shows it. */
export async function findBookLead(db: Db, leadId: number): Promise<AgencyLead | null> {
  const [row] = await queryRows<AgencyLead>(
    db,
    sql`select ${LEAD_COLUMNS} from leads l left join users u on u.id = l.agent_id
         where l.id = ${leadId}`,
  );
  return row ?? null;
}

/** What a reassignment needs to know of a lead in the caller's scope; null when out of it. */
export interface BookLeadToMove {
  status: LeadStatus;
  agentId: number | null;
  firstName: string | null;
  lastName: string | null;
  city: string;
  state: string;
  age: number;
  category: LeadCategory;
  returnPending: boolean;
}

export async function findLeadInScope(
  db: Db,
  me: Membership,
  leadId: number,
): Promise<BookLeadToMove | null> {
  const [row] = await queryRows<BookLeadToMove>(
    db,
    sql`select l.status::text as status, l.agent_id as "agentId", l.first_name as "firstName",
               l.last_name as "lastName", l.city, l.state, l.age, l.category::text as category,
               exists (select 1 from lead_returns r
                        where r.lead_id = l.id and r.status = 'PENDING') as "returnPending"
          from leads l where l.id = ${leadId} and ${bookScopeSql(me)}`,
  );
  return row ?? null;
}

/**
 * The index in MISFIT_REASONS of the first condition of the fit rule (quota aside) the member
 * fails for the lead; null when they fit.
 */
export async function firstMisfitOfMember(
  db: Db,
  userId: number,
  params: FitSqlParams,
): Promise<number | null> {
  const [row] = await queryRows<{ reason: number | null }>(
    db,
    sql`select ${firstMisfitSql(params)} as reason from users u ${FIT_JOINS} where u.id = ${userId}`,
  );
  return row?.reason ?? null;
}
