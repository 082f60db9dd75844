/** The delivery logs' reads: a lead's timeline, the admins' list and retry, the channels' figures. */
import { type SQL, sql } from 'drizzle-orm';
import type { DeliveryChannel, DeliveryStatus } from '../../../shared/domain';
import { type Db, queryRows } from '../../db/client';
import { isoInstant } from '../../db/iso-instant';

const ISO = isoInstant;

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
