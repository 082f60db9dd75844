/** Calls and the agent's services (docs/domain.md, Follow-up messages and calls): the SQL, nothing else. */
import { sql } from 'drizzle-orm';
import type { CallStatus, LeadStatus } from '../../../shared/domain';
import { type Db, intArrayLiteral, queryRows } from '../../db/client';
import { isoInstant } from '../../db/iso-instant';

const ISO = (column: string) => isoInstant(sql.raw(column));

export interface AgentServiceRow {
  name: string;
  phone: string | null;
  phoneVerified: boolean;
  callRecording: boolean;
  followUpMessage: boolean;
}

/** The agent's phone and the services of the package of their ACTIVE subscription. */
export async function agentServiceRow(db: Db, agentId: number): Promise<AgentServiceRow | null> {
  const [row] = await queryRows<AgentServiceRow>(
    db,
    sql`select u.name, u.phone, u.phone_verified_at is not null as "phoneVerified",
        coalesce(p.service_call_recording, false) as "callRecording",
        coalesce(p.service_follow_up_message, false) as "followUpMessage"
      from users u
      left join subscriptions s on s.user_id = u.id and s.status = 'ACTIVE'
      left join packages p on p.id = s.package_id
      where u.id = ${agentId}`,
  );
  return row ?? null;
}

export interface CallableLead {
  id: number;
  phone: string | null;
  state: string;
  timeZone: string | null;
  status: LeadStatus;
  onDnc: boolean;
}

/** The agent's own lead (null for another's), and whether its phone is on the DNC list. */
export async function leadToCall(
  db: Db,
  agentId: number,
  leadId: number,
): Promise<CallableLead | null> {
  const [row] = await queryRows<CallableLead>(
    db,
    sql`select l.id, l.phone, l.state, l.time_zone as "timeZone", l.status,
        exists (select 1 from dnc_numbers d where d.phone = l.phone) as "onDnc"
      from leads l where l.id = ${leadId} and l.agent_id = ${agentId}`,
  );
  return row ?? null;
}

export interface CallRow {
  id: number;
  leadId: number;
  agentId: number;
  providerSid: string | null;
  status: CallStatus;
  createdAt: string;
  connectedAt: string | null;
  endedAt: string | null;
  durationSeconds: number | null;
  error: string | null;
  recordingSid: string | null;
  recordingSeconds: number | null;
}

const CALL_COLUMNS = sql`c.id, c.lead_id as "leadId", c.agent_id as "agentId",
  c.provider_sid as "providerSid", c.status, ${ISO('c.created_at')} as "createdAt",
  ${ISO('c.connected_at')} as "connectedAt", ${ISO('c.ended_at')} as "endedAt",
  c.duration_seconds as "durationSeconds", c.error, c.recording_sid as "recordingSid",
  c.recording_seconds as "recordingSeconds"`;

export async function insertCall(db: Db, leadId: number, agentId: number): Promise<CallRow> {
  const [row] = await queryRows<CallRow>(
    db,
    sql`with c as (insert into calls (lead_id, agent_id) values (${leadId}, ${agentId})
      returning *) select ${CALL_COLUMNS} from c`,
  );
  return row!;
}

export async function setCallProvider(
  db: Db,
  id: number,
  change: { providerSid: string } | { error: string },
): Promise<CallRow | null> {
  const set =
    'providerSid' in change
      ? sql`provider_sid = ${change.providerSid}`
      : sql`status = 'FAILED', error = ${change.error}, ended_at = now()`;
  const [row] = await queryRows<CallRow>(
    db,
    sql`with c as (update calls set ${set}, updated_at = now() where id = ${id} returning *)
      select ${CALL_COLUMNS} from c`,
  );
  return row ?? null;
}

export async function callById(db: Db, id: number): Promise<CallRow | null> {
  const [row] = await queryRows<CallRow>(
    db,
    sql`select ${CALL_COLUMNS} from calls c where c.id = ${id}`,
  );
  return row ?? null;
}

export async function callsOfLead(db: Db, leadId: number): Promise<CallRow[]> {
  return queryRows<CallRow>(
    db,
    sql`select ${CALL_COLUMNS} from calls c where c.lead_id = ${leadId} order by c.id desc limit 100`,
  );
}

/** The lead's phone for the bridge (the call's lead). */
export async function leadPhoneOfCall(db: Db, callId: number): Promise<string | null> {
  const [row] = await queryRows<{ phone: string | null }>(
    db,
    sql`select l.phone from calls c join leads l on l.id = c.lead_id where c.id = ${callId}`,
  );
  return row?.phone ?? null;
}

/** The parent call's progress; terminal ones only while the bridge has not reported. */
export async function applyCallStatus(
  db: Db,
  providerSid: string,
  status: CallStatus,
  terminal: boolean,
): Promise<void> {
  const order = (s: string) =>
    sql.raw(
      `case ${s} when 'QUEUED' then 0 when 'RINGING' then 1 when 'IN_PROGRESS' then 2 else 3 end`,
    );
  await db.execute(
    terminal
      ? sql`update calls set status = ${status}::call_status, ended_at = now(), updated_at = now()
          where provider_sid = ${providerSid} and ended_at is null`
      : sql`update calls set status = ${status}::call_status, updated_at = now()
          where provider_sid = ${providerSid} and ended_at is null
            and ${order('status')} < ${order(`'${status}'`)}`,
  );
}

/**
 * The bridge's result (the Dial's action): its outcome and, when the lead answered, when and how
 * long. Applied once: a replay finds ended_at set (null).
 */
export async function applyDialResult(
  tx: Db,
  callId: number,
  result: { status: CallStatus; durationSeconds: number | null; connected: boolean },
): Promise<CallRow | null> {
  const connectedAt = result.connected
    ? sql`now() - make_interval(secs => ${result.durationSeconds ?? 0})`
    : sql`null`;
  const [row] = await queryRows<CallRow>(
    tx,
    sql`with c as (update calls set status = ${result.status}::call_status,
        connected_at = ${connectedAt}, duration_seconds = ${result.durationSeconds},
        ended_at = now(), updated_at = now()
      where id = ${callId} and ended_at is null returning *)
      select ${CALL_COLUMNS} from c`,
  );
  return row ?? null;
}

/** The recording's callback: stored once (a replay writes the same values). */
export async function applyRecording(
  db: Db,
  callId: number,
  recording: { sid: string; url: string; seconds: number | null },
): Promise<boolean> {
  const rows = await queryRows<{ id: number }>(
    db,
    sql`update calls set recording_sid = ${recording.sid}, recording_url = ${recording.url},
        recording_seconds = ${recording.seconds}, updated_at = now()
      where id = ${callId} and (recording_sid is null or recording_sid = ${recording.sid})
      returning id`,
  );
  return rows.length > 0;
}

/** The recent calls' outcomes: voice is FAILING when the latest ones all failed. */
export async function recentCallStatuses(db: Db, n: number): Promise<CallStatus[]> {
  const rows = await queryRows<{ status: CallStatus }>(
    db,
    sql`select status from calls where created_at > now() - interval '1 day'
      order by id desc limit ${n}`,
  );
  return rows.map((r) => r.status);
}

/** Namespace of the per-agent call locks (two-int advisory keys: 'LFCL', agent id). */
const CALL_LOCK = 0x4c46434c;

/** How long a call without its ending callback still counts as in flight. */
const IN_FLIGHT_HOURS = 4;

/** What the limits on calls read, for one agent and one of their leads. */
export interface CallCounts {
  agentInFlight: number;
  leadInFlight: number;
  /** the agent's calls of the last hour, and the seconds until the oldest of them is an hour old */
  agentLastHour: number;
  agentHourFreesIn: number;
  /** the lead's calls of the last 24 hours, and the seconds until the oldest is a day old */
  leadLastDay: number;
  leadDayFreesIn: number;
}

/**
 * Waits for the agent's call lock (held to the end of the transaction), then counts: two calls
 * asked for at once are counted one after the other.
 */
export async function lockAndCountCalls(
  tx: Db,
  agentId: number,
  leadId: number,
): Promise<CallCounts> {
  await tx.execute(sql`select pg_advisory_xact_lock(${CALL_LOCK}::int, ${agentId}::int)`);
  const [row] = await queryRows<Record<keyof CallCounts, number>>(
    tx,
    sql`select
          count(*) filter (where c.status in ('QUEUED', 'RINGING', 'IN_PROGRESS')
                             and c.created_at > now() - make_interval(hours => ${IN_FLIGHT_HOURS}))::int
            as "agentInFlight",
          count(*) filter (where c.lead_id = ${leadId} and c.status in ('QUEUED', 'RINGING', 'IN_PROGRESS')
                             and c.created_at > now() - make_interval(hours => ${IN_FLIGHT_HOURS}))::int
            as "leadInFlight",
          count(*) filter (where c.created_at > now() - interval '1 hour')::int as "agentLastHour",
          coalesce(ceil(extract(epoch from min(c.created_at) filter (where c.created_at > now() - interval '1 hour')
                   + interval '1 hour' - now())), 0)::int as "agentHourFreesIn",
          count(*) filter (where c.lead_id = ${leadId})::int as "leadLastDay",
          coalesce(ceil(extract(epoch from min(c.created_at) filter (where c.lead_id = ${leadId})
                   + interval '1 day' - now())), 0)::int as "leadDayFreesIn"
        from calls c
        where c.agent_id = ${agentId} and c.created_at > now() - interval '1 day'`,
  );
  if (!row) throw new Error('call counts: no row');
  return row;
}

/**
 * Marks the bridge served (the connect callback) and answers true, once per call and only while
 * it is not over: a replayed callback gets false.
 */
export async function claimBridge(db: Db, callId: number): Promise<boolean> {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`update calls set bridged_at = now(), updated_at = now()
         where id = ${callId} and bridged_at is null
           and status in ('QUEUED', 'RINGING', 'IN_PROGRESS')
        returning id`,
  );
  return rows.length > 0;
}

/**
 * Forgets the recordings of these leads' calls (docs/domain.md, Consumer deletion and retention):
 * answers the provider's recording ids, which are then removed at the provider.
 */
export async function forgetRecordings(tx: Db, leadIds: number[]): Promise<string[]> {
  if (leadIds.length === 0) return [];
  const rows = await queryRows<{ sid: string }>(
    tx,
    sql`update calls c set recording_sid = null, recording_url = null, recording_seconds = null,
          updated_at = now()
        from (select id, recording_sid from calls
               where lead_id = any(${intArrayLiteral(leadIds, 'bigint')})
                 and recording_sid is not null for update) old
        where c.id = old.id
        returning old.recording_sid as sid`,
  );
  return rows.map((r) => r.sid);
}
