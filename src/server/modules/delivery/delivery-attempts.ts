/**
 * Making attempts on each channel (docs/domain.md, Delivery of assigned leads): what one batch of claimed deliveries gets, and what
 * each attempt leaves the delivery at. deliveries.service records the outcomes.
 */
import type { AppConfig } from '../../config/env';
import type {
  AgentDeliveryTarget,
  AttemptOutcome,
  ClaimedDelivery,
  LeadForDelivery,
} from './deliveries.repository';
import type { DeliveryRuntime } from './delivery-runtime';
import { DIGEST_OVER, EMAIL_TIME_LIMIT_MS, sendLeadEmail } from './email-channel';
import { sendWebhook, signingSecrets, webhookEvent } from './webhook-channel';
import type { WebhookConnections } from './webhook-connections';

/** Leads per email: a bigger batch is split into several digests. */
const LEADS_PER_EMAIL = 100;

export type Outcome = Omit<AttemptOutcome, 'status' | 'nextAttemptAt'> & { retryable: boolean };

/**
 * Whether a send with this time limit may start now (the worker's lease on the delivery lasts
 * longer: delivery-leases.ts); false stops the batch there, the rest waiting for their retry.
 */
export type MaySend = (deliveryId: number, timeoutMs: number) => boolean;

/** What an attempt leaves the delivery at: sent, failed for good, or due again later. */
export function settle(
  outcome: Outcome,
  attempts: number,
  runtime: DeliveryRuntime,
  now: number,
): AttemptOutcome {
  const { retryable, ...rest } = outcome;
  if (rest.attemptStatus === 'SENT' || rest.attemptStatus === 'SKIPPED')
    return { ...rest, status: rest.attemptStatus, nextAttemptAt: null };
  const delay = runtime.retryDelaysMs[attempts - 1];
  if (retryable && delay !== undefined)
    return { ...rest, status: 'PENDING', nextAttemptAt: new Date(now + delay).toISOString() };
  return { ...rest, status: 'FAILED', nextAttemptAt: null };
}

export const skipped = (id: number, error: string): Outcome => ({
  id,
  attemptStatus: 'SKIPPED',
  responseCode: null,
  latencyMs: null,
  error,
  messageId: null,
  retryable: false,
});

export async function attemptEmails(
  config: AppConfig,
  target: AgentDeliveryTarget | null,
  claimed: ClaimedDelivery[],
  leads: Map<number, LeadForDelivery>,
  maySend: MaySend = () => true,
): Promise<Outcome[]> {
  if (!config.SMTP_URL) return claimed.map((c) => skipped(c.id, 'Email is not configured'));
  if (!target) return claimed.map((c) => skipped(c.id, 'The agent no longer exists'));
  if (!target.emailEnabled) return claimed.map((c) => skipped(c.id, 'The agent turned email off'));
  const present = claimed.filter((c) => leads.has(c.leadId));
  const outcomes: Outcome[] = claimed
    .filter((c) => !leads.has(c.leadId))
    .map((c) => skipped(c.id, 'The lead no longer exists'));
  // up to DIGEST_OVER leads: one email each; more: digests
  const groups =
    present.length > DIGEST_OVER
      ? chunk(present, LEADS_PER_EMAIL)
      : present.map((c) => [c] as ClaimedDelivery[]);
  for (const group of groups) {
    // the lease ran short (its renewals failed): this group and the rest wait for their retry
    if (!group.every((c) => maySend(c.id, EMAIL_TIME_LIMIT_MS))) break;
    const result = await sendLeadEmail(
      config.SMTP_URL,
      config.MAIL_FROM,
      target.email,
      group.map((c) => leads.get(c.leadId)!),
      config.PUBLIC_URL,
    );
    for (const c of group)
      outcomes.push({
        id: c.id,
        attemptStatus: result.ok ? 'SENT' : 'FAILED',
        responseCode: result.responseCode,
        latencyMs: result.latencyMs,
        error: result.error,
        messageId: result.messageId,
        retryable: result.retryable,
      });
  }
  return outcomes;
}

/**
 * The lead as a CRM receives it: contact, place (with the ZIP and the IANA time zone its
 * calling window is read in), category, consent and source (docs/domain.md, Deliveries).
 */
export function webhookLead(lead: LeadForDelivery) {
  return {
    id: lead.id,
    externalId: lead.externalId,
    firstName: lead.firstName,
    lastName: lead.lastName,
    phone: lead.phone,
    email: lead.email,
    city: lead.city,
    state: lead.state,
    zip: lead.zip,
    timeZone: lead.timeZone,
    age: lead.age,
    category: lead.category,
    status: lead.status,
    assignedAt: lead.assignedAt,
    consent: {
      at: lead.consentAt,
      text: lead.consentText,
      trustedFormCertUrl: lead.trustedFormCertUrl,
      jornayaLeadId: lead.jornayaLeadId,
      ip: lead.consentIp,
    },
    ...(lead.sourceId !== null ? { source: { id: lead.sourceId, name: lead.sourceName } } : {}),
  };
}

/** The webhook-id of a delivery: the same on every attempt, so receivers can drop repeats. */
export const webhookMessageId = (deliveryId: number) => `msg_lf_${deliveryId}`;

/**
 * One endpoint, one call at a time (its job is the only one of that endpoint running: the queue's
 * group per agent, jobs/registry.ts), each through one of the process's webhook connections,
 * waiting for a free one. An endpoint that fails in a way worth retrying (timeout, network, 5xx)
 * ends the batch: the deliveries after it are answered no outcome, and wait for the retry rather
 * than each holding the job for as long.
 */
export async function attemptWebhooks(
  config: AppConfig,
  runtime: DeliveryRuntime,
  connections: WebhookConnections,
  target: AgentDeliveryTarget | null,
  claimed: ClaimedDelivery[],
  leads: Map<number, LeadForDelivery>,
  maySend: MaySend = () => true,
): Promise<Outcome[]> {
  if (!target?.webhookEnabled || !target.webhookUrl || !target.webhookSecret)
    return claimed.map((c) => skipped(c.id, 'The CRM webhook is off'));
  if (!target.serviceCrm)
    return claimed.map((c) => skipped(c.id, "The agent's package has no CRM integration"));
  const endpoint = {
    url: target.webhookUrl,
    secrets: signingSecrets(target.webhookSecret, target.webhookPreviousSecret),
    authHeader: target.webhookAuthHeader,
  };
  const outcomes: Outcome[] = [];
  for (const c of claimed) {
    const lead = leads.get(c.leadId);
    if (!lead) {
      outcomes.push(skipped(c.id, 'The lead no longer exists'));
      continue;
    }
    const msgId = webhookMessageId(c.id);
    const body = webhookEvent('lead.assigned', {
      lead: webhookLead(lead),
      agent: { id: target.id, email: target.email },
    });
    const release = await connections.take();
    // checked once a connection is free: the wait for one counts against the lease too
    if (!maySend(c.id, runtime.webhookTimeoutMs)) {
      release();
      break;
    }
    let result: Awaited<ReturnType<typeof sendWebhook>>;
    try {
      result = await sendWebhook(endpoint, msgId, body, {
        allowPrivate: config.WEBHOOK_ALLOW_PRIVATE,
        timeoutMs: runtime.webhookTimeoutMs,
        connections,
      });
    } finally {
      release();
    }
    outcomes.push({
      id: c.id,
      attemptStatus: result.ok ? 'SENT' : 'FAILED',
      responseCode: result.responseCode,
      latencyMs: result.latencyMs,
      error: result.error,
      messageId: msgId,
      retryable: result.retryable,
    });
    if (!result.ok && result.retryable) break;
  }
  return outcomes;
}

export function chunk<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
