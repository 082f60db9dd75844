/** Every statement on deliveries, delivery_attempts and delivery_settings (and the switch-off's notifications). */
import { type SQL, sql } from 'drizzle-orm';
import type { DeliveryChannel, DeliveryStatus } from '../../../shared/domain';
import { type Db, intArrayLiteral, queryRows } from '../../db/client';
import type { AssignedLeads } from './lead-assigned.service';

/** The deliveries one statement recorded for one agent on one channel: a job's batch. */
export interface DeliveryBatch {
  agentId: number;
  channel: DeliveryChannel;
  fromId: number;
  toId: number;
  count: number;
}

/** The leads an assignment gave out, as a FROM item `a(id, agent_id)`. */
function assignedLeads(assigned: AssignedLeads): SQL {
  if ('runId' in assigned) {
    // through leads_assigned_day_idx: the run's business date first, then its own leads
    return sql`(select l.id, l.agent_id from leads l
      where l.assigned_on = (select r.business_date from assignment_runs r where r.id = ${assigned.runId})
        and l.assignment_run_id = ${assigned.runId} and l.agent_id is not null) a`;
  }
  return sql`(select l.id, l.agent_id from leads l
    where l.id = any(${intArrayLiteral(assigned.leadIds, 'bigint')}) and l.agent_id is not null) a`;
}

/** Agents whose CRM webhook is on (a URL, enabled, and a package with the CRM service). */
export async function webhookAgentIds(db: Db): Promise<number[]> {
  const rows = await queryRows<{ id: number }>(
    db,
    sql`select ds.user_id as id from delivery_settings ds
      join subscriptions s on s.user_id = ds.user_id
      join packages p on p.id = s.package_id
      where ds.webhook_enabled and ds.webhook_url is not null and p.service_crm`,
  );
  return rows.map((r) => r.id);
}

/**
 * Records the deliveries of an assignment's leads in one statement (INSERT ... SELECT), and
 * answers them grouped by agent and channel: a few rows per agent whatever the number of leads.
 * Email: every lead whose agent has not turned email off; webhook: the leads of webhookAgents.
 */
export async function insertDeliveries(
  tx: Db,
  assigned: AssignedLeads,
  opts: { email: boolean; webhookAgents: number[]; queued: boolean; skipExisting?: boolean },
): Promise<DeliveryBatch[]> {
  const channels: SQL[] = [];
  if (opts.email)
    channels.push(sql`select a.id, a.agent_id, 'EMAIL'::delivery_channel as channel
      from ${assignedLeads(assigned)}
      where not exists (select 1 from delivery_settings ds
        where ds.user_id = a.agent_id and not ds.email_enabled)`);
  if (opts.webhookAgents.length > 0)
    channels.push(sql`select a.id, a.agent_id, 'WEBHOOK'::delivery_channel as channel
      from ${assignedLeads(assigned)}
      where a.agent_id = any(${intArrayLiteral(opts.webhookAgents, 'int')})`);
  if (channels.length === 0) return [];
  // next_attempt_at: when a job will make the first attempt; null: no queue in this process
  // took it, the sweeper of a process that runs the queue will (deliveries.service)
  return queryRows<DeliveryBatch>(
    tx,
    sql`with ins as (
      insert into deliveries (lead_id, agent_id, channel, next_attempt_at)
      select c.id, c.agent_id, c.channel, ${opts.queued ? sql`now()` : sql`null`}
      from (${sql.join(channels, sql` union all `)}) c
      ${
        // a fan-out tried again after it committed records nothing twice
        opts.skipExisting
          ? sql`where not exists (select 1 from deliveries d
              where d.lead_id = c.id and d.channel = c.channel and d.agent_id = c.agent_id)`
          : sql``
      }
      returning id, agent_id, channel
    )
    select agent_id as "agentId", channel, min(id)::bigint as "fromId", max(id)::bigint as "toId",
      count(*)::int as count
    from ins group by agent_id, channel`,
  );
}

export interface ClaimedDelivery {
  id: number;
  leadId: number;
  agentId: number;
  attempts: number;
}

/**
 * Takes deliveries for an attempt: only those still PENDING at the expected attempt count, so two
 * jobs that name the same delivery (a sweep beside a late job) never both send it.
 */
export function claimDeliveries(
  db: Db,
  where: { agentId: number; channel: DeliveryChannel } & (
    | { fromId: number; toId: number }
    | { ids: number[]; attempts: number }
  ),
): Promise<ClaimedDelivery[]> {
  const which =
    'ids' in where
      ? sql`d.id = any(${intArrayLiteral(where.ids, 'bigint')}) and d.attempts = ${where.attempts}`
      : sql`d.id between ${where.fromId} and ${where.toId} and d.attempts = 0`;
  return queryRows<ClaimedDelivery>(
    db,
    sql`update deliveries d set attempts = d.attempts + 1, next_attempt_at = null, updated_at = now()
      where d.agent_id = ${where.agentId} and d.channel = ${where.channel}
        and d.status = 'PENDING' and ${which}
      returning d.id, d.lead_id as "leadId", d.agent_id as "agentId", d.attempts`,
  );
}

/**
 * Deliveries PENDING without a job: recorded where no queue ran (never attempted, no due time),
 * or left by a worker that died mid-attempt, or whose job is long overdue (after the grace).
 */
export function strandedDeliveries(db: Db, graceSeconds: number, limit: number) {
  return queryRows<{ id: number; agentId: number; channel: DeliveryChannel; attempts: number }>(
    db,
    sql`select d.id, d.agent_id as "agentId", d.channel, d.attempts from deliveries d
      where d.status = 'PENDING'
        and ((d.attempts = 0 and d.next_attempt_at is null)
          or coalesce(d.next_attempt_at, d.updated_at) < now() - make_interval(secs => ${graceSeconds}))
      order by d.id limit ${limit}`,
  );
}

/** Runs of the last day that gave out leads: the sweeper checks each was fanned out. */
export async function recentRunIds(db: Db): Promise<number[]> {
  const rows = await queryRows<{ id: number }>(
    db,
    sql`select id from assignment_runs
      where started_at > now() - interval '1 day' and assigned > 0 and error is null
      order by id`,
  );
  return rows.map((r) => r.id);
}

/** Marks deliveries as having a job due at `at` (the sweeper re-enqueued them). */
export async function markScheduled(db: Db, ids: number[], at: Date): Promise<void> {
  if (ids.length === 0) return;
  await db.execute(
    sql`update deliveries set next_attempt_at = ${at.toISOString()}::timestamptz
      where id = any(${intArrayLiteral(ids, 'bigint')}) and status = 'PENDING'`,
  );
}

export interface LeadForDelivery {
  id: number;
  externalId: string | null;
  firstName: string | null;
  lastName: string | null;
  phone: string | null;
  email: string | null;
  city: string;
  state: string;
  age: number;
  category: string;
  status: string;
  assignedAt: string | null;
  consentAt: string | null;
  consentText: string | null;
  trustedFormCertUrl: string | null;
  jornayaLeadId: string | null;
  consentIp: string | null;
  sourceId: number | null;
  sourceName: string | null;
}

export function leadsForDelivery(db: Db, leadIds: number[]): Promise<LeadForDelivery[]> {
  return queryRows<LeadForDelivery>(
    db,
    sql`select l.id, l.external_id as "externalId", l.first_name as "firstName",
        l.last_name as "lastName", l.phone, l.email, l.city, l.state, l.age, l.category, l.status,
        to_char(l.assigned_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "assignedAt",
        to_char(l.consent_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "consentAt",
        l.consent_text as "consentText", l.trusted_form_cert_url as "trustedFormCertUrl",
        l.jornaya_lead_id as "jornayaLeadId", l.consent_ip as "consentIp",
        l.source_id as "sourceId", s.name as "sourceName"
      from leads l left join sources s on s.id = l.source_id
      where l.id = any(${intArrayLiteral(leadIds, 'bigint')}) order by l.id`,
  );
}

export interface AgentDeliveryTarget {
  id: number;
  email: string;
  emailEnabled: boolean;
  webhookUrl: string | null;
  webhookAuthHeader: string | null;
  webhookEnabled: boolean;
  webhookSecret: string | null;
  serviceCrm: boolean;
}

export async function agentTarget(db: Db, agentId: number): Promise<AgentDeliveryTarget | null> {
  const [row] = await queryRows<AgentDeliveryTarget>(
    db,
    sql`select u.id, u.email, coalesce(ds.email_enabled, true) as "emailEnabled",
        ds.webhook_url as "webhookUrl", ds.webhook_auth_header as "webhookAuthHeader",
        coalesce(ds.webhook_enabled, false) as "webhookEnabled", ds.webhook_secret as "webhookSecret",
        coalesce(p.service_crm, false) as "serviceCrm"
      from users u
      left join delivery_settings ds on ds.user_id = u.id
      left join subscriptions s on s.user_id = u.id
      left join packages p on p.id = s.package_id
      where u.id = ${agentId}`,
  );
  return row ?? null;
}

/** One attempt's outcome, and what it leaves the delivery at. */
export interface AttemptOutcome {
  id: number;
  /** the delivery's status after this attempt (PENDING: a retry is scheduled) */
  status: DeliveryStatus;
  /** the attempt's own result */
  attemptStatus: DeliveryStatus;
  responseCode: number | null;
  latencyMs: number | null;
  error: string | null;
  messageId: string | null;
  nextAttemptAt: string | null;
}

/** Writes a batch of attempts: the attempt rows and the deliveries' new state, in one statement. */
export async function recordAttempts(tx: Db, outcomes: AttemptOutcome[]): Promise<void> {
  if (outcomes.length === 0) return;
  await tx.execute(
    sql`with r as (
      select * from jsonb_to_recordset(${JSON.stringify(outcomes)}::jsonb) as r(
        id bigint, status delivery_status, "attemptStatus" delivery_status, "responseCode" int,
        "latencyMs" int, error text, "messageId" text, "nextAttemptAt" timestamptz)
    ), u as (
      update deliveries d set status = r.status, response_code = r."responseCode",
        latency_ms = r."latencyMs", error = r.error,
        message_id = coalesce(r."messageId", d.message_id),
        next_attempt_at = r."nextAttemptAt", updated_at = now()
      from r where d.id = r.id
      returning d.id, d.attempts
    )
    insert into delivery_attempts (delivery_id, attempt, status, response_code, latency_ms, error)
    select r.id, u.attempts, r."attemptStatus", r."responseCode", r."latencyMs", r.error
    from r join u on u.id = r.id`,
  );
}

/**
 * Counts the webhook's failures in a row after a batch: `reset` when the batch had a success
 * (the count is then the failures after it). Switches the endpoint off at `limit`, once, and
 * answers whether this call did.
 */
export async function countWebhookFailures(
  tx: Db,
  agentId: number,
  change: { reset: boolean; failures: number },
  limit: number,
): Promise<boolean> {
  const rows = await queryRows<{ switched: boolean }>(
    tx,
    sql`update delivery_settings set
        webhook_failures_in_row = ${change.reset ? sql`${change.failures}` : sql`webhook_failures_in_row + ${change.failures}`},
        webhook_enabled = webhook_enabled and ${change.reset ? sql`${change.failures}` : sql`webhook_failures_in_row + ${change.failures}`} < ${limit},
        webhook_disabled_at = case
          when webhook_enabled and ${change.reset ? sql`${change.failures}` : sql`webhook_failures_in_row + ${change.failures}`} >= ${limit}
          then now() else webhook_disabled_at end,
        updated_at = now()
      where user_id = ${agentId}
      returning webhook_disabled_at is not null and webhook_disabled_at >= now() as switched`,
  );
  return rows[0]?.switched ?? false;
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

/** Deliveries of the switched-off endpoint still waiting: they will not be sent. */
export async function skipPendingWebhooks(tx: Db, agentId: number, reason: string) {
  await tx.execute(
    sql`with s as (
      update deliveries set status = 'SKIPPED', error = ${reason}, next_attempt_at = null,
        updated_at = now()
      where agent_id = ${agentId} and channel = 'WEBHOOK' and status = 'PENDING'
      returning id, attempts
    )
    insert into delivery_attempts (delivery_id, attempt, status, error)
    select id, attempts, 'SKIPPED', ${reason} from s`,
  );
}

// --- settings ------------------------------------------------------------------------------

export interface SettingsRow {
  emailEnabled: boolean;
  webhookUrl: string | null;
  webhookAuthHeader: string | null;
  webhookEnabled: boolean;
  webhookSecret: string;
  webhookFailuresInRow: number;
  webhookDisabledAt: string | null;
  email: string;
  serviceCrm: boolean;
}

const SETTINGS_COLUMNS = sql`ds.email_enabled as "emailEnabled", ds.webhook_url as "webhookUrl",
  ds.webhook_auth_header as "webhookAuthHeader", ds.webhook_enabled as "webhookEnabled",
  ds.webhook_secret as "webhookSecret", ds.webhook_failures_in_row as "webhookFailuresInRow",
  to_char(ds.webhook_disabled_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "webhookDisabledAt",
  u.email, coalesce(p.service_crm, false) as "serviceCrm"`;

/** The agent's settings, the row created (with this fresh secret) on first read. */
export async function ensureSettings(db: Db, userId: number, secret: string): Promise<SettingsRow> {
  await db.execute(
    sql`insert into delivery_settings (user_id, webhook_secret) values (${userId}, ${secret})
      on conflict (user_id) do nothing`,
  );
  const [row] = await queryRows<SettingsRow>(
    db,
    sql`select ${SETTINGS_COLUMNS} from delivery_settings ds
      join users u on u.id = ds.user_id
      left join subscriptions s on s.user_id = u.id
      left join packages p on p.id = s.package_id
      where ds.user_id = ${userId}`,
  );
  return row!;
}

export async function updateSettings(
  db: Db,
  userId: number,
  change: {
    emailEnabled?: boolean;
    webhookUrl?: string | null;
    webhookAuthHeader?: string | null;
    webhookEnabled?: boolean;
  },
): Promise<void> {
  const sets: SQL[] = [sql`updated_at = now()`];
  if (change.emailEnabled !== undefined) sets.push(sql`email_enabled = ${change.emailEnabled}`);
  if (change.webhookUrl !== undefined) sets.push(sql`webhook_url = ${change.webhookUrl}`);
  if (change.webhookAuthHeader !== undefined)
    sets.push(sql`webhook_auth_header = ${change.webhookAuthHeader}`);
  if (change.webhookEnabled !== undefined) {
    sets.push(sql`webhook_enabled = ${change.webhookEnabled}`);
    // turning it on again starts a fresh count
    if (change.webhookEnabled)
      sets.push(sql`webhook_failures_in_row = 0`, sql`webhook_disabled_at = null`);
  }
  await db.execute(
    sql`update delivery_settings set ${sql.join(sets, sql`, `)} where user_id = ${userId}`,
  );
}

// --- logs ----------------------------------------------------------------------------------

const ISO = (column: SQL) =>
  sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

export async function leadOfAgent(db: Db, leadId: number, agentId: number): Promise<boolean> {
  const rows = await queryRows<{ id: number }>(
    db,
    sql`select id from leads where id = ${leadId} and agent_id = ${agentId}`,
  );
  return rows.length > 0;
}

export function leadStatusHistory(db: Db, leadId: number) {
  return queryRows<{
    at: string;
    kind: string;
    fromStatus: string | null;
    toStatus: string;
    actor: string | null;
  }>(
    db,
    sql`select ${ISO(sql`h.created_at`)} as at, h.kind, h.from_status as "fromStatus",
        h.to_status as "toStatus", u.name as actor
      from lead_history h left join users u on u.id = h.actor_id
      where h.lead_id = ${leadId} order by h.created_at, h.id`,
  );
}

export function leadDeliveryAttempts(db: Db, leadId: number, agentId: number) {
  return queryRows<{
    at: string;
    channel: DeliveryChannel;
    status: DeliveryStatus;
    attempt: number;
    responseCode: number | null;
    error: string | null;
  }>(
    db,
    sql`select ${ISO(sql`a.at`)} as at, d.channel, a.status, a.attempt,
        a.response_code as "responseCode", a.error
      from deliveries d join delivery_attempts a on a.delivery_id = d.id
      where d.lead_id = ${leadId} and d.agent_id = ${agentId} order by a.at, a.id`,
  );
}

export async function listDeliveries(
  db: Db,
  filter: { status?: DeliveryStatus; channel?: DeliveryChannel; limit: number; offset: number },
) {
  const where: SQL[] = [sql`true`];
  if (filter.status) where.push(sql`d.status = ${filter.status}`);
  if (filter.channel) where.push(sql`d.channel = ${filter.channel}`);
  const cond = sql.join(where, sql` and `);
  const items = await queryRows<Record<string, unknown>>(
    db,
    sql`select d.id, d.lead_id as "leadId",
        coalesce(nullif(trim(coalesce(l.first_name, '') || ' ' || coalesce(l.last_name, '')), ''),
          'Lead #' || d.lead_id) as "leadName",
        d.agent_id as "agentId", coalesce(u.name, '(deleted)') as "agentName", d.channel, d.status,
        d.attempts, d.response_code as "responseCode", d.latency_ms as "latencyMs", d.error,
        ${ISO(sql`d.created_at`)} as "createdAt", ${ISO(sql`d.updated_at`)} as "updatedAt",
        ${ISO(sql`d.next_attempt_at`)} as "nextAttemptAt"
      from deliveries d
      left join leads l on l.id = d.lead_id
      left join users u on u.id = d.agent_id
      where ${cond} order by d.id desc limit ${filter.limit} offset ${filter.offset}`,
  );
  const [{ total }] = await queryRows<{ total: number }>(
    db,
    sql`select count(*)::int as total from deliveries d where ${cond}`,
  );
  return { items, total };
}

/** Per channel over the last 24 hours (the admin's screen; a scan of a day of deliveries). */
export function channelCounts(db: Db) {
  return queryRows<{ channel: DeliveryChannel; sent: number; failed: number; pending: number }>(
    db,
    sql`select c.channel,
        count(*) filter (where d.status = 'SENT' and d.updated_at > now() - interval '24 hours')::int as sent,
        count(*) filter (where d.status = 'FAILED' and d.updated_at > now() - interval '24 hours')::int as failed,
        count(*) filter (where d.status = 'PENDING')::int as pending
      from (values ('EMAIL'::delivery_channel), ('WEBHOOK'::delivery_channel)) c(channel)
      left join deliveries d on d.channel = c.channel
        and (d.status = 'PENDING' or d.updated_at > now() - interval '24 hours')
      group by c.channel order by c.channel`,
  );
}

/**
 * The latest attempts (within the hour, at most `scan` of them, newest first) with their channel:
 * a bounded read backwards along the attempts' primary key, cheap enough for /api/health.
 */
export function recentAttempts(db: Db, scan: number) {
  return queryRows<{ channel: DeliveryChannel; status: DeliveryStatus }>(
    db,
    sql`select d.channel, a.status from (
        select delivery_id, status from delivery_attempts
        where status in ('SENT', 'FAILED') and at > now() - interval '1 hour'
        order by id desc limit ${scan}
      ) a join deliveries d on d.id = a.delivery_id`,
  );
}

/** The backlog, counted up to `cap`: deliveries waiting, and the age of the oldest one. */
export async function deliveryBacklog(db: Db, cap: number) {
  const [row] = await queryRows<{ pending: number; oldestSeconds: number | null }>(
    db,
    sql`select (select count(*)::int from (select 1 from deliveries where status = 'PENDING' limit ${cap}) p) as pending,
        (select greatest(0, extract(epoch from now() - coalesce(d.next_attempt_at, d.created_at)))::int
          from deliveries d where d.status = 'PENDING' order by d.id limit 1) as "oldestSeconds"`,
  );
  return row ?? { pending: 0, oldestSeconds: null };
}

/** Admin retry: a FAILED delivery goes back to PENDING (answers its attempts, or null). */
export async function reopenFailed(
  db: Db,
  id: number,
): Promise<{ id: number; agentId: number; channel: DeliveryChannel; attempts: number } | null> {
  const [row] = await queryRows<{
    id: number;
    agentId: number;
    channel: DeliveryChannel;
    attempts: number;
  }>(
    db,
    sql`update deliveries set status = 'PENDING', next_attempt_at = now(), updated_at = now()
      where id = ${id} and status = 'FAILED'
      returning id, agent_id as "agentId", channel, attempts`,
  );
  return row ?? null;
}

export async function deliveryExists(db: Db, id: number): Promise<boolean> {
  const rows = await queryRows(db, sql`select 1 from deliveries where id = ${id}`);
  return rows.length > 0;
}
