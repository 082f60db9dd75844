/** The delivery logs: a lead's timeline, the admin's deliveries list and retry, the channels' health. */
import type {
  ActivityEntry,
  ChannelSummary,
  Delivery,
  DeliveryList,
} from '../../../shared/contracts/delivery';
import type { DeliveryChannel, DeliveryStatus, LeadStatus } from '../../../shared/domain';
import type { AppConfig } from '../../config/env';
import type { Db } from '../../db/client';
import { AppError, notFound } from '../../lib/app-error';
import { leadAlertEntries } from '../alerts/alerts.service';
import { leadCallEntries } from '../calls/calls.service';
import { leadMessageEntries } from '../follow-ups/follow-ups.service';
import { anyWebhookOn } from './deliveries.repository';
import { type DeliveryPorts, enqueueRetry } from './deliveries.service';
import {
  channelCounts,
  deliveryBacklog,
  deliveryExists,
  leadDeliveryAttempts,
  leadOfAgent,
  leadStatusHistory,
  listDeliveries,
  recentAttempts,
  reopenFailed,
} from './delivery-logs.repository';

/**
 * The lead's timeline for its agent: status changes, delivery attempts, follow-up messages, calls
 * and the alerts to the agent's phone, oldest first.
 */
export async function leadActivity(
  db: Db,
  agentId: number,
  leadId: number,
): Promise<{ items: ActivityEntry[] }> {
  if (!(await leadOfAgent(db, leadId, agentId))) throw notFound('Lead');
  const [history, attempts, messages, calls, alerts] = await Promise.all([
    leadStatusHistory(db, leadId),
    leadDeliveryAttempts(db, leadId, agentId),
    leadMessageEntries(db, leadId),
    leadCallEntries(db, leadId),
    leadAlertEntries(db, leadId, agentId),
  ]);
  const items: ActivityEntry[] = [
    ...history.map(
      (h): ActivityEntry => ({
        type: 'status',
        at: h.at,
        kind: h.kind,
        fromStatus: h.fromStatus as LeadStatus | null,
        toStatus: h.toStatus as LeadStatus,
        actor: h.actor,
      }),
    ),
    ...attempts.map((a): ActivityEntry => ({ type: 'delivery', ...a })),
    ...messages,
    ...calls,
    ...alerts,
  ];
  // stable: a status change and the delivery it caused keep that order at the same instant
  items.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
  return { items };
}

/** How many of a channel's latest attempts (within the hour) must all fail for it to be FAILING. */
const RECENT_ATTEMPTS = 5;
/** How many of the latest attempts (all channels) are read to find them. */
const ATTEMPTS_SCANNED = 200;
/** The backlog is counted up to this many. */
const BACKLOG_CAP = 100_000;

type ChannelState = ChannelSummary['state'];

/** Each channel's state: not set up, or FAILING when its latest attempts all failed. */
async function channelStates(
  db: Db,
  config: Pick<AppConfig, 'SMTP_URL'>,
): Promise<Record<DeliveryChannel, ChannelState>> {
  const [attempts, webhookOn] = await Promise.all([
    recentAttempts(db, ATTEMPTS_SCANNED),
    anyWebhookOn(db),
  ]);
  const stateOf = (channel: DeliveryChannel, configured: boolean): ChannelState => {
    if (!configured) return 'NOT_CONFIGURED';
    const latest = attempts.filter((a) => a.channel === channel).slice(0, RECENT_ATTEMPTS);
    return latest.length > 0 && latest.every((a) => a.status === 'FAILED')
      ? 'FAILING'
      : 'OPERATIONAL';
  };
  return {
    EMAIL: stateOf('EMAIL', Boolean(config.SMTP_URL)),
    WEBHOOK: stateOf('WEBHOOK', webhookOn),
  };
}

export async function channelSummaries(
  db: Db,
  config: Pick<AppConfig, 'SMTP_URL'>,
): Promise<ChannelSummary[]> {
  const [counts, states] = await Promise.all([channelCounts(db), channelStates(db, config)]);
  return counts.map((c) => {
    const finished = c.sent + c.failed;
    return {
      channel: c.channel,
      state: states[c.channel],
      sent: c.sent,
      failed: c.failed,
      pending: c.pending,
      successRate: finished === 0 ? null : c.sent / finished,
    };
  });
}

export async function deliveriesForAdmin(
  db: Db,
  config: Pick<AppConfig, 'SMTP_URL'>,
  query: { status?: DeliveryStatus; channel?: DeliveryChannel; limit?: number; offset?: number },
): Promise<DeliveryList> {
  const [{ items, total }, channels] = await Promise.all([
    listDeliveries(db, { ...query, limit: query.limit ?? 50, offset: query.offset ?? 0 }),
    channelSummaries(db, config),
  ]);
  return { items: items as unknown as Delivery[], total, channels };
}

/** A FAILED delivery goes back to PENDING and is enqueued again; anything else is a conflict. */
export async function retryDelivery(db: Db, ports: DeliveryPorts, id: number): Promise<void> {
  await db.transaction(async (tx) => {
    const row = await reopenFailed(tx, id);
    if (!row) {
      if (await deliveryExists(tx, id))
        throw new AppError('CONFLICT', 'Only a failed delivery can be retried');
      throw notFound('Delivery');
    }
    await enqueueRetry(tx, ports, row);
  });
}

/** GET /api/health's channels: each channel's state and the queue's backlog (bounded reads). */
export async function deliveryHealth(db: Db, config: Pick<AppConfig, 'SMTP_URL'>) {
  const [states, backlog] = await Promise.all([
    channelStates(db, config),
    deliveryBacklog(db, BACKLOG_CAP),
  ]);
  return { email: states.EMAIL, webhook: states.WEBHOOK, backlog };
}
