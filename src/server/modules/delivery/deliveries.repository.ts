/** The delivery pipeline's statements: recording deliveries, claiming them, their attempts, the switch-off. */
import { type SQL, sql } from 'drizzle-orm';
import {
  DELIVERY_CHANNELS,
  type DeliveryChannel,
  type DeliveryStatus,
} from '../../../shared/domain';
import {
  type Db,
  enumLiteral,
  idsParam,
  intArrayLiteral,
  leadsNamed,
  queryPreparedRows,
  queryRows,
} from '../../db/client';
import type { AssignedLeads } from '../../events/lead-events';
import { PREVIOUS_SECRET } from './delivery-settings.repository';

/** The deliveries one statement recorded for one agent on one channel: a job's batch. */
export interface DeliveryBatch {
  agentId: number;
  channel: DeliveryChannel;
  fromId: number;
  toId: number;
  count: number;
}

/** The leads an assignment gave out, as a FROM item `a(id, agent_id)`. */
function assignedLeads(assigned: AssignedLeads, leadIds?: SQL): SQL {
  if ('runId' in assigned) {
    // through leads_assigned_day_idx: the run's business date first, then its own leads
    return sql`(select l.id, l.agent_id from leads l
      where l.assigned_on = (select r.business_date from assignment_runs r where r.id = ${assigned.runId})
        and l.assignment_run_id = ${assigned.runId} and l.agent_id is not null) a`;
  }
  return sql`(select l.id, l.agent_id
    from ${leadsNamed(leadIds ?? intArrayLiteral(assigned.leadIds, 'bigint'))} l
    where l.agent_id is not null) a`;
}

/** Agents who turned their email off. */
export async function emailOffAgentIds(db: Db): Promise<number[]> {
  const rows = await queryRows<{ id: number }>(
    db,
    sql`select user_id as id from delivery_settings where not email_enabled`,
  );
  return rows.map((r) => r.id);
}

/** The agents whose CRM webhook is on: a URL, enabled, and a package with the CRM service. */
const WEBHOOK_AGENTS = sql`(select ds.user_id from delivery_settings ds
  join subscriptions s on s.user_id = ds.user_id
  join packages p on p.id = s.package_id
  where ds.webhook_enabled and ds.webhook_url is not null and p.service_crm) w`;

/** Their ids: a run's fan-out filters by them as a constant array. */
export async function webhookAgentIds(db: Db): Promise<number[]> {
  const rows = await queryRows<{ id: number }>(
    db,
    sql`select user_id as id from ${WEBHOOK_AGENTS}`,
  );
  return rows.map((r) => r.id);
}

/** Whether any agent's CRM webhook is on (the health check and the sweeper ask just that). */
export async function anyWebhookOn(db: Db): Promise<boolean> {
  const [row] = await queryRows<{ on: boolean }>(
    db,
    sql`select exists (select 1 from ${WEBHOOK_AGENTS}) as "on"`,
  );
  return row?.on ?? false;
}

/** Which agents take which channel: constant arrays (a run), or looked up per lead (a few). */
export type ChannelAgents =
  | { emailOffAgents: number[]; webhookAgents: number[] }
  | { lookup: true };

/** The lead's agent is one of them (a lookup per lead: for named leads only). */
const WEBHOOK_ON = sql`exists (select 1 from ${WEBHOOK_AGENTS} where w.user_id = a.agent_id)`;

/**
 * Records the deliveries of an assignment's leads in one statement (INSERT ... SELECT), and
 * answers them grouped by agent and channel: a few rows per agent whatever the number of leads.
 * Email: every lead whose agent has not turned email off; webhook: the leads of agents whose
 * webhook is on. For a run (up to a million leads) the agents come as constant arrays, which
 * PostgreSQL hashes: never a lookup per lead; for named leads (manual, intake) a lookup each.
 */
export async function insertDeliveries(
  tx: Db,
  assigned: AssignedLeads,
  opts: { email: boolean; agents: ChannelAgents; queued: boolean },
): Promise<DeliveryBatch[]> {
  const { agents } = opts;
  // one named lead (the intake's): its id bound, so the statement's text is the same each time
  // and it is prepared once per connection (a batch keeps its literal: intArrayLiteral)
  const one = 'leadIds' in assigned && assigned.leadIds.length === 1 && 'lookup' in agents;
  const ids = one ? idsParam((assigned as { leadIds: number[] }).leadIds) : undefined;
  const channels: SQL[] = [];
  if (opts.email) {
    const emailOn =
      'lookup' in agents
        ? sql`where not exists (select 1 from delivery_settings ds
            where ds.user_id = a.agent_id and not ds.email_enabled)`
        : agents.emailOffAgents.length > 0
          ? sql`where a.agent_id <> all(${intArrayLiteral(agents.emailOffAgents, 'int')})`
          : sql``;
    channels.push(sql`select a.id, a.agent_id, 'EMAIL'::delivery_channel as channel
      from ${assignedLeads(assigned, ids)} ${emailOn}`);
  }
  if ('lookup' in agents || agents.webhookAgents.length > 0) {
    const webhookOn =
      'lookup' in agents
        ? WEBHOOK_ON
        : sql`a.agent_id = any(${intArrayLiteral(agents.webhookAgents, 'int')})`;
    channels.push(sql`select a.id, a.agent_id, 'WEBHOOK'::delivery_channel as channel
      from ${assignedLeads(assigned, ids)} where ${webhookOn}`);
  }
  if (channels.length === 0) return [];
  // next_attempt_at: when a job will make the first attempt; null: no queue in this process
  // took it, the sweeper of a process that runs the queue will (deliveries.service)
  return (one ? queryPreparedRows : queryRows)<DeliveryBatch>(
    tx,
    sql`with ins as (
      insert into deliveries (lead_id, agent_id, channel, next_attempt_at)
      select c.id, c.agent_id, c.channel, ${opts.queued ? sql`now()` : sql`null`}
      from (${sql.join(channels, sql` union all `)}) c
      -- a fan-out tried again after it committed records nothing twice
      on conflict (lead_id, channel, agent_id) do nothing
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
  /** seconds since the delivery was recorded (the lead assigned): its lag when this attempt succeeds */
  ageSeconds: number;
}

/** The deliveries a job names: an id range's first attempts, or named deliveries' next one. */
export type DeliveriesOfJob = { agentId: number; channel: DeliveryChannel } & (
  | { fromId: number; toId: number }
  | { ids: number[]; attempts: number }
);

/** What one job's claim took: its deliveries, their leads, and the agent's delivery settings. */
export interface JobClaim {
  claimed: ClaimedDelivery[];
  leads: Map<number, LeadForDelivery>;
  target: AgentDeliveryTarget | null;
}

/**
 * Takes deliveries for an attempt: only those still PENDING at the expected attempt count, so two
 * jobs that name the same delivery (a sweep beside a late job) never both send it.
 *
 * The claims of several jobs in one statement (decision 047): each job's deliveries as id ranges
 * of one agent and channel at an attempt count (a named delivery is a range of one), taken through
 * `deliveries_agent_idx` range by range. Answers each job's claim, in the jobs' order.
 */
export async function claimDeliveriesOfJobs(
  db: Db,
  jobs: DeliveriesOfJob[],
  leaseSeconds: number,
): Promise<JobClaim[]> {
  const ranges: {
    job: number;
    agentId: number;
    channel: DeliveryChannel;
    from: number;
    to: number;
    attempts: number;
  }[] = jobs.flatMap((job, index) => {
    const { agentId, channel } = job;
    return 'ids' in job
      ? job.ids.map((id) => ({
          job: index,
          agentId,
          channel,
          from: id,
          to: id,
          attempts: job.attempts,
        }))
      : [{ job: index, agentId, channel, from: job.fromId, to: job.toId, attempts: 0 }];
  });
  const column = (key: 'job' | 'agentId' | 'from' | 'to' | 'attempts', type: 'bigint' | 'int') =>
    intArrayLiteral(
      ranges.map((r) => r[key]),
      type,
    );
  const channels = ranges.map((r) => enumLiteral(r.channel, DELIVERY_CHANNELS));
  // the claim is a lease (decision 040): none while another worker holds one. The leads and the
  // agents' settings come with it
  const rows = await queryRows<
    ClaimedDelivery & {
      job: number;
      lead: LeadForDelivery | null;
      target: AgentDeliveryTarget | null;
    }
  >(
    db,
    sql`with j as (
      select * from unnest(${column('job', 'int')}, ${column('agentId', 'bigint')},
        array[${sql.join(channels, sql`, `)}]::delivery_channel[],
        ${column('from', 'bigint')}, ${column('to', 'bigint')}, ${column('attempts', 'int')}) as j(job, agent_id, channel, from_id, to_id, attempts)
    ), t as materialized (
      -- job by job (lateral, fenced by offset 0 so that the ranges drive), each range read from
      -- an index by its ids: never every waiting delivery, whatever the statistics say; kept
      -- apart (materialized) so that the update below joins the deliveries to what it found,
      -- never the ranges to every delivery first
      select j.job, j.attempts, x.id, x.status from j cross join lateral (
        select d.id, d.status from deliveries d
        where d.agent_id = j.agent_id and d.id between j.from_id and j.to_id
          and d.channel = j.channel and d.attempts = j.attempts
          and d.status = 'PENDING' and d.lease_until is null
        offset 0
      ) x
    ), c as (
      update deliveries d set attempts = d.attempts + 1, next_attempt_at = null, updated_at = now(),
        lease_until = now() + make_interval(secs => ${leaseSeconds})
      from t
      -- checked again on the row as locked: a worker that claimed it meanwhile keeps it. The
      -- status is compared with the one read (PENDING), not with a constant: a constant would let
      -- the planner start from every waiting delivery when the statistics say there are none
      where d.id = t.id and d.attempts = t.attempts
        and d.status = t.status and d.lease_until is null
      returning t.job, d.id, d.lead_id as "leadId", d.agent_id as "agentId", d.attempts,
                extract(epoch from now() - d.created_at)::float8 as "ageSeconds"
    )
    select c.*,
      (select to_jsonb(x) from (select ${LEAD_FOR_DELIVERY} where l.id = c."leadId") x) as lead,
      (select to_jsonb(t) from (select ${AGENT_TARGET} where u.id = c."agentId") t) as target
    from c order by c.job, c.id`,
  );
  const claims: JobClaim[] = jobs.map(() => ({ claimed: [], leads: new Map(), target: null }));
  for (const { job, lead, target, ...c } of rows) {
    const claim = claims[job]!;
    claim.claimed.push(c);
    if (lead) claim.leads.set(lead.id, lead);
    claim.target ??= target;
  }
  return claims;
}

/** A claimed delivery as its lease names it: the attempt count its claim left. */
export interface HeldDelivery {
  id: number;
  attempts: number;
}

/** (id, attempts) pairs as a FROM item `h(id, attempts)`. */
function held(rows: HeldDelivery[]): SQL {
  return sql`unnest(${intArrayLiteral(
    rows.map((r) => r.id),
    'bigint',
  )}, ${intArrayLiteral(
    rows.map((r) => r.attempts),
    'int',
  )}) as h(id, attempts)`;
}

/**
 * Renews this worker's leases: only those still its own (the same attempt count, a lease still
 * held); answers the ids renewed. A lease another process took over is not renewed.
 */
export async function renewLeases(
  db: Db,
  rows: HeldDelivery[],
  leaseSeconds: number,
): Promise<number[]> {
  if (rows.length === 0) return [];
  const renewed = await queryRows<{ id: number }>(
    db,
    sql`update deliveries d set lease_until = now() + make_interval(secs => ${leaseSeconds})
      from ${held(rows)}
      where d.id = h.id and d.attempts = h.attempts and d.lease_until is not null
        and d.status = 'PENDING'
      returning d.id`,
  );
  return renewed.map((r) => r.id);
}

/**
 * Takes over the deliveries whose lease lapsed (their worker stopped renewing it: it died): the
 * lease is cleared and they are due now; the caller enqueues their next attempt in the same
 * transaction. Locked rows are skipped: two processes' sweeps never take the same delivery.
 */
export function takeOverLapsedLeases(tx: Db, limit: number) {
  return queryRows<{ id: number; agentId: number; channel: DeliveryChannel; attempts: number }>(
    tx,
    sql`with lapsed as (
      select id from deliveries
      where lease_until < now() and status = 'PENDING'
      order by lease_until limit ${limit}
      for update skip locked
    )
    update deliveries d set lease_until = null, next_attempt_at = now(), updated_at = now()
    from lapsed where d.id = lapsed.id
    returning d.id, d.agent_id as "agentId", d.channel, d.attempts`,
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
      where d.status = 'PENDING' and d.lease_until is null
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
  zip: string | null;
  timeZone: string | null;
  consentAt: string | null;
  consentText: string | null;
  trustedFormCertUrl: string | null;
  jornayaLeadId: string | null;
  consentIp: string | null;
  sourceId: number | null;
  sourceName: string | null;
}

/** A lead as a delivery sends it (`l`, its source `s`). */
const LEAD_FOR_DELIVERY = sql`l.id, l.external_id as "externalId", l.first_name as "firstName",
  l.last_name as "lastName", l.phone, l.email, l.city, l.state, l.age, l.category, l.status,
  to_char(l.assigned_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "assignedAt",
  l.zip, l.time_zone as "timeZone",
  to_char(l.consent_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "consentAt",
  l.consent_text as "consentText", l.trusted_form_cert_url as "trustedFormCertUrl",
  l.jornaya_lead_id as "jornayaLeadId", l.consent_ip as "consentIp",
  l.source_id as "sourceId", s.name as "sourceName"
  from leads l left join sources s on s.id = l.source_id`;

export interface AgentDeliveryTarget {
  id: number;
  email: string;
  emailEnabled: boolean;
  webhookUrl: string | null;
  webhookAuthHeader: string | null;
  webhookEnabled: boolean;
  webhookSecret: string | null;
  /** the secret before the last rotation, while the overlap lasts */
  webhookPreviousSecret: string | null;
  serviceCrm: boolean;
  /** the endpoint's failures in a row when read (0: nothing to reset after a success) */
  webhookFailuresInRow: number;
}

/** An agent's delivery settings (`u` the agent). */
const AGENT_TARGET = sql`u.id, u.email, coalesce(ds.email_enabled, true) as "emailEnabled",
  ds.webhook_url as "webhookUrl", ds.webhook_auth_header as "webhookAuthHeader",
  coalesce(ds.webhook_enabled, false) as "webhookEnabled", ds.webhook_secret as "webhookSecret",
  ${PREVIOUS_SECRET} as "webhookPreviousSecret", coalesce(p.service_crm, false) as "serviceCrm",
  coalesce(ds.webhook_failures_in_row, 0)::int as "webhookFailuresInRow"
  from users u
  left join delivery_settings ds on ds.user_id = u.id
  left join subscriptions s on s.user_id = u.id
  left join packages p on p.id = s.package_id`;

export async function agentTarget(db: Db, agentId: number): Promise<AgentDeliveryTarget | null> {
  const [row] = await queryRows<AgentDeliveryTarget>(
    db,
    sql`select ${AGENT_TARGET} where u.id = ${agentId}`,
  );
  return row ?? null;
}

/** One attempt's outcome, and what it leaves the delivery at. */
export interface AttemptOutcome {
  id: number;
  /** the attempt count the claim left: the attempt is recorded only while that claim holds */
  attempts?: number;
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

/**
 * Writes a batch of attempts: the attempt rows and the deliveries' new state, in one statement,
 * and ends their leases. Only deliveries still under this worker's claim (the attempt count it
 * left, a lease held): one another process took over meanwhile is left to it. Answers the ids
 * recorded.
 */
export async function recordAttempts(tx: Db, outcomes: AttemptOutcome[]): Promise<Set<number>> {
  if (outcomes.length === 0) return new Set();
  const rows = await queryRows<{ id: number }>(
    tx,
    sql`with r as (
      select * from jsonb_to_recordset(${JSON.stringify(outcomes)}::jsonb) as r(
        id bigint, attempts int, status delivery_status, "attemptStatus" delivery_status,
        "responseCode" int, "latencyMs" int, error text, "messageId" text,
        "nextAttemptAt" timestamptz)
    ), u as (
      update deliveries d set status = r.status, response_code = r."responseCode",
        latency_ms = r."latencyMs", error = r.error,
        message_id = coalesce(r."messageId", d.message_id),
        next_attempt_at = r."nextAttemptAt", updated_at = now(), lease_until = null
      from r where d.id = r.id
        -- the ids again as a constant array: the planner then probes the primary key for these
        -- few, where the function's guess of 100 rows made it hash the whole table
        and d.id = any(${intArrayLiteral(
          outcomes.map((o) => o.id),
          'bigint',
        )})
        and (r.attempts is null or (d.attempts = r.attempts and d.lease_until is not null))
      returning d.id, d.attempts
    ), ins as (
      insert into delivery_attempts (delivery_id, attempt, status, response_code, latency_ms, error)
      select r.id, u.attempts, r."attemptStatus", r."responseCode", r."latencyMs", r.error
      from r join u on u.id = r.id
    )
    select id from u`,
  );
  return new Set(rows.map((r) => r.id));
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
        -- nothing written when nothing changes (a success on an endpoint without failures)
        and webhook_failures_in_row is distinct from ${change.reset ? sql`${change.failures}` : sql`webhook_failures_in_row + ${change.failures}`}
      returning webhook_disabled_at is not null and webhook_disabled_at >= now() as switched`,
  );
  return rows[0]?.switched ?? false;
}

/**
 * Gives back claimed deliveries that were not attempted (their endpoint failed before their turn):
 * the claim's count is undone, and they are due at `at`.
 */
export async function releaseDeliveries(
  tx: Db,
  rows: HeldDelivery[],
  at: string,
): Promise<number[]> {
  if (rows.length === 0) return [];
  const released = await queryRows<{ id: number }>(
    tx,
    sql`update deliveries d set attempts = d.attempts - 1, next_attempt_at = ${at}::timestamptz,
        updated_at = now(), lease_until = null
      from ${held(rows)}
      where d.id = h.id and d.attempts = h.attempts and d.lease_until is not null
        and d.status = 'PENDING'
      returning d.id`,
  );
  return released.map((r) => r.id);
}

/** Deliveries of the switched-off endpoint still waiting: they will not be sent. */
export async function skipPendingWebhooks(tx: Db, agentId: number, reason: string) {
  await tx.execute(
    sql`with s as (
      update deliveries set status = 'SKIPPED', error = ${reason}, next_attempt_at = null,
        updated_at = now(), lease_until = null
      where agent_id = ${agentId} and channel = 'WEBHOOK' and status = 'PENDING'
      returning id, attempts
    )
    insert into delivery_attempts (delivery_id, attempt, status, error)
    select id, attempts, 'SKIPPED', ${reason} from s`,
  );
}
