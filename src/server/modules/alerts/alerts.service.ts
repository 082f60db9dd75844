/**
 * Alerts to the agent's phone (docs/domain.md, Alerts to the agent's phone): the agent's choices
 * (push on or off, SMS on or off, quiet hours), the SMS alert of each lead given to them (its
 * `leadsAssigned` handler and the `lead-sms-alert` job, retried like a CRM webhook's delivery),
 * the gates every alert passes when it goes (the push module asks `alertHold` too), the tests
 * the agent sends themselves, and the alerts on a lead's timeline.
 */

import type {
  AlertSettings,
  AlertSettingsBody,
  AlertTestResult,
} from '../../../shared/contracts/alerts';
import type { ActivityEntry } from '../../../shared/contracts/delivery';
import { inQuietHours } from '../../../shared/quiet-hours';
import type { AppConfig } from '../../config/env';
import type { Db } from '../../db/client';
import type { AssignedLeads } from '../../events/lead-events';
import type { JobQueue } from '../../jobs/job-queue';
import type { JobPayload } from '../../jobs/registry';
import { conflict, notFound } from '../../lib/app-error';
import type { SmsSender } from '../../lib/sms-sender';
import { takeHit } from '../rate-limits/rate-limits.service';
import {
  type AgentAlertState,
  agentAlertState,
  alertsOfLead,
  leadForAlert,
  leadSmsTargetsSql,
  recordSmsAlert,
  runSmsTargets,
  upsertAlertSettings,
} from './alerts.repository';

export interface AlertPorts {
  config: Pick<AppConfig, 'BUSINESS_TZ' | 'PUBLIC_URL'>;
  queue: JobQueue;
  /** Twilio's SMS, null when Twilio is not configured */
  sms: SmsSender | null;
  /** the waits between attempts, the same as a CRM webhook's */
  runtime: { retryDelaysMs: number[] };
}

/** Tests an agent may send themselves an hour, per channel, counted across processes. */
export const ALERT_TESTS_PER_HOUR = 5;

/** The agent's My Leads, where an alert's link opens the lead (its drawer marks it opened). */
export const MY_LEADS_PATH = '/dashboard/leads';
export const agentLeadPath = (leadId: number) => `${MY_LEADS_PATH}?lead=${leadId}`;

const timeZoneOf = (state: AgentAlertState, config: Pick<AppConfig, 'BUSINESS_TZ'>) =>
  state.scheduleTimeZone ?? config.BUSINESS_TZ;

const quietOf = (state: AgentAlertState) =>
  state.quietStart && state.quietEnd ? { start: state.quietStart, end: state.quietEnd } : null;

function smsAvailability(ports: AlertPorts, state: AgentAlertState) {
  if (!ports.sms)
    return { available: false, reason: 'Text messages are not configured on this server' };
  if (!state.phone) return { available: false, reason: 'Add your phone number first' };
  if (!state.phoneVerified) return { available: false, reason: 'Verify your phone first' };
  return { available: true, reason: null };
}

function settingsOf(ports: AlertPorts, state: AgentAlertState): AlertSettings {
  return {
    push: state.push,
    sms: state.sms,
    quietHours: quietOf(state),
    timeZone: timeZoneOf(state, ports.config),
    phone: state.phone,
    phoneVerified: state.phoneVerified,
    smsAvailable: smsAvailability(ports, state),
  };
}

async function stateOf(db: Db, userId: number): Promise<AgentAlertState> {
  const state = await agentAlertState(db, userId);
  if (!state) throw notFound('User');
  return state;
}

/** GET /api/agent/alerts */
export async function alertSettingsOf(
  db: Db,
  ports: AlertPorts,
  userId: number,
): Promise<AlertSettings> {
  return settingsOf(ports, await stateOf(db, userId));
}

/** PUT /api/agent/alerts: SMS on needs a server that texts and a verified phone (409 with why). */
export async function putAlertSettings(
  db: Db,
  ports: AlertPorts,
  userId: number,
  body: AlertSettingsBody,
): Promise<AlertSettings> {
  const before = await stateOf(db, userId);
  const sms = smsAvailability(ports, before);
  if (body.sms && !sms.available) throw conflict(sms.reason ?? 'SMS alerts are not available');
  await upsertAlertSettings(db, userId, {
    push: body.push,
    sms: body.sms,
    quietStart: body.quietHours?.start ?? null,
    quietEnd: body.quietHours?.end ?? null,
  });
  return alertSettingsOf(db, ports, userId);
}

/**
 * Why an alert of a new lead to this agent on this channel does not go now, or null when it goes:
 * the channel turned off, or the agent's quiet hours (read in their zone at `at`).
 */
export async function alertHold(
  db: Db,
  config: Pick<AppConfig, 'BUSINESS_TZ'>,
  agentId: number,
  channel: 'push' | 'sms',
  at: Date = new Date(),
): Promise<string | null> {
  const state = await agentAlertState(db, agentId);
  if (!state) return 'The agent no longer exists';
  return holdOf(state, config, channel, at);
}

function holdOf(
  state: AgentAlertState,
  config: Pick<AppConfig, 'BUSINESS_TZ'>,
  channel: 'push' | 'sms',
  at: Date,
): string | null {
  if (channel === 'push' && !state.push) return 'Push alerts are turned off';
  if (channel === 'sms') {
    if (!state.sms) return 'SMS alerts are turned off';
    if (!state.phone || !state.phoneVerified) return 'Phone not verified';
  }
  if (inQuietHours(quietOf(state), at, timeZoneOf(state, config))) return 'Quiet hours';
  return null;
}

/**
 * Consumes one of the agent's tests on a channel this hour (429 with Retry-After past
 * ALERT_TESTS_PER_HOUR), in the counters every process shares.
 */
export function takeAlertTest(db: Db, userId: number, channel: 'push' | 'sms'): Promise<void> {
  return takeHit(
    db,
    `alert-test:${channel}:${userId}`,
    { limit: ALERT_TESTS_PER_HOUR, windowSeconds: 3600 },
    `At most ${ALERT_TESTS_PER_HOUR} test alerts an hour: try again later`,
  );
}

// ---- the leadsAssigned handler ----------------------------------------------------------------

/** An agent to text of a lead. */
export interface SmsTarget {
  leadId: number;
  agentId: number;
}

/** The handler's read for named leads, asked with the other handlers' (null for a run). */
export function smsTargetsRead(ports: AlertPorts, assigned: AssignedLeads) {
  if (!ports.queue.running || !ports.sms) return null;
  if (!('leadIds' in assigned) || assigned.leadIds.length === 0) return null;
  return leadSmsTargetsSql(assigned.leadIds);
}

/** In the assignment's transaction: a `lead-sms-alert` job per lead whose agent gets SMS alerts. */
export async function enqueueSmsAlerts(
  tx: Db,
  ports: AlertPorts,
  assigned: AssignedLeads,
  read: SmsTarget[] | undefined,
): Promise<void> {
  if (!ports.queue.running || !ports.sms) return;
  const targets = read ?? ('runId' in assigned ? await runSmsTargets(tx, assigned.runId) : []);
  if (targets.length === 0) return;
  await ports.queue.enqueue(
    tx,
    'lead-sms-alert',
    targets.map((t) => ({ data: { leadId: t.leadId, agentId: t.agentId } })),
  );
}

// ---- sending --------------------------------------------------------------------------------

/** "New lead: Mary, Austin, TX. https://portal/dashboard/leads?lead=42": the first name only. */
export function smsAlertText(
  config: Pick<AppConfig, 'PUBLIC_URL'>,
  leadId: number,
  lead: { firstName: string | null; city: string; state: string },
): string {
  const first = lead.firstName?.trim();
  const who = first ? `New lead: ${first}, ` : 'New lead in ';
  return `${who}${lead.city}, ${lead.state}. ${config.PUBLIC_URL}${agentLeadPath(leadId)}`;
}

/** A refusal worth another try: no answer (the network), Twilio's 429 or its 5xx. */
function providerStatus(err: unknown): number | null {
  const status = (err as { status?: unknown })?.status;
  return typeof status === 'number' ? status : null;
}

/** One attempt of one lead's SMS alert to its agent; a retryable failure queues the next one. */
export async function processSmsAlert(
  db: Db,
  ports: AlertPorts,
  job: JobPayload<'lead-sms-alert'>,
): Promise<void> {
  const attempt = job.attempts + 1;
  const state = await agentAlertState(db, job.agentId);
  const phone = state?.phone ?? null;
  const record = (
    status: 'SENT' | 'RETRY' | 'FAILED' | 'SKIPPED',
    error: string | null,
    providerSid: string | null = null,
    on: Db = db,
  ) =>
    recordSmsAlert(on, {
      leadId: job.leadId,
      agentId: job.agentId,
      phone,
      attempt,
      status,
      providerSid,
      error: error?.slice(0, 500) ?? null,
    });
  if (!state) return;
  const lead = await leadForAlert(db, job.leadId);
  if (!lead || lead.agentId !== job.agentId)
    return record('SKIPPED', 'Lead no longer with the agent');
  if (!ports.sms) return record('SKIPPED', 'Text messages are not configured on this server');
  const hold = holdOf(state, ports.config, 'sms', new Date());
  if (hold) return record('SKIPPED', hold);
  try {
    const sid = await ports.sms.send(phone!, smsAlertText(ports.config, job.leadId, lead));
    return record('SENT', null, sid);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const status = providerStatus(err);
    const delay = ports.runtime.retryDelaysMs[attempt - 1];
    const retryable = status === null || status === 429 || status >= 500;
    if (!retryable || delay === undefined) return record('FAILED', message);
    await db.transaction(async (tx) => {
      await record('RETRY', message, null, tx);
      await ports.queue.enqueue(tx, 'lead-sms-alert', [
        { data: { ...job, attempts: attempt }, startAfter: new Date(Date.now() + delay) },
      ]);
    });
  }
}

/** POST /api/agent/alerts/sms/test: a text to the agent's verified phone, quiet hours or not. */
export async function sendTestSms(
  db: Db,
  ports: AlertPorts,
  userId: number,
): Promise<AlertTestResult> {
  const state = await stateOf(db, userId);
  const available = smsAvailability(ports, state);
  if (!available.available || !ports.sms || !state.phone)
    throw conflict(available.reason ?? 'SMS alerts are not available');
  await takeAlertTest(db, userId, 'sms');
  try {
    await ports.sms.send(
      state.phone,
      `LeadFlow test: alerts of your new leads come to this phone. ${ports.config.PUBLIC_URL}${MY_LEADS_PATH}`,
    );
    return { sent: 1, failed: 0, error: null };
  } catch (err) {
    return { sent: 0, failed: 1, error: err instanceof Error ? err.message : String(err) };
  }
}

// ---- the lead's timeline ----------------------------------------------------------------------

/** The lead's alerts to this agent (pushes to each device, SMS), for its timeline. */
export async function leadAlertEntries(
  db: Db,
  leadId: number,
  agentId: number,
): Promise<ActivityEntry[]> {
  const rows = await alertsOfLead(db, leadId, agentId);
  return rows.map((r) => ({ type: 'alert' as const, ...r }));
}
