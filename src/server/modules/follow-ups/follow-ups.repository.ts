/** Follow-up templates and messages (docs/domain.md, Follow-up messages and calls): the SQL, nothing else. */
import { type SQL, sql } from 'drizzle-orm';
import type { LeadStatus, MessageChannel, MessageStatus } from '../../../shared/domain';
import { type Db, intArrayLiteral, leadsNamed, queryRows } from '../../db/client';
import { isoInstant } from '../../db/iso-instant';

const ISO = (column: string) => isoInstant(sql.raw(column));

export interface SettingsRow {
  enabled: boolean;
  smsBody: string;
  emailSubject: string;
  emailBody: string;
}

export async function settingsOf(db: Db, userId: number): Promise<SettingsRow | null> {
  const [row] = await queryRows<SettingsRow>(
    db,
    sql`select enabled, sms_body as "smsBody", email_subject as "emailSubject",
        email_body as "emailBody" from follow_up_settings where user_id = ${userId}`,
  );
  return row ?? null;
}

export async function saveSettings(db: Db, userId: number, s: SettingsRow): Promise<void> {
  await db.execute(sql`insert into follow_up_settings
      (user_id, enabled, sms_body, email_subject, email_body, updated_at)
    values (${userId}, ${s.enabled}, ${s.smsBody}, ${s.emailSubject}, ${s.emailBody}, now())
    on conflict (user_id) do update set enabled = excluded.enabled,
      sms_body = excluded.sms_body, email_subject = excluded.email_subject,
      email_body = excluded.email_body, updated_at = now()`);
}

/** The agents whose follow-ups are on (few): a run's leads are looked up by them. */
export async function followUpAgentIds(db: Db): Promise<number[]> {
  const rows = await queryRows<{ id: number }>(
    db,
    sql`select user_id as id from follow_up_settings where enabled`,
  );
  return rows.map((r) => r.id);
}

/**
 * The first message of each channel to newly assigned leads of agents whose follow-ups are on,
 * QUEUED with the agent's template as it is now (filled in when sent). One statement; a lead
 * given again to the same agent gets no second message (follow_up_messages_first_key).
 */
export async function insertFollowUps(
  tx: Db,
  assigned: { runId: number; agentIds: number[] } | { leadIds: number[] },
  channels: { sms: boolean; email: boolean },
): Promise<number[]> {
  const [leads, where] =
    'runId' in assigned
      ? [
          sql`leads`,
          sql`l.agent_id = any(${intArrayLiteral(assigned.agentIds, 'int')})
          and l.assignment_run_id = ${assigned.runId}`,
        ]
      : [leadsNamed(intArrayLiteral(assigned.leadIds, 'bigint')), sql`l.agent_id is not null`];
  const parts: SQL[] = [];
  if (channels.sms)
    parts.push(sql`select f.id, f.agent_id, 'SMS'::message_channel, 'QUEUED'::message_status, f.phone, null::text, f.sms_body
      from f where f.phone is not null and f.sms_body <> ''`);
  if (channels.email)
    parts.push(sql`select f.id, f.agent_id, 'EMAIL'::message_channel, 'QUEUED'::message_status, f.email, f.email_subject,
        f.email_body
      from f where f.email is not null and f.email_body <> ''`);
  if (parts.length === 0) return [];
  const rows = await queryRows<{ id: number }>(
    tx,
    sql`with f as (
        select l.id, l.agent_id, l.phone, l.email, s.sms_body, s.email_subject, s.email_body
        from ${leads} l join follow_up_settings s on s.user_id = l.agent_id and s.enabled
        where ${where})
      insert into follow_up_messages (lead_id, agent_id, channel, status, to_address, subject, body)
      ${sql.join(parts, sql` union all `)}
      on conflict do nothing
      returning id`,
  );
  return rows.map((r) => r.id);
}

/**
 * Takes a QUEUED or WAITING message for sending: only one worker gets it (the claim is a
 * placeholder provider id, replaced by the provider's SID or cleared when settled).
 */
export async function claimMessage(db: Db, id: number, claim: string): Promise<boolean> {
  const rows = await queryRows<{ id: number }>(
    db,
    sql`update follow_up_messages set provider_id = ${claim}, updated_at = now()
      where id = ${id} and outbound and status in ('QUEUED', 'WAITING') and provider_id is null
      returning id`,
  );
  return rows.length > 0;
}

export interface SendContext {
  id: number;
  leadId: number;
  channel: MessageChannel;
  toAddress: string;
  subject: string | null;
  body: string;
  agentId: number | null;
  leadAgentId: number | null;
  leadStatus: LeadStatus;
  firstName: string | null;
  lastName: string | null;
  state: string;
  timeZone: string | null;
  phone: string | null;
  consentAt: string | null;
  optedOutAt: string | null;
  returnedAt: string | null;
  onDnc: boolean;
  agentName: string | null;
  agentEmail: string | null;
  agentPhone: string | null;
  followUpService: boolean;
}

/** What the gates need: the message, its lead, its agent and the agent's package. */
export async function sendContext(db: Db, id: number): Promise<SendContext | null> {
  const [row] = await queryRows<SendContext>(
    db,
    sql`select m.id, m.lead_id::int as "leadId", m.channel, m.to_address as "toAddress", m.subject, m.body,
        m.agent_id as "agentId", l.agent_id as "leadAgentId", l.status as "leadStatus",
        l.first_name as "firstName", l.last_name as "lastName", l.state, l.time_zone as "timeZone", l.phone,
        l.consent_at as "consentAt", l.opted_out_at as "optedOutAt",
        l.returned_at as "returnedAt",
        (l.phone is not null and exists (select 1 from dnc_numbers d where d.phone = l.phone))
          as "onDnc",
        u.name as "agentName", u.email as "agentEmail", u.phone as "agentPhone",
        coalesce((select p.service_follow_up_message from subscriptions s
          join packages p on p.id = s.package_id
          where s.user_id = m.agent_id and s.status = 'ACTIVE'), false) as "followUpService"
      from follow_up_messages m
      join leads l on l.id = m.lead_id
      left join users u on u.id = m.agent_id
      where m.id = ${id}`,
  );
  return row ?? null;
}

export interface Settlement {
  status: MessageStatus;
  providerId: string | null;
  error: string | null;
  subject?: string | null;
  body?: string;
  sendAfter?: Date | null;
  sent?: boolean;
}

/** The outcome of a send attempt (a SENT one is the lead's first contact: the service marks it). */
export async function settleMessage(tx: Db, id: number, s: Settlement): Promise<void> {
  await tx.execute(sql`update follow_up_messages set status = ${s.status}::message_status,
      provider_id = ${s.providerId}, error = ${s.error},
      subject = ${s.subject === undefined ? sql`subject` : s.subject},
      body = ${s.body === undefined ? sql`body` : s.body},
      send_after = ${s.sendAfter === undefined ? sql`send_after` : s.sendAfter ? s.sendAfter.toISOString() : null},
      sent_at = ${s.sent ? sql`now()` : sql`sent_at`}, updated_at = now()
    where id = ${id}`);
}

/**
 * The provider's status callback: SENT (or QUEUED) moves to DELIVERED or FAILED, once; a replay
 * or an older status changes nothing.
 */
export async function applyProviderStatus(
  db: Db,
  providerId: string,
  status: 'DELIVERED' | 'FAILED',
  error: string | null,
): Promise<boolean> {
  const rows = await queryRows<{ id: number }>(
    db,
    sql`update follow_up_messages set status = ${status}::message_status,
        error = coalesce(${error}, error), updated_at = now()
      where provider_id = ${providerId} and outbound and status in ('QUEUED', 'SENT')
      returning id`,
  );
  return rows.length > 0;
}

/** Whether an inbound message was already recorded (a replayed callback). */
export async function hasProviderMessage(db: Db, providerId: string): Promise<boolean> {
  const rows = await queryRows<{ id: number }>(
    db,
    sql`select id from follow_up_messages where provider_id = ${providerId}`,
  );
  return rows.length > 0;
}

/**
 * An inbound SMS from a number: RECEIVED on every lead with that number (the provider's SID on
 * the first). Opting out (STOP) is the leads module's (optOutPhone).
 */
export async function recordInbound(
  tx: Db,
  inbound: { from: string; body: string; providerId: string },
): Promise<number> {
  const leads = await queryRows<{ id: number; agentId: number | null; status: LeadStatus }>(
    tx,
    sql`select id, agent_id as "agentId", status from leads where phone = ${inbound.from}
      order by id`,
  );
  if (leads.length === 0) return 0;
  await tx.execute(sql`insert into follow_up_messages
      (lead_id, agent_id, channel, outbound, status, to_address, body, provider_id)
    select l.id, l.agent_id, 'SMS', false, 'RECEIVED', ${inbound.from}, ${inbound.body},
      case when row_number() over (order by l.id) = 1 then ${inbound.providerId} end
    from leads l where l.phone = ${inbound.from}`);
  return leads.length;
}

/** Messages QUEUED or WAITING and due, with no job: the sweeper's work (a crash, a CLI run). */
export async function dueMessageIds(db: Db, graceSeconds: number): Promise<number[]> {
  const rows = await queryRows<{ id: number }>(
    db,
    sql`select id from follow_up_messages
      where status in ('QUEUED', 'WAITING') and outbound and provider_id is null
        and coalesce(send_after, created_at) < now() - make_interval(secs => ${graceSeconds})
      order by id limit 500`,
  );
  return rows.map((r) => r.id);
}

/**
 * Messages claimed by a worker that never settled them (it died mid-send): FAILED, not sent
 * again, since the provider may have sent it (decision 020).
 */
export async function failStaleClaims(db: Db, olderThanSeconds: number): Promise<number> {
  const rows = await queryRows<{ id: number }>(
    db,
    sql`update follow_up_messages set status = 'FAILED', provider_id = null,
        error = 'The send was interrupted; not tried again to avoid a duplicate',
        updated_at = now()
      where provider_id like 'claim:%' and status in ('QUEUED', 'WAITING')
        and updated_at < now() - make_interval(secs => ${olderThanSeconds})
      returning id`,
  );
  return rows.length;
}

/** The recent SMS or email outcomes: a channel is FAILING when the latest ones all failed. */
export async function recentOutcomes(db: Db, channel: MessageChannel): Promise<MessageStatus[]> {
  const rows = await queryRows<{ status: MessageStatus }>(
    db,
    sql`select status from follow_up_messages
      where channel = ${channel}::message_channel and outbound
        and status in ('SENT', 'DELIVERED', 'FAILED') and updated_at > now() - interval '1 day'
      order by updated_at desc limit 5`,
  );
  return rows.map((r) => r.status);
}

export interface Figures {
  sent: number;
  delivered: number;
  failed: number;
  waiting: number;
  blocked: { reason: string; count: number }[];
}

/** Volumes and failures of outbound messages created since `hours` ago. */
export async function messageFigures(db: Db, hours: number): Promise<Figures> {
  const rows = await queryRows<{ status: MessageStatus; error: string | null; n: number }>(
    db,
    sql`select status, case when status = 'BLOCKED' then error end as error, count(*)::int as n
      from follow_up_messages
      where outbound and created_at > now() - make_interval(hours => ${hours})
      group by 1, 2`,
  );
  const count = (...statuses: MessageStatus[]) =>
    rows.filter((r) => statuses.includes(r.status)).reduce((a, r) => a + r.n, 0);
  return {
    // delivered messages were sent too
    sent: count('SENT', 'DELIVERED'),
    delivered: count('DELIVERED'),
    failed: count('FAILED'),
    waiting: count('WAITING', 'QUEUED'),
    blocked: rows
      .filter((r) => r.status === 'BLOCKED')
      .map((r) => ({ reason: r.error ?? 'Blocked', count: r.n }))
      .sort((a, b) => b.count - a.count),
  };
}

export interface MessageEntryRow {
  at: string;
  channel: MessageChannel;
  outbound: boolean;
  status: MessageStatus;
  toAddress: string;
  body: string;
  error: string | null;
  sendAfter: string | null;
}

/** The lead's messages for its timeline (its current agent's, and what the lead sent). */
export function messagesOfLead(db: Db, leadId: number): Promise<MessageEntryRow[]> {
  return queryRows<MessageEntryRow>(
    db,
    sql`select ${ISO('coalesce(m.sent_at, m.created_at)')} as at, m.channel, m.outbound,
        m.status, m.to_address as "toAddress", m.body, m.error,
        ${ISO('m.send_after')} as "sendAfter"
      from follow_up_messages m where m.lead_id = ${leadId} order by m.created_at, m.id
      limit 200`,
  );
}

/**
 * Removes the text and the address of every message to or from these leads (docs/domain.md,
 * Consumer deletion and retention); a message still waiting is blocked, never sent.
 */
export async function forgetLeadMessages(tx: Db, leadIds: number[]): Promise<void> {
  if (leadIds.length === 0) return;
  await tx.execute(
    sql`update follow_up_messages
           set body = '', subject = null, to_address = '',
               status = case when status in ('WAITING', 'QUEUED') and sent_at is null
                             then 'BLOCKED'::message_status else status end,
               error = case when status in ('WAITING', 'QUEUED') and sent_at is null
                            then 'the consumer asked for their data to be deleted' else error end,
               updated_at = now()
         where lead_id = any(${intArrayLiteral(leadIds, 'bigint')})`,
  );
}
