/**
 * Follow-up messages (docs/domain.md "Follow-up messages and calls"): the agent's templates, the
 * first SMS and email to a newly assigned lead, the gates checked when each goes out, the
 * provider's status and inbound-SMS callbacks, and the admins' figures. The queue and email are
 * ports (FollowUpPorts) passed in at app start; without a running queue nothing is queued.
 */

import { randomUUID } from 'node:crypto';
import { callingWindow } from '../../../shared/calling-window';
import type { ServiceAvailability } from '../../../shared/contracts/calls';
import type { ActivityEntry } from '../../../shared/contracts/delivery';
import {
  type FollowUpResponse,
  type FollowUpSettings,
  type FollowUpStats,
  fillTemplate,
  hasOptOutWording,
  OPT_OUT_MISSING,
  unknownPlaceholders,
} from '../../../shared/contracts/follow-ups';
import { formatPhone } from '../../../shared/phone';
import type { AppConfig } from '../../config/env';
import type { Db } from '../../db/client';
import type { AssignedLeads } from '../../events/lead-events';
import type { JobQueue } from '../../jobs/job-queue';
import { AppError, badField, conflict } from '../../lib/app-error';
import type { EmailSender } from '../../lib/email-sender';
import type { SmsSender } from '../../lib/sms-sender';
import type { SignedCallback } from '../../lib/twilio-callbacks';
import {
  agentServices,
  isTwilioSignatureValid,
  requireTwilio,
  smsConfigured,
} from '../calls/calls.service';
import { markFirstContact, optOutPhone } from '../leads/lead-life.service';
import {
  applyProviderStatus,
  claimMessage,
  dueMessageIds,
  failStaleClaims,
  followUpAgentIds,
  hasProviderMessage,
  insertFollowUps,
  messageFigures,
  messagesOfLead,
  recentOutcomes,
  recordInbound,
  type SendContext,
  type Settlement,
  saveSettings,
  sendContext,
  settingsOf,
  settleMessage,
} from './follow-ups.repository';

// ---- the agent's templates ----------------------------------------------------------------

export const NOT_CONFIGURED = 'Follow-up messages are not configured on this server';
export const NO_SERVICE = 'Your package does not include Follow-up Messages';

const emailConfigured = (config: Pick<AppConfig, 'SMTP_URL'>) => Boolean(config.SMTP_URL);

export async function followUpAvailability(
  db: Db,
  config: AppConfig,
  agentId: number,
): Promise<ServiceAvailability> {
  const services = await agentServices(db, config, agentId);
  return services.followUps;
}

const DEFAULTS: FollowUpSettings = {
  enabled: false,
  sms: 'Hi {firstName}, this is {agentName}. I got your request for insurance quotes and will call you shortly. Reach me at {agentPhone}. Reply STOP to opt out.',
  email: {
    subject: 'Your insurance quote request',
    body: 'Hi {firstName},\n\nThank you for your request. I am {agentName}, a licensed agent, and I will call you shortly. You can reach me at {agentPhone}.\n\n{agentName}',
  },
};

export async function getFollowUp(
  db: Db,
  config: AppConfig,
  agentId: number,
): Promise<FollowUpResponse> {
  const [row, availability] = await Promise.all([
    settingsOf(db, agentId),
    followUpAvailability(db, config, agentId),
  ]);
  const settings = row
    ? {
        enabled: row.enabled,
        sms: row.smsBody,
        email: { subject: row.emailSubject, body: row.emailBody },
      }
    : DEFAULTS;
  return { ...settings, availability };
}

export async function saveFollowUp(
  db: Db,
  config: AppConfig,
  agentId: number,
  body: FollowUpSettings,
): Promise<FollowUpResponse> {
  const fields: [string, string][] = [
    ['sms', body.sms],
    ['email.subject', body.email.subject],
    ['email.body', body.email.body],
  ];
  for (const [field, text] of fields) {
    const unknown = unknownPlaceholders(text);
    if (unknown.length > 0)
      throw badField(
        field,
        `Unknown placeholder {${unknown[0]}}: use {firstName}, {lastName}, {agentName} or {agentPhone}`,
      );
  }
  if (body.sms.trim() !== '' && !hasOptOutWording(body.sms)) throw badField('sms', OPT_OUT_MISSING);
  if (body.enabled) {
    const availability = await followUpAvailability(db, config, agentId);
    if (!availability.available) throw conflict(availability.reason ?? NO_SERVICE);
    if (!body.sms.trim() && !body.email.body.trim())
      throw badField('sms', 'Write an SMS or an email to send');
  }
  await saveSettings(db, agentId, {
    enabled: body.enabled,
    smsBody: body.sms,
    emailSubject: body.email.subject,
    emailBody: body.email.body,
  });
  return getFollowUp(db, config, agentId);
}

// ---- the queue ----------------------------------------------------------------------------

/** What follow-ups are given at app start (or by a script or bench): a port each, no globals. */
export interface FollowUpPorts {
  config: AppConfig;
  queue: JobQueue;
  /** null when SMTP is not configured */
  email: EmailSender | null;
  /** null when Twilio is not configured */
  sms: SmsSender | null;
}

/**
 * The `leadsAssigned` handler, in the assignment's transaction: the first SMS and email of agents
 * whose follow-ups are on, QUEUED with a job each. Nothing when no provider is configured or no
 * queue runs in this process.
 */
export async function enqueueFollowUps(
  tx: Db,
  ports: FollowUpPorts,
  assigned: AssignedLeads,
): Promise<void> {
  const { queue } = ports;
  if (!queue.running) return;
  const channels = { sms: smsConfigured(ports.config), email: emailConfigured(ports.config) };
  if (!channels.sms && !channels.email) return;
  let target: { runId: number; agentIds: number[] } | { leadIds: number[] };
  if ('runId' in assigned) {
    const agentIds = await followUpAgentIds(tx);
    if (agentIds.length === 0) return;
    target = { runId: assigned.runId, agentIds };
  } else {
    if (assigned.leadIds.length === 0) return;
    target = assigned;
  }
  const ids = await insertFollowUps(tx, target, channels);
  await queue.enqueue(
    tx,
    'lead-follow-up',
    ids.map((messageId) => ({ data: { messageId } })),
  );
}

// ---- sending: the gates --------------------------------------------------------------------

/** Why a message was held back (the admins' figures group by these words). */
export const BLOCKED = {
  notAssigned: 'Lead no longer with the agent',
  notConfigured: 'Provider not configured',
  noService: 'Package without Follow-up Messages',
  noConsent: 'No consent recorded',
  optedOut: 'Lead opted out',
  dnc: 'Number on the do-not-call list',
} as const;

function gate(ctx: SendContext, config: AppConfig): string | null {
  if (ctx.agentId === null || ctx.agentId !== ctx.leadAgentId || ctx.returnedAt)
    return BLOCKED.notAssigned;
  if (ctx.channel === 'SMS' ? !smsConfigured(config) : !emailConfigured(config))
    return BLOCKED.notConfigured;
  if (!ctx.followUpService) return BLOCKED.noService;
  if (!ctx.consentAt) return BLOCKED.noConsent;
  if (ctx.optedOutAt) return BLOCKED.optedOut;
  if (ctx.onDnc) return BLOCKED.dnc;
  return null;
}

function fill(ctx: SendContext, text: string): string {
  return fillTemplate(text, {
    firstName: ctx.firstName?.trim() || 'there',
    lastName: ctx.lastName?.trim() || '',
    agentName: ctx.agentName,
    agentPhone: ctx.agentPhone ? formatPhone(ctx.agentPhone) : '',
  });
}

/**
 * One message: claimed (one worker only), gated, then sent or held. Outside the lead's calling
 * window it WAITS with send_after = the window's opening and a job for then. `now` is for tests.
 */
export async function processFollowUp(
  db: Db,
  ports: FollowUpPorts,
  messageId: number,
  now: Date = new Date(),
): Promise<void> {
  const { config, queue } = ports;
  if (!(await claimMessage(db, messageId, `claim:${randomUUID()}`))) return;
  const ctx = await sendContext(db, messageId);
  if (!ctx) return;
  const settle = async (s: Settlement) => {
    await settleMessage(db, messageId, s);
    // a message sent is the agent's first contact with the lead, if none came earlier
    if (s.sent) await markFirstContact(db, ctx.leadId);
  };
  const blocked = gate(ctx, config);
  if (blocked) return settle({ status: 'BLOCKED', providerId: null, error: blocked });
  const window = callingWindow(ctx.timeZone, ctx.state, now);
  if (!window.callableNow) {
    const opensAt = new Date(window.opensAt);
    await db.transaction(async (tx) => {
      await settleMessage(tx, messageId, {
        status: 'WAITING',
        providerId: null,
        error: null,
        sendAfter: opensAt,
      });
      await queue.enqueue(tx, 'lead-follow-up', [{ data: { messageId }, startAfter: opensAt }]);
    });
    return;
  }
  const body = fill(ctx, ctx.body);
  const subject = ctx.subject === null ? null : fill(ctx, ctx.subject);
  try {
    const providerId =
      ctx.channel === 'SMS'
        ? await sendFollowUpSms(ports, ctx.toAddress, body)
        : await sendFollowUpEmail(ports, ctx, subject ?? '', body);
    await settle({ status: 'SENT', providerId, error: null, body, subject, sent: true });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    await settle({
      status: 'FAILED',
      providerId: null,
      error: message.slice(0, 500),
      body,
      subject,
    });
  }
}

async function sendFollowUpSms(ports: FollowUpPorts, to: string, body: string): Promise<string> {
  if (!ports.sms) throw new Error('SMS is not configured');
  return ports.sms.send(to, body);
}

async function sendFollowUpEmail(
  ports: FollowUpPorts,
  ctx: SendContext,
  subject: string,
  text: string,
): Promise<string> {
  if (!ports.email) throw new Error('Email is not configured');
  const messageId = await ports.email.send({
    from: ports.config.MAIL_FROM,
    to: ctx.toAddress,
    ...(ctx.agentEmail ? { replyTo: ctx.agentEmail } : {}),
    subject,
    text,
  });
  return messageId ?? `email:${randomUUID()}`;
}

/** The sweeper: due messages with no job (a crashed worker's, a command-line run's). */
export async function sweepDueFollowUps(
  db: Db,
  ports: FollowUpPorts,
  graceSeconds = 120,
): Promise<number> {
  await failStaleClaims(db, 10 * 60);
  const ids = await dueMessageIds(db, graceSeconds);
  for (const id of ids) await processFollowUp(db, ports, id);
  return ids.length;
}

// ---- the provider's callbacks ---------------------------------------------------------------

/** POST /api/telephony/sms/status: DELIVERED or FAILED, once. */
export async function handleSmsStatus(
  db: Db,
  config: AppConfig,
  callback: SignedCallback,
): Promise<void> {
  verify(config, callback);
  const sid = callback.params.MessageSid ?? callback.params.SmsSid;
  const status = callback.params.MessageStatus ?? callback.params.SmsStatus;
  if (!sid || !status) return;
  if (status === 'delivered') await applyProviderStatus(db, sid, 'DELIVERED', null);
  else if (status === 'failed' || status === 'undelivered')
    await applyProviderStatus(
      db,
      sid,
      'FAILED',
      `The provider reported ${status}${callback.params.ErrorCode ? ` (error ${callback.params.ErrorCode})` : ''}`,
    );
}

/** The words that opt a number out (the carriers' and Twilio's standard opt-out keywords). */
export const STOP_WORDS = ['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT'];

/** POST /api/telephony/sms/inbound: recorded on the number's leads; STOP opts them out. */
export async function handleInboundSms(
  db: Db,
  config: AppConfig,
  callback: SignedCallback,
): Promise<{ optedOut: boolean; leads: number }> {
  verify(config, callback);
  const { From: from, Body: body = '', MessageSid: sid } = callback.params;
  if (!from || !sid) return { optedOut: false, leads: 0 };
  if (await hasProviderMessage(db, sid)) return { optedOut: false, leads: 0 };
  const optOut = STOP_WORDS.includes(body.trim().toUpperCase());
  const leads = await db.transaction(async (tx) => {
    const n = await recordInbound(tx, { from, body: body.slice(0, 1600), providerId: sid });
    if (optOut && n > 0) await optOutPhone(tx, from);
    return n;
  });
  return { optedOut: optOut && leads > 0, leads };
}

function verify(config: AppConfig, callback: SignedCallback): void {
  const settings = requireTwilio(config);
  if (!isTwilioSignatureValid(settings, callback.signature, callback.url, callback.params))
    throw new AppError('FORBIDDEN', 'Invalid Twilio signature');
}

// ---- what admins and the timeline see -------------------------------------------------------

type ChannelState = 'OPERATIONAL' | 'FAILING' | 'NOT_CONFIGURED';

async function channelState(
  db: Db,
  configured: boolean,
  channel: 'SMS' | 'EMAIL',
): Promise<ChannelState> {
  if (!configured) return 'NOT_CONFIGURED';
  const recent = await recentOutcomes(db, channel);
  return recent.length > 0 && recent.every((s) => s === 'FAILED') ? 'FAILING' : 'OPERATIONAL';
}

/** The SMS channel's state for GET /api/health. */
export function smsHealth(db: Db, config: AppConfig): Promise<ChannelState> {
  return channelState(db, smsConfigured(config), 'SMS');
}

export async function followUpStats(db: Db, config: AppConfig): Promise<FollowUpStats> {
  const [sms, email, last24h, last7d] = await Promise.all([
    channelState(db, smsConfigured(config), 'SMS'),
    channelState(db, emailConfigured(config), 'EMAIL'),
    messageFigures(db, 24),
    messageFigures(db, 24 * 7),
  ]);
  return { sms, email, last24h, last7d };
}

/** The lead's messages as timeline entries. */
export async function leadMessageEntries(db: Db, leadId: number): Promise<ActivityEntry[]> {
  const rows = await messagesOfLead(db, leadId);
  return rows.map((m) => ({
    type: 'message' as const,
    at: m.at,
    channel: m.channel,
    outbound: m.outbound,
    status: m.status,
    to: m.toAddress,
    body: m.body,
    error: m.error,
    sendAfter: m.sendAfter,
  }));
}

export { forgetLeadMessages } from './follow-ups.repository';
