/**
 * Twilio's services (docs/domain.md, Follow-up messages and calls): the SMS the follow-ups send, click-to-call with recording, the
 * provider's signed voice callbacks, and the recordings streamed to the lead's agent and admins.
 * "Not configured" (no TWILIO_* settings) is a state of its own: calls are refused with 409 and
 * nothing is sent.
 */

import { Readable } from 'node:stream';
import { callingWindow } from '../../../shared/calling-window';
import type { AgentServices, CallEntry } from '../../../shared/contracts/calls';
import type { ActivityEntry } from '../../../shared/contracts/delivery';
import type { CallStatus } from '../../../shared/domain';
import type { AppConfig } from '../../config/env';
import type { Db } from '../../db/client';
import { AppError, conflict, notFound } from '../../lib/app-error';
import { notCallable } from '../../lib/callable-number';
import type { SmsSender } from '../../lib/sms-sender';
import type { SignedCallback } from '../../lib/twilio-callbacks';
import { markContactedByCall } from '../leads/lead-life.service';
import { takeHit } from '../rate-limits/rate-limits.service';
import {
  agentServiceRow,
  applyCallStatus,
  applyDialResult,
  applyRecording,
  type CallCounts,
  type CallRow,
  callById,
  callsOfLead,
  claimBridge,
  insertCall,
  leadPhoneOfCall,
  leadToCall,
  lockAndCountCalls,
  recentCallStatuses,
  setCallProvider,
} from './calls.repository';
import {
  basicAuth,
  recordingMediaUrl,
  type TwilioConfig,
  type TwilioSettings,
  twilioClient,
  twilioSettings,
  VoiceResponse,
  validTwilioSignature,
} from './twilio-client';

export const CALLS_NOT_CONFIGURED = 'Calling is not configured on this server';
export const NO_CALL_RECORDING = 'Your package does not include Call Recording';
export const NO_AGENT_PHONE = 'Add your phone number in Services to call leads';
export const UNVERIFIED_AGENT_PHONE = 'Verify your phone number in Services to call leads';

export function smsConfigured(config: TwilioConfig): boolean {
  return twilioSettings(config) !== null;
}

/** The settings, or 404 for the callbacks of a server without Twilio. */
export function requireTwilio(config: TwilioConfig): TwilioSettings {
  const settings = twilioSettings(config);
  if (!settings) throw new AppError('NOT_FOUND', 'Telephony is not set up on this server');
  return settings;
}

export const isTwilioSignatureValid = validTwilioSignature;

/**
 * The SmsSender port over Twilio (null when TWILIO_* are not set): one SMS a call, whose status
 * comes back to /api/telephony/sms/status; answers the provider's SID.
 */
export function twilioSmsSender(config: TwilioConfig): SmsSender | null {
  const settings = twilioSettings(config);
  if (!settings) return null;
  return {
    async send(to, body) {
      const message = await twilioClient(settings).messages.create({
        to,
        from: settings.fromNumber,
        body,
        statusCallback: `${settings.publicUrl}/api/telephony/sms/status`,
      });
      return message.sid;
    },
  };
}

/**
 * Which package services this server can provide: a CRM webhook needs nothing; Call Recording
 * needs Twilio; Follow-up Messages need Twilio (SMS) or SMTP (email).
 */
export function servicesAvailable(
  config: AppConfig,
): Record<'crm' | 'callRecording' | 'followUpMessage', boolean> {
  const twilio = smsConfigured(config);
  return { crm: true, callRecording: twilio, followUpMessage: twilio || Boolean(config.SMTP_URL) };
}

/** The agent's phone, and whether each service can be used (and why not). */
export async function agentServices(
  db: Db,
  config: AppConfig,
  agentId: number,
): Promise<AgentServices> {
  const row = await agentServiceRow(db, agentId);
  const available = servicesAvailable(config);
  const callsReason = !available.callRecording
    ? CALLS_NOT_CONFIGURED
    : !row?.callRecording
      ? NO_CALL_RECORDING
      : !row.phone
        ? NO_AGENT_PHONE
        : !row.phoneVerified
          ? UNVERIFIED_AGENT_PHONE
          : null;
  const followUpReason = !available.followUpMessage
    ? 'Follow-up messages are not configured on this server'
    : !row?.followUpMessage
      ? 'Your package does not include Follow-up Messages'
      : null;
  return {
    phone: row?.phone ?? null,
    phoneVerified: row?.phoneVerified ?? false,
    calls: { available: callsReason === null, reason: callsReason },
    followUps: { available: followUpReason === null, reason: followUpReason },
  };
}

// ---- click-to-call ---------------------------------------------------------------------------

function callEntry(row: CallRow): CallEntry {
  return {
    id: row.id,
    status: row.status,
    createdAt: row.createdAt,
    connectedAt: row.connectedAt,
    durationSeconds: row.durationSeconds,
    error: row.error,
    recordingSeconds: row.recordingSid ? row.recordingSeconds : null,
    recordingUrl: row.recordingSid ? `/api/recordings/${row.id}` : null,
  };
}

/**
 * POST /api/agent/leads/{id}/call: the provider rings the agent's phone, then (connect TwiML)
 * announces the recording and bridges to the lead. Another agent's lead is a 404; every reason
 * the call cannot go now is a 409 that says it. `now` is for tests.
 */
export async function startCall(
  db: Db,
  config: AppConfig,
  agentId: number,
  leadId: number,
  now: Date = new Date(),
): Promise<CallEntry> {
  const lead = await leadToCall(db, agentId, leadId);
  if (!lead) throw notFound('Lead');
  const settings = twilioSettings(config);
  if (!settings) throw conflict(CALLS_NOT_CONFIGURED);
  const agent = await agentServiceRow(db, agentId);
  if (!agent?.callRecording) throw conflict(NO_CALL_RECORDING);
  if (!agent.phone) throw conflict(NO_AGENT_PHONE);
  if (!agent.phoneVerified) throw conflict(UNVERIFIED_AGENT_PHONE);
  const agentRefused = notCallable(agent.phone, config.SERVED_COUNTRIES);
  if (agentRefused) throw conflict(`Your phone cannot be rung: ${lowerFirst(agentRefused)}`);
  if (!lead.phone) throw conflict('This lead has no phone number');
  if (lead.onDnc) throw conflict("This lead's number is on the do-not-call list");
  const leadRefused = notCallable(lead.phone, config.SERVED_COUNTRIES);
  if (leadRefused)
    throw conflict(`This lead's number cannot be called: ${lowerFirst(leadRefused)}`);
  const window = callingWindow(lead.timeZone, lead.state, now);
  if (!window.callableNow) throw conflict(`Not callable now. ${window.label}.`);
  const call = await db.transaction(async (tx) => {
    refuseOverLimit(await lockAndCountCalls(tx, agentId, leadId), config);
    return insertCall(tx, leadId, agentId);
  });
  const base = settings.publicUrl;
  try {
    const created = await twilioClient(settings).calls.create({
      to: agent.phone,
      from: settings.fromNumber,
      url: `${base}/api/telephony/voice/${call.id}/connect`,
      method: 'POST',
      statusCallback: `${base}/api/telephony/voice/status`,
      statusCallbackMethod: 'POST',
      statusCallbackEvent: ['initiated', 'ringing', 'answered', 'completed'],
    });
    const row = await setCallProvider(db, call.id, { providerSid: created.sid });
    return callEntry(row ?? call);
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    await setCallProvider(db, call.id, { error: reason.slice(0, 500) });
    throw new AppError('SERVICE_UNAVAILABLE', 'The phone provider could not place the call');
  }
}

const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);

/** Seconds a caller waits before trying again while a call is in flight. */
const IN_FLIGHT_RETRY_SECONDS = 30;

/**
 * The limits on click-to-call (docs/domain.md, Follow-up messages and calls), 429 with
 * Retry-After: one call in flight per agent (so per lead too), CALLS_PER_LEAD_PER_DAY calls of a
 * lead in 24 hours, CALLS_PER_AGENT_PER_HOUR calls of an agent in an hour.
 */
function refuseOverLimit(
  counts: CallCounts,
  config: Pick<AppConfig, 'CALLS_PER_AGENT_PER_HOUR' | 'CALLS_PER_LEAD_PER_DAY'>,
): void {
  const wait = (message: string, seconds: number) =>
    new AppError('TOO_MANY_REQUESTS', message, { 'retry-after': String(Math.max(1, seconds)) });
  if (counts.leadInFlight > 0)
    throw wait('A call to this lead is already in progress', IN_FLIGHT_RETRY_SECONDS);
  if (counts.agentInFlight > 0)
    throw wait('Another of your calls is still in progress', IN_FLIGHT_RETRY_SECONDS);
  if (counts.leadLastDay >= config.CALLS_PER_LEAD_PER_DAY) {
    throw wait(
      `This lead was called ${counts.leadLastDay} times in the last 24 hours: try again later`,
      counts.leadDayFreesIn,
    );
  }
  if (counts.agentLastHour >= config.CALLS_PER_AGENT_PER_HOUR) {
    throw wait(
      `You placed ${counts.agentLastHour} calls in the last hour: try again later`,
      counts.agentHourFreesIn,
    );
  }
}

/** GET /api/agent/leads/{id}/calls: the agent's own lead's call log, newest first. */
export async function leadCalls(db: Db, agentId: number, leadId: number) {
  if (!(await leadToCall(db, agentId, leadId))) throw notFound('Lead');
  return { items: (await callsOfLead(db, leadId)).map(callEntry) };
}

/** The lead's calls as timeline entries. */
export async function leadCallEntries(db: Db, leadId: number): Promise<ActivityEntry[]> {
  const rows = await callsOfLead(db, leadId);
  return rows.reverse().map((c) => ({
    type: 'call' as const,
    at: c.createdAt,
    status: c.status,
    connectedAt: c.connectedAt,
    durationSeconds: c.durationSeconds,
    recording: c.recordingSid !== null,
  }));
}

// ---- the provider's voice callbacks (signed) -----------------------------------------------

function verified(config: AppConfig, callback: SignedCallback): TwilioSettings {
  const settings = requireTwilio(config);
  if (!validTwilioSignature(settings, callback.signature, callback.url, callback.params))
    throw new AppError('FORBIDDEN', 'Invalid Twilio signature');
  return settings;
}

/** The TwiML when the agent answers: the announcement, then the recorded bridge to the lead. */
export async function connectTwiml(
  db: Db,
  config: AppConfig,
  callId: number,
  callback: SignedCallback,
): Promise<string> {
  const settings = verified(config, callback);
  const call = await callById(db, callId);
  if (!call) throw notFound('Call');
  const response = new VoiceResponse();
  // the bridge is served once, while the call is live: a replayed callback (its signature is
  // still good) gets a hang-up, never the lead's number again
  if (!(await claimBridge(db, callId))) {
    response.hangup();
    return response.toString();
  }
  const lead = await leadToCall(db, call.agentId, call.leadId);
  const phone = await leadPhoneOfCall(db, callId);
  // checked again at the bridge: the window may have closed, the number joined the DNC list
  if (
    !lead ||
    !phone ||
    lead.onDnc ||
    !callingWindow(lead.timeZone, lead.state, new Date()).callableNow
  ) {
    response.say('This lead cannot be called now. Goodbye.');
    response.hangup();
    return response.toString();
  }
  const base = settings.publicUrl;
  response.say('This call is recorded.');
  response
    .dial({
      callerId: settings.fromNumber,
      record: 'record-from-answer-dual',
      recordingStatusCallback: `${base}/api/telephony/voice/recording?callId=${callId}`,
      recordingStatusCallbackMethod: 'POST',
      action: `${base}/api/telephony/voice/${callId}/dialed`,
      method: 'POST',
    })
    .number(phone);
  return response.toString();
}

const CALL_STATUS: Record<string, CallStatus> = {
  queued: 'QUEUED',
  initiated: 'QUEUED',
  ringing: 'RINGING',
  'in-progress': 'IN_PROGRESS',
  answered: 'IN_PROGRESS',
  completed: 'COMPLETED',
  busy: 'BUSY',
  'no-answer': 'NO_ANSWER',
  failed: 'FAILED',
  canceled: 'CANCELED',
};
const TERMINAL = new Set<CallStatus>(['COMPLETED', 'BUSY', 'NO_ANSWER', 'FAILED', 'CANCELED']);

/** POST /api/telephony/voice/status: the agent's leg (ringing, answered, ended). */
export async function handleVoiceStatus(
  db: Db,
  config: AppConfig,
  callback: SignedCallback,
): Promise<void> {
  verified(config, callback);
  const sid = callback.params.CallSid;
  const status = CALL_STATUS[callback.params.CallStatus ?? ''];
  if (!sid || !status) return;
  await applyCallStatus(db, sid, status, TERMINAL.has(status));
}

/** The Dial's action: the bridge to the lead ended; its outcome fills the call log. */
export async function handleDialResult(
  db: Db,
  config: AppConfig,
  callId: number,
  callback: SignedCallback,
): Promise<string> {
  verified(config, callback);
  const status = CALL_STATUS[callback.params.DialCallStatus ?? ''] ?? 'FAILED';
  const seconds = Number.parseInt(callback.params.DialCallDuration ?? '', 10);
  const durationSeconds = Number.isFinite(seconds) ? seconds : null;
  const connected = status === 'COMPLETED' || status === 'IN_PROGRESS';
  await db.transaction(async (tx) => {
    const call = await applyDialResult(tx, callId, {
      status: connected ? 'COMPLETED' : status,
      durationSeconds,
      connected,
    });
    // a first connected call is the lead's first contact, and moves an ASSIGNED lead on
    if (call && connected && call.connectedAt !== null)
      await markContactedByCall(tx, {
        leadId: call.leadId,
        agentId: call.agentId,
        connectedAt: new Date(call.connectedAt),
      });
  });
  const response = new VoiceResponse();
  response.hangup();
  return response.toString();
}

/** POST /api/telephony/voice/recording?callId=: the recording's SID, URL and length. */
export async function handleRecording(
  db: Db,
  config: AppConfig,
  callback: SignedCallback,
  callId: number,
): Promise<void> {
  verified(config, callback);
  const { RecordingSid: sid, RecordingUrl: url, RecordingStatus: status } = callback.params;
  if (!sid || !url || (status && status !== 'completed')) return;
  const seconds = Number.parseInt(callback.params.RecordingDuration ?? '', 10);
  await applyRecording(db, callId, {
    sid,
    url,
    seconds: Number.isFinite(seconds) ? seconds : null,
  });
}

// ---- recordings --------------------------------------------------------------------------

export interface RecordingStream {
  status: number;
  headers: Record<string, string>;
  body: Readable;
}

/**
 * GET /api/recordings/{id}: the call's recording, fetched from the provider with the account's
 * credentials and streamed (a Range asked for is passed on). The lead's agent and admins only:
 * anyone else gets the same 404 as for a call that does not exist.
 */
export async function recordingStream(
  db: Db,
  config: AppConfig,
  user: { id: number; role: string },
  callId: number,
  range: string | undefined,
): Promise<RecordingStream> {
  await takeHit(
    db,
    `recording:${user.id}`,
    { limit: config.RECORDINGS_PER_USER_PER_MINUTE, windowSeconds: 60 },
    'Too many recordings asked for: try again in a minute',
  );
  const call = await callById(db, callId);
  const allowed =
    call && (user.role === 'ADMIN' || (await leadToCall(db, user.id, call.leadId)) !== null);
  if (!call || !allowed || !call.recordingSid) throw notFound('Recording');
  const settings = twilioSettings(config);
  if (!settings) throw new AppError('SERVICE_UNAVAILABLE', CALLS_NOT_CONFIGURED);
  let upstream: Response;
  try {
    upstream = await fetch(recordingMediaUrl(settings, call.recordingSid), {
      headers: {
        authorization: basicAuth(settings),
        ...(range && /^bytes=\d*-\d*$/.test(range) ? { range } : {}),
      },
      redirect: 'follow',
      signal: AbortSignal.timeout(30_000),
    });
  } catch {
    throw new AppError('SERVICE_UNAVAILABLE', 'The recording could not be fetched');
  }
  if ((upstream.status !== 200 && upstream.status !== 206) || !upstream.body) {
    await upstream.body?.cancel();
    throw new AppError('SERVICE_UNAVAILABLE', 'The recording could not be fetched');
  }
  const type = upstream.headers.get('content-type') ?? '';
  const headers: Record<string, string> = {
    'content-type': type.startsWith('audio/') ? type : 'audio/wav',
    'cache-control': 'private, no-store',
    'accept-ranges': 'bytes',
  };
  for (const name of ['content-length', 'content-range']) {
    const value = upstream.headers.get(name);
    if (value) headers[name] = value;
  }
  return {
    status: upstream.status,
    headers,
    body: Readable.fromWeb(upstream.body as import('node:stream/web').ReadableStream),
  };
}

/** The voice channel's state for GET /api/health: FAILING when the latest calls all failed. */
export async function voiceHealth(
  db: Db,
  config: AppConfig,
): Promise<'OPERATIONAL' | 'FAILING' | 'NOT_CONFIGURED'> {
  if (!smsConfigured(config)) return 'NOT_CONFIGURED';
  const recent = await recentCallStatuses(db, 5);
  return recent.length > 0 && recent.every((s) => s === 'FAILED') ? 'FAILING' : 'OPERATIONAL';
}

export { forgetRecordings } from './calls.repository';

/**
 * Removes a recording at the provider (a consumer's deletion). A recording the provider no longer
 * has is removed already. Throws when the provider cannot be reached (tried again later).
 */
export async function removeRecordingAtProvider(
  config: TwilioConfig,
  recordingSid: string,
): Promise<'REMOVED' | 'NOT_CONFIGURED'> {
  const settings = twilioSettings(config);
  if (!settings) return 'NOT_CONFIGURED';
  try {
    await twilioClient(settings).recordings(recordingSid).remove();
  } catch (err) {
    if ((err as { status?: number }).status !== 404) throw err;
  }
  return 'REMOVED';
}
