import { type SQL, sql } from 'drizzle-orm';
import type { Notification } from '../../../shared/contracts/delivery';
import { type Db, intArrayLiteral, leadsNamed, queryRows, queryRowsForIds } from '../../db/client';

/** The channel of `lead.assigned` between processes (LISTEN/NOTIFY). */
export const LEAD_ASSIGNED_CHANNEL = 'lead_assigned';

export const LEAD_ASSIGNED_KIND = 'lead.assigned';

/**
 * The channel that ends a user's live streams in every process: `{userId, session}` from the
 * trigger on `sessions` when a session is deleted (db/sql/sessions_after_delete.sql names it
 * too), `{userId}` when all of the user's streams end.
 */
export const STREAMS_END_CHANNEL = 'live_streams_end';
/** The channel that tells a user's open pages to refresh: a lead left them (a reclaim). */
export const LEADS_CHANGED_CHANNEL = 'leads_changed';

/** Ends every live stream of the user, in whichever process holds it (on commit). */
export async function notifyStreamsEnd(db: Db, userId: number): Promise<void> {
  await db.execute(
    sql`select pg_notify(${STREAMS_END_CHANNEL}, json_build_object('userId', ${userId}::int)::text)`,
  );
}

/**
 * How a lead is named in a notification and an event: as the screens name it (`leadName`,
 * `leadPlace`, `categoryLabel` in shared/format), cut short so that a NOTIFY payload stays far
 * under PostgreSQL's 8000 bytes whatever a source sent.
 */
const NAME = sql.raw(
  `left(coalesce(nullif(btrim(concat_ws(' ', l.first_name, l.last_name)), ''), 'Unnamed lead'), 200)`,
);
const CITY = sql.raw('left(l.city, 100)');
const CATEGORY_LABEL = sql.raw(`replace(l.category::text, '_', ' ')`);

/**
 * Writes the notifications and sends one NOTIFY per agent, in one statement, from `picked`: the
 * leads of this assignment as rows (lead_id, agent_id, n = the agent's count in it,
 * newest = whether it is the one the agent's notification and event name). `perLead` writes a
 * notification for every lead (manual, intake: a handful), otherwise one per agent (a run).
 * NOTIFY inside the transaction is delivered on commit only, and not at all on rollback.
 */
function notifyStatement(picked: SQL, perLead: boolean): SQL {
  return sql`
    with picked as (${picked}),
    named as (
      select p.agent_id, p.lead_id, p.n, p.newest, ${NAME} as name, ${CITY} as city,
             l.state, l.category::text as category, ${CATEGORY_LABEL} as category_label
        from picked p join leads l on l.id = p.lead_id
       where ${perLead ? sql`true` : sql`p.newest`}
    ),
    written as (
      insert into notifications (user_id, kind, lead_id, title, body)
      select agent_id, ${LEAD_ASSIGNED_KIND}, lead_id,
             case when ${perLead ? sql`true` : sql`n = 1`} then 'New lead: ' || name
                  else n || ' new leads' end,
             case when ${perLead ? sql`true` : sql`n = 1`}
                  then city || ', ' || state || ' · ' || category_label
                  else name || ', ' || city || ', ' || state || ' and ' || (n - 1) || ' more' end
        from named
       order by agent_id, lead_id
      returning 1
    )
    select (select count(*) from written)::int as notifications,
           count(pg_notify(${LEAD_ASSIGNED_CHANNEL}, json_build_object(
             'userId', agent_id, 'leadId', lead_id, 'name', name, 'city', city,
             'state', state, 'category', category, 'more', n - 1)::text))::int as notified
      from named
     where newest`;
}

/**
 * A run's leads, per agent: the run's leads are found through the day's index (a run assigns on
 * its business date only: a scalar subquery, so the date is an index condition whatever the
 * statistics say), so a run of a million leads costs one grouped read of that day.
 */
export async function notifyRunAssigned(tx: Db, runId: number): Promise<void> {
  const picked = sql`
    select agent_id, lead_id, n, true as newest from (
      select l.agent_id, max(l.id) as lead_id, count(*)::int as n
        from leads l
       where l.assigned_on = (select r.business_date from assignment_runs r where r.id = ${runId})
         and l.assignment_run_id = ${runId} and l.agent_id is not null
       group by l.agent_id
    ) per_agent`;
  await tx.execute(notifyStatement(picked, false));
}

/** Named leads (manual assignment, the intake): a notification each, one event per agent. */
export async function notifyLeadIdsAssigned(tx: Db, leadIds: number[]): Promise<void> {
  await queryRowsForIds(tx, leadIds, 'bigint', (ids) =>
    notifyStatement(
      sql`
    select l.agent_id, l.id as lead_id,
           (count(*) over (partition by l.agent_id))::int as n,
           l.id = max(l.id) over (partition by l.agent_id) as newest
      from ${leadsNamed(ids)} l
     where l.agent_id is not null`,
      true,
    ),
  );
}

const ROW = sql`id, kind, lead_id as "leadId", title, body,
  to_char(read_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "readAt",
  to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "createdAt"`;

/** The user's newest notifications and how many are unread. */
export async function listNotifications(
  db: Db,
  userId: number,
  limit: number,
): Promise<{ items: Notification[]; unread: number }> {
  const [items, [count]] = await Promise.all([
    queryRows<Notification>(
      db,
      sql`select ${ROW} from notifications where user_id = ${userId}
          order by id desc limit ${limit}`,
    ),
    queryRows<{ unread: number }>(
      db,
      sql`select count(*)::int as unread from notifications
           where user_id = ${userId} and read_at is null`,
    ),
  ]);
  return { items, unread: count?.unread ?? 0 };
}

/** Marks the user's notifications read: these ids (others' ids are ignored), or all. */
export async function markNotificationsRead(
  db: Db,
  userId: number,
  ids: number[] | undefined,
): Promise<void> {
  await db.execute(sql`
    update notifications set read_at = now()
     where user_id = ${userId} and read_at is null
       ${ids ? sql`and id = any(${intArrayLiteral(ids, 'bigint')})` : sql``}`);
}

/** The bell: the agent and every admin learn that the agent's endpoint was switched off. */
export async function notifyWebhookDisabled(tx: Db, agentId: number, failures: number) {
  await tx.execute(
    sql`insert into notifications (user_id, kind, title, body)
      select u.id, 'webhook.disabled',
        case when u.id = a.id then 'Your CRM webhook was switched off'
          else 'CRM webhook of ' || a.name || ' switched off' end,
        'After ' || ${failures}::int || ' failed deliveries in a row to ' || coalesce(ds.webhook_url, 'the endpoint')
          || ', it no longer receives leads. Fix the endpoint, then turn it on again in the delivery settings.'
      from users a
      left join delivery_settings ds on ds.user_id = a.id
      join users u on u.id = a.id or u.role = 'ADMIN'
      where a.id = ${agentId}`,
  );
}

/**
 * The agent's bell: leads their CRM webhook did not take for good (the last attempt failed, no
 * retry left), each with its lead, so that the agent opens it from the bell and works it anyway.
 */
export async function notifyDeliveriesFailed(tx: Db, deliveryIds: number[]): Promise<void> {
  if (deliveryIds.length === 0) return;
  await tx.execute(
    sql`insert into notifications (user_id, kind, lead_id, title, body)
      select d.agent_id, 'delivery.failed', d.lead_id, 'A lead did not reach your CRM',
        coalesce(nullif(btrim(concat_ws(' ', l.first_name, l.last_name)), ''), 'A lead')
          || ' was not taken by your CRM webhook' || coalesce(' (' || d.error || ')', '')
          || '. The lead is in My Leads; an admin can send it again from Deliveries.'
        from deliveries d
        join leads l on l.id = d.lead_id
       where d.id = any(${intArrayLiteral(deliveryIds, 'bigint')})
         and d.status = 'FAILED' and d.agent_id = l.agent_id`,
  );
}

/** The agent's bell: the decision on their return. */
export async function notifyReturnDecided(
  tx: Db,
  input: { agentId: number; leadId: number; title: string; body: string | null },
): Promise<void> {
  await tx.execute(
    sql`insert into notifications (user_id, kind, lead_id, title, body)
        values (${input.agentId}, 'return.decided', ${input.leadId}, ${input.title}, ${input.body})`,
  );
}

/**
 * The bell of the agent an admin took a lead from: the lead is no longer theirs, so the notice
 * names it but does not link to it.
 */
export async function notifyLeadReassignedAway(
  tx: Db,
  input: { agentId: number; title: string; body: string },
): Promise<void> {
  await tx.execute(
    sql`insert into notifications (user_id, kind, lead_id, title, body)
        values (${input.agentId}, 'lead.reassigned', null, ${input.title}, ${input.body})`,
  );
}

/**
 * The agents' bell: their leads still being worked (ASSIGNED, CONTACTED, IN_PROGRESS) whose phone
 * was just put on the do-not-call list, one notice per lead with the lead to open.
 */
export async function notifyLeadsOnDnc(tx: Db, phones: string[]): Promise<number> {
  if (phones.length === 0) return 0;
  const rows = await queryRows<{ id: number }>(
    tx,
    sql`insert into notifications (user_id, kind, lead_id, title, body)
      select l.agent_id, 'lead.dnc', l.id, 'A lead is on the do-not-call list now',
        ${NAME} || ' was added to the do-not-call list: do not call or message them. '
          || 'Follow-up messages to them have stopped.'
        from leads l
       where l.phone in (select json_array_elements_text(${JSON.stringify(phones)}::json))
         and l.agent_id is not null
         and l.status in ('ASSIGNED', 'CONTACTED', 'IN_PROGRESS')
      returning id`,
  );
  return rows.length;
}

/**
 * An agency took a lead back from a member who did not work it (docs/domain.md, Agencies): the
 * member's bell (no link: the lead is no longer theirs) and the owner's (with the link), and a
 * refresh of both users' open pages (the new member hears of it through leadsAssigned).
 */
export async function notifyLeadReclaimed(
  tx: Db,
  input: {
    leadId: number;
    fromAgentId: number;
    ownerId: number | null;
    member: { title: string; body: string };
    owner: { title: string; body: string };
  },
): Promise<void> {
  const owner = input.ownerId !== null && input.ownerId !== input.fromAgentId;
  await tx.execute(
    sql`with n as (
          insert into notifications (user_id, kind, lead_id, title, body)
          values (${input.fromAgentId}, 'lead.reclaimed', null, ${input.member.title},
                  ${input.member.body})
          ${owner ? sql`, (${input.ownerId}, 'lead.reclaimed', ${input.leadId}, ${input.owner.title}, ${input.owner.body})` : sql``}
          returning user_id)
        select count(pg_notify(${LEADS_CHANGED_CHANNEL},
                               json_build_object('userId', user_id)::text)) from n`,
  );
}

/** The bell's entries about these leads lose the consumer's name (docs/domain.md, Consumer deletion and retention). */
export async function forgetLeadNotifications(tx: Db, leadIds: number[]): Promise<void> {
  if (leadIds.length === 0) return;
  await tx.execute(
    sql`update notifications
           set title = 'Lead #' || lead_id || ': the consumer''s data was deleted', body = null
         where lead_id = any(${intArrayLiteral(leadIds, 'bigint')})`,
  );
}
