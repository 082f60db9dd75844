/**
 * The fit rule's one SQL rendering, the twin of fit-rule.service.ts: each condition there has
 * its statement here, under the same reason, over these aliases:
 *   u  users (role AGENT)
 *   s  the agent's ACTIVE subscription (left join: null when none)
 *   p  its package (left join)
 *   pr the agent's preferences (left join: null when never saved)
 * (the agency condition reads agency_members and agencies by u.id itself, the schedule condition
 * agent_schedules by u.id: the agent's weekday and HH:MM at the statement's `now` in its zone)
 * Each condition is a boolean that is never null once the conditions before it hold (p is then
 * the ACTIVE subscription's package; pr may still be missing, and every pr condition answers
 * that first), so it can be negated in order (firstMisfitSql's CASE) and joined (fitsSql). The
 * capacity condition (quota left today) is not here: its callers count today's leads themselves.
 * test/fit-rule.test.ts runs these against the TypeScript definition on random instances.
 */
import { type SQL, sql } from 'drizzle-orm';
import { MISFIT_REASONS } from '../../../shared/contracts/explanation';
import { LEAD_CATEGORIES, type LeadCategory } from '../../../shared/domain';
import { isoInstant } from '../../db/iso-instant';
import { monthStartOf, weekStartOf } from '../../lib/business-time';
import type { AgentReason, FitContext, FitLead, LeadReason } from './fit-rule.service';
import { enrollmentOpen } from './fit-rule.service';
import { highestPriceSql } from './per-lead-price.service';

/** What the statements are given: the lead, the clock, the categories whose window is closed. */
export interface FitSqlParams {
  lead: FitLead;
  now: Date;
  closedCategories: LeadCategory[];
}

/** The parameters of a statement for this lead at this moment. */
export function fitSqlParams(lead: FitLead, ctx: FitContext): FitSqlParams {
  return {
    lead,
    now: ctx.now,
    closedCategories: LEAD_CATEGORIES.filter(
      (c) => !enrollmentOpen(c, true, ctx.businessDate, ctx.windows),
    ),
  };
}

/**
 * A preference (pr) list in SQL: never saved, or empty, means any. The lists are NOT NULL, so
 * the condition is null only where pr is: `pr.user_id is null` answers that first.
 */
const anyPreferred = (list: SQL, value: SQL) =>
  sql`pr.user_id is null or cardinality(${list}) = 0 or ${value} = any(${list})`;

/** normalizeCity in SQL: trim, collapse inner whitespace, lowercase. */
export const normalizedCitySql = (city: SQL) =>
  sql`lower(regexp_replace(regexp_replace(${city}, '^\\s+|\\s+$', '', 'g'), '\\s+', ' ', 'g'))`;

type Render = (p: FitSqlParams) => SQL;

export const AGENT_CONDITIONS_SQL: Record<AgentReason, Render> = {
  DISABLED: () => sql`u.disabled_at is null`,
  NOT_APPROVED: () => sql`u.approval = 'APPROVED'`,
  NOT_ACTIVE: () => sql`s.status is not null`,
  PAUSED: (p) =>
    sql`not (u.paused_at is not null
             and (u.paused_until is null or u.paused_until > ${p.now.toISOString()}::timestamptz))`,
  // the agents outside their hours at `now`, found once per statement (an uncorrelated
  // subquery: a hashed set), not once per agent; user_id is never null, so `not in` is exact
  OUTSIDE_SCHEDULE: (p) =>
    sql`u.id not in (
          select sc.user_id from agent_schedules sc
           cross join lateral (
             select ${p.now.toISOString()}::timestamptz at time zone sc.time_zone as t) lt
           where not coalesce(
               to_char(lt.t, 'HH24:MI') >= (sc.days -> to_char(lt.t, 'dy') ->> 'start')
               and to_char(lt.t, 'HH24:MI') < (sc.days -> to_char(lt.t, 'dy') ->> 'end'), false))`,
  ENROLLMENT_WINDOW: (p) =>
    sql`not (p.enrollment_only
             and p.category::text = any(${`{${p.closedCategories.join(',')}}`}::text[]))`,
  AGENCY_SUSPENDED: () =>
    sql`not exists (select 1 from agency_members am join agencies ag on ag.id = am.agency_id
                     where am.user_id = u.id and ag.status = 'SUSPENDED')`,
};

export const LEAD_CONDITIONS_SQL: Record<LeadReason, Render> = {
  CATEGORY: (p) =>
    sql`p.category = ${p.lead.category}::lead_category
        and (${anyPreferred(sql`pr.categories`, sql`${p.lead.category}::lead_category`)})`,
  LICENCE: (p) =>
    sql`cardinality(u.licensed_states) = 0 or ${p.lead.state}::text = any(u.licensed_states)`,
  STATE: (p) => anyPreferred(sql`pr.states`, sql`${p.lead.state}::text`),
  CITY: (p) =>
    sql`pr.user_id is null or cardinality(pr.cities) = 0 or exists (
          select 1 from unnest(pr.cities) c where ${normalizedCitySql(sql`c`)} = ${p.lead.city}::text)`,
  AGE: (p) =>
    sql`(pr.age_min is null or ${p.lead.age}::int >= pr.age_min)
        and (pr.age_max is null or ${p.lead.age}::int <= pr.age_max)`,
};

const ORDERED: [string, Render][] = [
  ...Object.entries(AGENT_CONDITIONS_SQL),
  ...Object.entries(LEAD_CONDITIONS_SQL),
];

/** Every condition but capacity holds: the agent fits the lead. */
export function fitsSql(p: FitSqlParams): SQL {
  return sql.join(
    ORDERED.map(([, render]) => sql`(${render(p)})`),
    sql` and `,
  );
}

/** The index in MISFIT_REASONS of the first condition that fails; null when the agent fits. */
export function firstMisfitSql(p: FitSqlParams): SQL {
  const whens = ORDERED.map(
    ([reason, render]) =>
      sql`when not (${render(p)}) then ${sql.raw(String(MISFIT_REASONS.indexOf(reason as never)))}`,
  );
  return sql`case ${sql.join(whens, sql` `)} end`;
}

/**
 * The agent's quota (FitAgent.quota): the package's leads per day, lowered to the agent's own
 * daily cap (least ignores a null cap); 0 without an ACTIVE subscription.
 */
export const QUOTA_SQL = sql`least(coalesce(p.leads_per_day, 0),
  (select c.daily from agent_caps c where c.user_id = u.id))`;

/**
 * The capacity conditions WEEKLY_CAP and MONTHLY_CAP for one agent (`agentId`, a column or a
 * parameter) in SQL: the agent has no such cap, or its leads of this business week (from Monday)
 * and month, through `businessDate`, are fewer than the cap. Counted by the (assigned_on,
 * agent_id) index, and only for an agent that has a cap.
 */
export function periodCapsHoldSql(agentId: SQL, businessDate: string): SQL {
  const countFrom = (from: string) =>
    sql`(select count(*) from leads l
          where l.assigned_on between ${from}::date and ${businessDate}::date
            and l.agent_id = ${agentId})`;
  return sql`not exists (
    select 1 from agent_caps c
     where c.user_id = ${agentId}
       and ((c.weekly is not null and ${countFrom(weekStartOf(businessDate))} >= c.weekly)
         or (c.monthly is not null and ${countFrom(monthStartOf(businessDate))} >= c.monthly)))
    and ${walletCoversSql(agentId, monthStartOf(businessDate))}`;
}

/**
 * The capacity conditions BUDGET_SPENT and BALANCE_TOO_LOW for one agent in SQL: the agent's
 * package is not PER_LEAD, or its wallet's balance, and what is left of its monthly budget (the
 * spend of another month counts as none), both cover the highest price a lead of it can cost.
 */
export function walletCoversSql(agentId: SQL, monthStart: string): SQL {
  return sql`not exists (
    select 1 from subscriptions ws
      join packages wp on wp.id = ws.package_id
      left join wallets w on w.user_id = ws.user_id
      left join agent_caps wc on wc.user_id = ws.user_id
     where ws.user_id = ${agentId} and ws.status = 'ACTIVE' and wp.pricing = 'PER_LEAD'
       and (coalesce(w.balance_cents, 0) < ${highestPriceSql(sql`wp`)}
         or (wc.monthly_budget_cents is not null
             and wc.monthly_budget_cents
                 - (case when w.spent_month = ${monthStart}::date then w.spent_cents else 0 end)
                 < ${highestPriceSql(sql`wp`)})))`;
}

/** Whether the agent pays its leads from a wallet now (FitAgent.perLead is not null): its ACTIVE package is PER_LEAD. */
export function paysPerLeadSql(agentId: SQL): SQL {
  return sql`exists (
    select 1 from subscriptions ps
      join packages pp on pp.id = ps.package_id
     where ps.user_id = ${agentId} and ps.status = 'ACTIVE' and pp.pricing = 'PER_LEAD')`;
}

/** FitAgent.perLead over the same aliases: null unless the ACTIVE package is PER_LEAD. */
export const PER_LEAD_SQL = sql`case when p.pricing = 'PER_LEAD' then jsonb_build_object(
    'highestCents', ${highestPriceSql(sql`p`)},
    'balanceCents', coalesce((select w.balance_cents from wallets w where w.user_id = u.id), 0),
    'budgetCents', (select c.monthly_budget_cents from agent_caps c where c.user_id = u.id),
    'spentMonth', (select w.spent_month from wallets w where w.user_id = u.id),
    'spentCents', coalesce((select w.spent_cents from wallets w where w.user_id = u.id), 0))
  end`;

/** What the rule reads of an agent (FitAgent's fields), over the same aliases. */
export const FIT_AGENT_COLUMNS = sql`u.id,
  u.disabled_at is not null as disabled,
  u.approval = 'APPROVED' as approved,
  p.category::text as category,
  ${QUOTA_SQL} as quota,
  coalesce(p.enrollment_only, false) as "enrollmentOnly",
  ${isoInstant(sql`u.paused_at`)} as "pausedAt",
  ${isoInstant(sql`u.paused_until`)} as "pausedUntil",
  coalesce(pr.states, '{}')::text[] as states,
  coalesce(pr.cities, '{}')::text[] as cities,
  pr.age_min as "ageMin",
  pr.age_max as "ageMax",
  coalesce(pr.categories, '{}')::text[] as categories,
  u.licensed_states::text[] as "licensedStates",
  fa.agency_id as "agencyId",
  coalesce(fa.status = 'SUSPENDED', false) as "agencySuspended",
  fa.daily_cap as "agencyCap",
  (select jsonb_build_object('timeZone', sc.time_zone, 'days', sc.days)
     from agent_schedules sc where sc.user_id = u.id) as schedule,
  (select c.weekly from agent_caps c where c.user_id = u.id) as "weeklyCap",
  (select c.monthly from agent_caps c where c.user_id = u.id) as "monthlyCap",
  ${PER_LEAD_SQL} as "perLead"`;

/**
 * The agent's agency as FIT_AGENT_COLUMNS read it (alias fa), after the other joins: a lateral
 * read by the member's key, so a query without agencies pays one index probe per agent.
 */
export const FIT_AGENCY_JOIN = sql`left join lateral (
    select am.agency_id, ag.status, ag.daily_cap
      from agency_members am join agencies ag on ag.id = am.agency_id
     where am.user_id = u.id) fa on true`;

/** The joins the conditions read, after `from users u`. */
export const FIT_JOINS = sql`left join subscriptions s on s.user_id = u.id and s.status = 'ACTIVE'
  left join packages p on p.id = s.package_id
  left join preferences pr on pr.user_id = u.id
  ${FIT_AGENCY_JOIN}`;
