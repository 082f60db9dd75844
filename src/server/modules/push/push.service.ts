/**
 * Alerts to the agent's phone (docs/domain.md): the agent's devices subscribe to push; each lead
 * assigned to the agent is pushed to every one of them by a `lead-push` job, retried like a CRM
 * webhook's delivery; a device the push service says is gone (404, 410) is removed. The queue is
 * a port (PushPorts) given at app start; without a running queue nothing is pushed.
 */
import { ECDH } from 'node:crypto';
import type { AlertTestResult } from '../../../shared/contracts/alerts';
import type {
  PushDeviceList,
  PushMessage,
  PushSubscriptionBody,
} from '../../../shared/contracts/push';
import type { AppConfig } from '../../config/env';
import type { Db } from '../../db/client';
import type { AssignedLeads } from '../../events/lead-events';
import type { JobQueue } from '../../jobs/job-queue';
import type { JobPayload } from '../../jobs/registry';
import { badField, conflict } from '../../lib/app-error';
import { agentLeadPath, alertHold, MY_LEADS_PATH, takeAlertTest } from '../alerts/alerts.service';
import {
  DEFAULT_RUNTIME,
  type DeliveryRuntime,
  EndpointRefused,
  type ResolvedEndpoint,
  resolveEndpoint,
} from '../delivery/deliveries.service';
import {
  deleteSubscription,
  deleteSubscriptionById,
  type KeyPair,
  type LeadForPush,
  leadForPush,
  leadPushTargetsSql,
  recordAttempt,
  runPushTargets,
  type SubscriptionRow,
  storedKeyPair,
  subscriptionById,
  subscriptionRowsOf,
  subscriptionsOf,
  upsertSubscription,
} from './push.repository';
import { newKeyPair, sendPush } from './push-sender';

export interface PushPorts {
  config: AppConfig;
  queue: JobQueue;
  /** the webhook's timings: its time limit, and the waits between attempts */
  runtime: Pick<DeliveryRuntime, 'webhookTimeoutMs' | 'retryDelaysMs'>;
  /** the key pair, once read (keyPair below) */
  keys: KeyPair | null;
}

export function pushPorts(
  config: AppConfig,
  queue: JobQueue,
  runtime: Partial<DeliveryRuntime> = {},
): PushPorts {
  return { config, queue, runtime: { ...DEFAULT_RUNTIME, ...runtime }, keys: null };
}

/**
 * The server's VAPID key pair: the environment's, else the one kept in the database, made by
 * the first process that asks (app start) and the same for every process after.
 */
export async function keyPair(db: Db, ports: PushPorts): Promise<KeyPair> {
  if (ports.keys) return ports.keys;
  const { VAPID_PUBLIC_KEY: publicKey, VAPID_PRIVATE_KEY: privateKey } = ports.config;
  ports.keys =
    publicKey && privateKey ? { publicKey, privateKey } : await storedKeyPair(db, newKeyPair());
  return ports.keys;
}

/**
 * Who the push services may contact about our pushes (RFC 8292's `sub`): the portal's https
 * address, else the sender address of its emails.
 */
export function vapidSubject(config: Pick<AppConfig, 'PUBLIC_URL' | 'MAIL_FROM'>): string {
  if (config.PUBLIC_URL.startsWith('https://')) return config.PUBLIC_URL;
  const address = /<([^>]+)>/.exec(config.MAIL_FROM)?.[1] ?? config.MAIL_FROM.trim();
  return `mailto:${address}`;
}

// ---- the agent's devices --------------------------------------------------------------------

/** The device's key must be a point of P-256, or no message could ever be encrypted for it. */
function checkedKey(p256dh: string): void {
  try {
    ECDH.convertKey(Buffer.from(p256dh, 'base64url'), 'prime256v1');
  } catch {
    throw badField('keys.p256dh', 'The device key is not a P-256 public key');
  }
}

async function checkedEndpoint(config: AppConfig, endpoint: string): Promise<void> {
  try {
    await resolveEndpoint(endpoint, config.WEBHOOK_ALLOW_PRIVATE);
  } catch (err) {
    if (err instanceof EndpointRefused)
      throw badField('endpoint', err.message.replaceAll('webhook', 'push'));
    throw err;
  }
}

export async function subscribeDevice(
  db: Db,
  config: AppConfig,
  userId: number,
  body: PushSubscriptionBody,
): Promise<PushDeviceList> {
  checkedKey(body.keys.p256dh);
  await checkedEndpoint(config, body.endpoint);
  await upsertSubscription(db, userId, body.endpoint, body.keys);
  return devicesOf(db, userId);
}

export async function unsubscribeDevice(
  db: Db,
  userId: number,
  endpoint: string,
): Promise<PushDeviceList> {
  await deleteSubscription(db, userId, endpoint);
  return devicesOf(db, userId);
}

export async function devicesOf(db: Db, userId: number): Promise<PushDeviceList> {
  return { devices: await subscriptionsOf(db, userId) };
}

// ---- the leadsAssigned handler ----------------------------------------------------------------

/** A device to tell of a lead. */
export interface PushTarget {
  leadId: number;
  subscriptionId: number;
}

/** The handler's read for named leads, asked with the other handlers' (null for a run). */
export function pushTargetsRead(ports: PushPorts, assigned: AssignedLeads) {
  if (!ports.queue.running || !('leadIds' in assigned) || assigned.leadIds.length === 0)
    return null;
  return leadPushTargetsSql(assigned.leadIds);
}

/** In the assignment's transaction: a `lead-push` job per lead and device of its agent. */
export async function enqueueLeadPushes(
  tx: Db,
  ports: PushPorts,
  assigned: AssignedLeads,
  read: PushTarget[] | undefined,
): Promise<void> {
  if (!ports.queue.running) return;
  const targets = read ?? ('runId' in assigned ? await runPushTargets(tx, assigned.runId) : []);
  if (targets.length === 0) return;
  await ports.queue.enqueue(
    tx,
    'lead-push',
    targets.map((t) => ({ data: { leadId: t.leadId, subscriptionId: t.subscriptionId } })),
  );
}

// ---- sending --------------------------------------------------------------------------------

const title = (s: string) => s.charAt(0).toUpperCase() + s.slice(1).toLowerCase();

/** "New lead: Mary O." / "Medicare, 67, Austin TX." and a link that opens the lead. */
export function leadMessage(leadId: number, lead: LeadForPush): PushMessage {
  const first = lead.firstName?.trim();
  const initial = lead.lastName?.trim().charAt(0).toUpperCase();
  const name = first ? (initial ? `${first} ${initial}.` : first) : 'Unnamed lead';
  const category = lead.category.split('_').map(title).join(' ');
  return {
    title: `New lead: ${name}`,
    body: `${category === 'Aca' ? 'ACA' : category}, ${lead.age}, ${lead.city} ${lead.state}.`,
    url: agentLeadPath(leadId),
  };
}

type Outcome = { status: 'SENT' | 'RETRY' | 'FAILED' | 'GONE' | 'SKIPPED' } & {
  responseCode: number | null;
  error: string | null;
};

const retryable = (code: number | null) => code === null || code === 429 || code >= 500;

/** One attempt of one lead's push to one device; a retryable failure queues the next one. */
export async function processLeadPush(
  db: Db,
  ports: PushPorts,
  job: JobPayload<'lead-push'>,
): Promise<void> {
  const attempt = job.attempts + 1;
  const sub = await subscriptionById(db, job.subscriptionId);
  // removed since (by the agent, or gone at the push service): nothing to push to
  if (!sub) return;
  const lead = await leadForPush(db, job.leadId);
  let origin = sub.endpoint;
  try {
    origin = new URL(sub.endpoint).origin;
  } catch {}
  const record = (o: Outcome, on: Db = db) =>
    recordAttempt(on, {
      leadId: job.leadId,
      agentId: sub.userId,
      subscriptionId: sub.id,
      origin,
      attempt,
      status: o.status,
      responseCode: o.responseCode,
      error: o.error?.slice(0, 500) ?? null,
    });
  if (!lead || lead.agentId !== sub.userId)
    return record({
      status: 'SKIPPED',
      responseCode: null,
      error: 'Lead no longer with the agent',
    });
  // push turned off since the job was queued, or the agent's quiet hours now
  const hold = await alertHold(db, ports.config, sub.userId, 'push');
  if (hold) return record({ status: 'SKIPPED', responseCode: null, error: hold });

  let resolved: ResolvedEndpoint;
  let result: { status: number | null; error: string | null };
  try {
    resolved = await resolveEndpoint(sub.endpoint, ports.config.WEBHOOK_ALLOW_PRIVATE);
    const keys = await keyPair(db, ports);
    result = await sendPush(
      sub,
      resolved,
      JSON.stringify(leadMessage(job.leadId, lead)),
      { ...keys, subject: vapidSubject(ports.config) },
      ports.runtime.webhookTimeoutMs,
    );
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    if (err instanceof EndpointRefused && !err.retryable)
      return record({ status: 'FAILED', responseCode: null, error: message });
    result = { status: null, error: message };
  }
  if (result.status !== null && result.status >= 200 && result.status < 300)
    return record({ status: 'SENT', responseCode: result.status, error: null });
  if (result.status === 404 || result.status === 410) {
    await db.transaction(async (tx) => {
      await record({ status: 'GONE', responseCode: result.status, error: result.error }, tx);
      await deleteSubscriptionById(tx, sub.id);
    });
    return;
  }
  const delay = ports.runtime.retryDelaysMs[attempt - 1];
  if (!retryable(result.status) || delay === undefined)
    return record({ status: 'FAILED', responseCode: result.status, error: result.error });
  await db.transaction(async (tx) => {
    await record({ status: 'RETRY', responseCode: result.status, error: result.error }, tx);
    await ports.queue.enqueue(tx, 'lead-push', [
      { data: { ...job, attempts: attempt }, startAfter: new Date(Date.now() + delay) },
    ]);
  });
}

// ---- a test -----------------------------------------------------------------------------------

/**
 * POST /api/agent/push/test: a test push to each of the agent's devices, at once and once (no
 * retry, quiet hours or not: the agent is looking). A device its push service says is gone is
 * removed, as after a lead's push.
 */
export async function sendTestPush(
  db: Db,
  ports: PushPorts,
  userId: number,
): Promise<AlertTestResult> {
  const subs = await subscriptionRowsOf(db, userId);
  if (subs.length === 0) throw conflict('Turn on push notifications on a device first');
  await takeAlertTest(db, userId, 'push');
  const keys = await keyPair(db, ports);
  const message = JSON.stringify({
    title: 'LeadFlow test',
    body: 'Alerts of your new leads will show up like this.',
    url: MY_LEADS_PATH,
  } satisfies PushMessage);
  const results = await Promise.all(subs.map((sub) => testOne(db, ports, sub, keys, message)));
  const failures = results.filter((r): r is string => r !== null);
  return {
    sent: subs.length - failures.length,
    failed: failures.length,
    error: failures[0] ?? null,
  };
}

/** null when the push service took it; else what went wrong. */
async function testOne(
  db: Db,
  ports: PushPorts,
  sub: SubscriptionRow,
  keys: KeyPair,
  message: string,
): Promise<string | null> {
  try {
    const resolved = await resolveEndpoint(sub.endpoint, ports.config.WEBHOOK_ALLOW_PRIVATE);
    const result = await sendPush(
      sub,
      resolved,
      message,
      { ...keys, subject: vapidSubject(ports.config) },
      ports.runtime.webhookTimeoutMs,
    );
    if (result.status !== null && result.status >= 200 && result.status < 300) return null;
    if (result.status === 404 || result.status === 410) {
      await deleteSubscriptionById(db, sub.id);
      return 'The device is gone: turn push on again there';
    }
    return result.error ?? `The push service answered ${result.status}`;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}
