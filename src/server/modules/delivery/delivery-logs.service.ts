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
import {
  channelFigures,
  deliveryBacklog,
  deliveryExists,
  leadDeliveryAttempts,
  leadOfAgent,
  leadStatusHistory,
  listDeliveries,
  reopenFailed,
  webhookAgentIds,
} from './deliveries.repository';
import { enqueueRetry } from './deliveries.service';

/** The lead's timeline for its agent: status changes and delivery attempts, oldest first. */
export async function leadActivity(
  db: Db,
  agentId: number,
  leadId: number,
): Promise<{ items: ActivityEntry[] }> {
  if (!(await leadOfAgent(db, leadId, agentId))) throw notFound('Lead');
  const [history, attempts] = await Promise.all([
    leadStatusHistory(db, leadId),
    leadDeliveryAttempts(db, leadId, agentId),
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
  ];
  // stable: a status change and the delivery it caused keep that order at the same instant
  items.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
  return { items };
}

/** How many of a channel's latest attempts (within the hour) must all fail for it to be FAILING. */
const RECENT_ATTEMPTS = 5;

export async function channelSummaries(
  db: Db,
  config: Pick<AppConfig, 'SMTP_URL'>,
): Promise<ChannelSummary[]> {
  const [figures, webhookAgents] = await Promise.all([
    channelFigures(db, RECENT_ATTEMPTS),
    webhookAgentIds(db),
  ]);
  return figures.map((f) => {
    const configured = f.channel === 'EMAIL' ? Boolean(config.SMTP_URL) : webhookAgents.length > 0;
    const state: ChannelSummary['state'] = !configured
      ? 'NOT_CONFIGURED'
      : f.recentTotal > 0 && f.recentFailed === f.recentTotal
        ? 'FAILING'
        : 'OPERATIONAL';
    const finished = f.sent + f.failed;
    return {
      channel: f.channel,
      state,
      sent: f.sent,
      failed: f.failed,
      pending: f.pending,
      successRate: finished === 0 ? null : f.sent / finished,
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
export async function retryDelivery(db: Db, id: number): Promise<void> {
  await db.transaction(async (tx) => {
    const row = await reopenFailed(tx, id);
    if (!row) {
      if (await deliveryExists(tx, id))
        throw new AppError('CONFLICT', 'Only a failed delivery can be retried');
      throw notFound('Delivery');
    }
    await enqueueRetry(tx, row);
  });
}

/** GET /api/health's channels: each channel's state and the queue's backlog. */
export async function deliveryHealth(db: Db, config: Pick<AppConfig, 'SMTP_URL'>) {
  const [channels, backlog] = await Promise.all([
    channelSummaries(db, config),
    deliveryBacklog(db),
  ]);
  const stateOf = (channel: DeliveryChannel) =>
    channels.find((c) => c.channel === channel)?.state ?? 'NOT_CONFIGURED';
  return {
    email: stateOf('EMAIL'),
    webhook: stateOf('WEBHOOK'),
    backlog: { pending: backlog.pending, oldestSeconds: backlog.oldestSeconds },
  };
}
