/** The push module's queries: its key pair, the agents' devices, the attempts of each push. */
import { and, eq, type SQL, sql } from 'drizzle-orm';
import { type Db, idsParam, leadsNamed, queryRows } from '../../db/client';
import { pushAttempts, pushKeys, pushSubscriptions } from '../../db/schema';

export interface KeyPair {
  publicKey: string;
  privateKey: string;
}

/** The stored pair, or this one stored when none is (the first process to insert wins). */
export async function storedKeyPair(db: Db, candidate: KeyPair): Promise<KeyPair> {
  await db
    .insert(pushKeys)
    .values({ id: 1, ...candidate })
    .onConflictDoNothing();
  const [row] = await db
    .select({ publicKey: pushKeys.publicKey, privateKey: pushKeys.privateKey })
    .from(pushKeys)
    .where(eq(pushKeys.id, 1));
  return row!;
}

export interface SubscriptionRow {
  id: number;
  userId: number;
  endpoint: string;
  p256dh: string;
  auth: string;
}

/** One row per endpoint: a device subscribed again (or by another user) takes it over. */
export async function upsertSubscription(
  db: Db,
  userId: number,
  endpoint: string,
  keys: { p256dh: string; auth: string },
): Promise<void> {
  await db
    .insert(pushSubscriptions)
    .values({ userId, endpoint, ...keys })
    .onConflictDoUpdate({
      target: pushSubscriptions.endpoint,
      set: { userId, ...keys, updatedAt: sql`now()` },
    });
}

/** Removes the user's subscription of this endpoint; whether there was one. */
export async function deleteSubscription(
  db: Db,
  userId: number,
  endpoint: string,
): Promise<boolean> {
  const rows = await db
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.userId, userId), eq(pushSubscriptions.endpoint, endpoint)))
    .returning({ id: pushSubscriptions.id });
  return rows.length > 0;
}

/** A subscription the push service said is gone (404/410). */
export async function deleteSubscriptionById(db: Db, id: number): Promise<void> {
  await db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, id));
}

/** The user's subscriptions, keys included (a test push to each). */
export async function subscriptionRowsOf(db: Db, userId: number): Promise<SubscriptionRow[]> {
  return db
    .select({
      id: pushSubscriptions.id,
      userId: pushSubscriptions.userId,
      endpoint: pushSubscriptions.endpoint,
      p256dh: pushSubscriptions.p256dh,
      auth: pushSubscriptions.auth,
    })
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.userId, userId))
    .orderBy(pushSubscriptions.id);
}

export function subscriptionsOf(db: Db, userId: number) {
  return queryRows<{ endpoint: string; createdAt: string }>(
    db,
    sql`select endpoint,
        to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "createdAt"
      from push_subscriptions where user_id = ${userId} order by id`,
  );
}

export async function subscriptionById(db: Db, id: number): Promise<SubscriptionRow | null> {
  const [row] = await db
    .select({
      id: pushSubscriptions.id,
      userId: pushSubscriptions.userId,
      endpoint: pushSubscriptions.endpoint,
      p256dh: pushSubscriptions.p256dh,
      auth: pushSubscriptions.auth,
    })
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.id, id));
  return row ?? null;
}

/**
 * The (lead, device) pairs of an assignment: every device of each lead's agent. Driven by the
 * devices (few) so that a run of many leads costs one probe of its day per subscribed agent.
 */
export function runPushTargets(tx: Db, runId: number) {
  return queryRows<{ leadId: number; subscriptionId: number }>(
    tx,
    sql`select l.id::int as "leadId", s.id::int as "subscriptionId"
      from push_subscriptions s
      join leads l on l.agent_id = s.user_id
       and l.assigned_on = (select r.business_date from assignment_runs r where r.id = ${runId})
       and l.assignment_run_id = ${runId}
     where not exists (select 1 from alert_settings a where a.user_id = s.user_id and not a.push)
     order by l.id, s.id`,
  );
}

/** The devices to tell of these leads: the `leadsAssigned` handler's read (events/lead-events.ts). */
export function leadPushTargetsSql(leadIds: number[]): SQL {
  return sql`select l.id::int as "leadId", s.id::int as "subscriptionId"
      from ${leadsNamed(idsParam(leadIds))} l join push_subscriptions s on s.user_id = l.agent_id
     where not exists (select 1 from alert_settings a where a.user_id = s.user_id and not a.push)
     order by l.id, s.id`;
}

export interface LeadForPush {
  agentId: number | null;
  firstName: string | null;
  lastName: string | null;
  age: number;
  city: string;
  state: string;
  category: string;
}

export async function leadForPush(db: Db, leadId: number): Promise<LeadForPush | null> {
  const [row] = await queryRows<LeadForPush>(
    db,
    sql`select agent_id as "agentId", first_name as "firstName", last_name as "lastName", age,
        city, state, category::text as category
      from leads where id = ${leadId}`,
  );
  return row ?? null;
}

export async function recordAttempt(db: Db, row: typeof pushAttempts.$inferInsert): Promise<void> {
  await db.insert(pushAttempts).values(row);
}
