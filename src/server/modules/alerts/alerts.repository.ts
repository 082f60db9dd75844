/** The alerts module's queries: the agents' alert settings, the SMS alerts and their attempts. */
import { type SQL, sql } from 'drizzle-orm';
import { type Db, idsParam, leadsNamed, queryRows } from '../../db/client';
import { alertSettings, smsAlerts } from '../../db/schema';

/** What an alert to one agent depends on: their settings, their phone and their time zone. */
export interface AgentAlertState {
  push: boolean;
  sms: boolean;
  quietStart: string | null;
  quietEnd: string | null;
  phone: string | null;
  phoneVerified: boolean;
  /** the agent's schedule's zone; null: none set */
  scheduleTimeZone: string | null;
}

/** null: no such user. No settings row: the defaults (push on, SMS off, no quiet hours). */
export async function agentAlertState(db: Db, userId: number): Promise<AgentAlertState | null> {
  const [row] = await queryRows<AgentAlertState>(
    db,
    sql`select coalesce(a.push, true) as push, coalesce(a.sms, false) as sms,
               a.quiet_start as "quietStart", a.quiet_end as "quietEnd", u.phone,
               (u.phone is not null and u.phone_verified_at is not null) as "phoneVerified",
               s.time_zone as "scheduleTimeZone"
          from users u
          left join alert_settings a on a.user_id = u.id
          left join agent_schedules s on s.user_id = u.id
         where u.id = ${userId}`,
  );
  return row ?? null;
}

export async function upsertAlertSettings(
  db: Db,
  userId: number,
  values: { push: boolean; sms: boolean; quietStart: string | null; quietEnd: string | null },
): Promise<void> {
  await db
    .insert(alertSettings)
    .values({ userId, ...values })
    .onConflictDoUpdate({
      target: alertSettings.userId,
      set: { ...values, updatedAt: sql`now()` },
    });
}

/**
 * The (lead, agent) pairs of an assignment whose agent gets SMS alerts: SMS on and a verified
 * phone. A run's leads by its day and id (the index the run's other readers use).
 */
export function runSmsTargets(tx: Db, runId: number) {
  return queryRows<{ leadId: number; agentId: number }>(
    tx,
    sql`select l.id::int as "leadId", l.agent_id as "agentId"
      from alert_settings a
      join users u on u.id = a.user_id and u.phone is not null and u.phone_verified_at is not null
      join leads l on l.agent_id = a.user_id
       and l.assigned_on = (select r.business_date from assignment_runs r where r.id = ${runId})
       and l.assignment_run_id = ${runId}
     where a.sms
     order by l.id`,
  );
}

/** The agents to text of these leads: the `leadsAssigned` handler's read (events/lead-events.ts). */
export function leadSmsTargetsSql(leadIds: number[]): SQL {
  return sql`select l.id::int as "leadId", l.agent_id as "agentId"
      from ${leadsNamed(idsParam(leadIds))} l
      join alert_settings a on a.user_id = l.agent_id and a.sms
      join users u on u.id = l.agent_id and u.phone is not null and u.phone_verified_at is not null
     order by l.id`;
}

export interface LeadForAlert {
  agentId: number | null;
  firstName: string | null;
  city: string;
  state: string;
}

export async function leadForAlert(db: Db, leadId: number): Promise<LeadForAlert | null> {
  const [row] = await queryRows<LeadForAlert>(
    db,
    sql`select agent_id as "agentId", first_name as "firstName", city, state
      from leads where id = ${leadId}`,
  );
  return row ?? null;
}

export async function recordSmsAlert(db: Db, row: typeof smsAlerts.$inferInsert): Promise<void> {
  await db.insert(smsAlerts).values(row);
}

/** The alerts of a lead to this agent, pushes and SMS, oldest first. */
export function alertsOfLead(db: Db, leadId: number, agentId: number) {
  return queryRows<{
    at: string;
    channel: 'PUSH' | 'SMS';
    status: 'SENT' | 'RETRY' | 'FAILED' | 'GONE' | 'SKIPPED';
    attempt: number;
    to: string | null;
    responseCode: number | null;
    error: string | null;
  }>(
    db,
    sql`select to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as at,
               channel, status, attempt, "to", "responseCode", error
          from (select created_at, 'PUSH' as channel, status, attempt, origin as "to",
                       response_code as "responseCode", error
                  from push_attempts where lead_id = ${leadId} and agent_id = ${agentId}
                union all
                select created_at, 'SMS', status, attempt, phone, null, error
                  from sms_alerts where lead_id = ${leadId} and agent_id = ${agentId}) x
         order by created_at`,
  );
}
