import type { AssignmentRun } from '../../../shared/contracts/admin';
import { DEFAULT_BUSINESS_TIME_ZONE, formatBusinessTime } from '../../../shared/format';

export type ChannelState = 'OPERATIONAL' | 'FAILING' | 'NOT_CONFIGURED';

export interface Health {
  status: 'ok' | 'degraded';
  database: 'ok' | 'down';
  lastAssignmentRun: AssignmentRun | null;
  /** BUSINESS_TZ, once the server names it; until then the screens use its default */
  businessTimeZone?: string;
  /** the delivery channels and the queue's backlog (absent when the database is down) */
  channels?: {
    email: ChannelState;
    webhook: ChannelState;
    /** Twilio (docs/domain.md, Follow-up messages and calls): follow-up SMS and recorded calls */
    sms?: ChannelState;
    voice?: ChannelState;
    backlog: { pending: number; oldestSeconds: number | null };
  };
}

export type StatusTone = 'ok' | 'warning' | 'error' | 'unknown';

export interface ComponentStatus {
  label: string;
  tone: StatusTone;
  detail: string;
}

/** Database: operational only when the server's health check reached it. */
export function databaseStatus(health: Health | undefined, failed: boolean): ComponentStatus {
  if (failed || health?.database === 'down') {
    return { label: 'Unavailable', tone: 'error', detail: 'The server cannot reach the database' };
  }
  if (!health) return { label: 'Checking...', tone: 'unknown', detail: '' };
  return { label: 'Operational', tone: 'ok', detail: 'Connected' };
}

/** Lead Assignment: operational only when the last run finished without an error. */
export function assignmentStatus(
  health: Health | undefined,
  failed: boolean,
  formatTime: (iso: string) => string = (iso) =>
    formatBusinessTime(iso, health?.businessTimeZone ?? DEFAULT_BUSINESS_TIME_ZONE),
): ComponentStatus {
  if (failed) return { label: 'Unknown', tone: 'unknown', detail: 'Status could not be loaded' };
  if (!health) return { label: 'Checking...', tone: 'unknown', detail: '' };
  const run = health.lastAssignmentRun;
  if (!run) {
    return { label: 'No run yet', tone: 'warning', detail: 'No assignment run has happened yet' };
  }
  const when = formatTime(run.startedAt);
  if (run.error)
    return { label: 'Failed', tone: 'error', detail: `Last run ${when}: ${run.error}` };
  const leads = `${run.assigned} lead${run.assigned === 1 ? '' : 's'} assigned`;
  return { label: 'Operational', tone: 'ok', detail: `Last run ${when}: ${leads}` };
}

const CHANNEL_HELP = {
  email: {
    off: 'Set SMTP_URL to email agents their leads',
    failing: 'The latest emails all failed: see Deliveries',
  },
  webhook: {
    off: 'No agent has a CRM webhook turned on',
    failing: 'The latest webhook calls all failed: see Deliveries',
  },
  sms: {
    off: 'Set TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM_NUMBER to text new leads',
    failing: 'The latest follow-up SMS all failed: see Deliveries',
    ok: 'Follow-up SMS go through Twilio',
  },
  voice: {
    off: 'Set the TWILIO_* settings to let agents call leads with recording',
    failing: 'The latest calls all failed',
    ok: 'Agents can call leads; calls are recorded',
  },
} as const;

/** A delivery channel (docs/domain.md, Delivery of assigned leads), from the health check's real figures. */
export function channelStatus(
  health: Health | undefined,
  failed: boolean,
  channel: 'email' | 'webhook' | 'sms' | 'voice',
): ComponentStatus {
  if (failed) return { label: 'Unknown', tone: 'unknown', detail: 'Status could not be loaded' };
  if (!health) return { label: 'Checking...', tone: 'unknown', detail: '' };
  const channels = health.channels;
  if (!channels) return { label: 'Unknown', tone: 'unknown', detail: 'The database is down' };
  const state = channels[channel];
  if (state === undefined) return { label: 'Unknown', tone: 'unknown', detail: '' };
  if (state === 'NOT_CONFIGURED')
    return { label: 'Not configured', tone: 'unknown', detail: CHANNEL_HELP[channel].off };
  if (state === 'FAILING')
    return { label: 'Failing', tone: 'error', detail: CHANNEL_HELP[channel].failing };
  if (channel === 'sms' || channel === 'voice')
    return { label: 'Operational', tone: 'ok', detail: CHANNEL_HELP[channel].ok };
  const { pending, oldestSeconds } = channels.backlog;
  const waiting =
    pending === 0
      ? 'Nothing waiting'
      : `${pending.toLocaleString('en-US')} deliveries waiting${
          oldestSeconds !== null && oldestSeconds >= 60
            ? `, the oldest for ${Math.round(oldestSeconds / 60)} min`
            : ''
        }`;
  return { label: 'Operational', tone: 'ok', detail: waiting };
}
