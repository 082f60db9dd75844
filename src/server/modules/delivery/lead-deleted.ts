/**
 * A consumer's deletion told to the CRMs that received their leads (docs/domain.md, Consumer
 * deletion and retention): one signed `lead.deleted` event a lead, on the agent's webhook as it is
 * now, with the same headers, signatures and guard as a lead's delivery.
 */
import { sql } from 'drizzle-orm';
import { type Db, intArrayLiteral, queryRows } from '../../db/client';
import { agentTarget } from './deliveries.repository';
import type { DeliveryRuntime } from './delivery-runtime';
import { sendWebhook, signingSecrets, webhookEvent } from './webhook-channel';
import type { WebhookConnections } from './webhook-connections';

const DELETED_BY_REQUEST = 'the consumer asked for their data to be deleted';

/** Deliveries of these leads still waiting are skipped: nothing more is sent of them. */
export async function skipLeadDeliveries(tx: Db, leadIds: number[]): Promise<void> {
  if (leadIds.length === 0) return;
  await tx.execute(
    sql`with s as (
      update deliveries set status = 'SKIPPED', error = ${DELETED_BY_REQUEST},
        next_attempt_at = null, updated_at = now(), lease_until = null
      where lead_id = any(${intArrayLiteral(leadIds, 'bigint')}) and status = 'PENDING'
      returning id, attempts
    )
    insert into delivery_attempts (delivery_id, attempt, status, error)
    select id, attempts, 'SKIPPED', ${DELETED_BY_REQUEST} from s`,
  );
}

/** The agents whose CRM was sent these leads (a webhook delivery that succeeded), with their leads. */
export async function crmRecipients(
  db: Db,
  leadIds: number[],
): Promise<{ agentId: number; leadIds: number[] }[]> {
  if (leadIds.length === 0) return [];
  const rows = await queryRows<{ agentId: number; leadIds: string[] }>(
    db,
    sql`select agent_id as "agentId", array_agg(distinct lead_id order by lead_id)::text[] as "leadIds"
          from deliveries
         where lead_id = any(${intArrayLiteral(leadIds, 'bigint')})
           and channel = 'WEBHOOK' and status = 'SENT'
         group by agent_id order by agent_id`,
  );
  return rows.map((r) => ({ agentId: r.agentId, leadIds: r.leadIds.map(Number) }));
}

export type LeadsDeletedOutcome =
  | { kind: 'SENT' }
  | { kind: 'SKIPPED'; reason: string }
  | { kind: 'FAILED'; retryable: boolean; error: string };

/**
 * Sends one `lead.deleted` event a lead to the agent's CRM, in order; stops at the first failure.
 * `key` makes each event's webhook-id (`msg_lf_deleted_<key>_<lead>`), the same on every try, so a
 * receiver drops repeats.
 */
export async function sendLeadsDeleted(
  db: Db,
  ports: {
    allowPrivate: boolean;
    runtime: DeliveryRuntime;
    connections: WebhookConnections;
  },
  agentId: number,
  leadIds: number[],
  key: string,
  deletedAt: Date,
): Promise<LeadsDeletedOutcome> {
  const target = await agentTarget(db, agentId);
  if (!target?.webhookEnabled || !target.webhookUrl || !target.webhookSecret)
    return { kind: 'SKIPPED', reason: 'The CRM webhook is off' };
  const endpoint = {
    url: target.webhookUrl,
    secrets: signingSecrets(target.webhookSecret, target.webhookPreviousSecret),
    authHeader: target.webhookAuthHeader,
  };
  for (const leadId of leadIds) {
    const body = webhookEvent('lead.deleted', {
      lead: { id: leadId },
      reason: 'CONSUMER_REQUEST',
      deletedAt: deletedAt.toISOString(),
    });
    const release = await ports.connections.take();
    try {
      const result = await sendWebhook(endpoint, `msg_lf_deleted_${key}_${leadId}`, body, {
        allowPrivate: ports.allowPrivate,
        timeoutMs: ports.runtime.webhookTimeoutMs,
        connections: ports.connections,
      });
      if (!result.ok) {
        const error = result.error ?? `The CRM answered ${result.responseCode}`;
        return { kind: 'FAILED', retryable: result.retryable, error };
      }
    } finally {
      release();
    }
  }
  return { kind: 'SENT' };
}
