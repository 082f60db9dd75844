/** An agent's delivery settings (GET/PUT /api/agent/delivery), the webhook test and the secret's rotation. */
import { randomBytes } from 'node:crypto';
import type {
  DeliverySettings,
  DeliverySettingsBody,
  WebhookTestResult,
} from '../../../shared/contracts/delivery';
import type { AppConfig } from '../../config/env';
import type { Db } from '../../db/client';
import { AppError, badField } from '../../lib/app-error';
import { takeHit } from '../rate-limits/rate-limits.service';
import type { DeliveryRuntime } from './delivery-runtime';
import {
  endTestTurn,
  ensureSettings,
  rotateSecret,
  type SettingsRow,
  takeTestTurn,
  updateSettings,
} from './delivery-settings.repository';
import { EndpointRefused, resolveEndpoint } from './ssrf-guard';
import { sendWebhook, signingSecrets, webhookEvent } from './webhook-channel';
import type { WebhookConnections } from './webhook-connections';

/** A Standard Webhooks signing secret: whsec_ and 24 random bytes in base64. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

function present(row: SettingsRow, config: Pick<AppConfig, 'SMTP_URL'>): DeliverySettings {
  return {
    email: {
      enabled: row.emailEnabled,
      address: row.email,
      configured: Boolean(config.SMTP_URL),
    },
    webhook: {
      url: row.webhookUrl,
      authHeaderSet: Boolean(row.webhookAuthHeader),
      enabled: row.webhookEnabled,
      secret: row.webhookSecret,
      previousSecretUntil: row.previousSecretUntil,
      available: row.serviceCrm,
      failuresInRow: row.webhookFailuresInRow,
      disabledAt: row.webhookDisabledAt,
    },
  };
}

export async function getDeliverySettings(
  db: Db,
  config: Pick<AppConfig, 'SMTP_URL'>,
  userId: number,
): Promise<DeliverySettings> {
  return present(await ensureSettings(db, userId, newWebhookSecret()), config);
}

/**
 * Saves the agent's choices. The webhook needs the package's CRM service; a URL is checked (http
 * or https, no credentials, not resolving to an internal address) before it is stored, and
 * enabling needs one.
 */
export async function updateDeliverySettings(
  db: Db,
  config: Pick<AppConfig, 'SMTP_URL' | 'WEBHOOK_ALLOW_PRIVATE'>,
  userId: number,
  body: DeliverySettingsBody,
): Promise<DeliverySettings> {
  const row = await ensureSettings(db, userId, newWebhookSecret());
  const webhook = body.webhook;
  let url: string | null | undefined = webhook?.url;
  if (url === '') url = null;
  if (
    webhook &&
    (webhook.url !== undefined || webhook.authHeader !== undefined || webhook.enabled)
  ) {
    if (!row.serviceCrm)
      throw new AppError('FORBIDDEN', 'Your package does not include the CRM integration');
  }
  if (url) {
    try {
      await resolveEndpoint(url, config.WEBHOOK_ALLOW_PRIVATE);
    } catch (err) {
      if (err instanceof EndpointRefused) throw badField('webhook.url', err.message);
      throw err;
    }
  }
  const finalUrl = url === undefined ? row.webhookUrl : url;
  if (webhook?.enabled && !finalUrl)
    throw badField('webhook.url', 'Set the webhook URL before turning the webhook on');
  await updateSettings(db, userId, {
    emailEnabled: body.email?.enabled,
    webhookUrl: url,
    webhookAuthHeader: webhook?.authHeader,
    // removing the URL turns the webhook off
    webhookEnabled: url === null ? false : webhook?.enabled,
  });
  return getDeliverySettings(db, config, userId);
}

/**
 * A new signing secret, answered with the settings (the only answer that carries it new). The
 * previous one keeps signing every call beside it for 24 hours, while the agent's CRM changes over.
 */
export async function rotateWebhookSecret(
  db: Db,
  config: Pick<AppConfig, 'SMTP_URL'>,
  userId: number,
): Promise<DeliverySettings> {
  const row = await ensureSettings(db, userId, newWebhookSecret());
  if (!row.serviceCrm)
    throw new AppError('FORBIDDEN', 'Your package does not include the CRM integration');
  await rotateSecret(db, userId, newWebhookSecret());
  return getDeliverySettings(db, config, userId);
}

/**
 * Sends a test event to the agent's endpoint now and answers the attempt. Only for an ACTIVE
 * subscription; one at a time per agent and WEBHOOK_TESTS_PER_MINUTE a minute, counted in the
 * database (every process sees them); through one of the process's webhook connections, never
 * waiting for one.
 */
export async function testWebhook(
  db: Db,
  config: Pick<AppConfig, 'SMTP_URL' | 'WEBHOOK_ALLOW_PRIVATE' | 'WEBHOOK_TESTS_PER_MINUTE'>,
  runtime: Pick<DeliveryRuntime, 'webhookTimeoutMs'>,
  connections: WebhookConnections,
  userId: number,
): Promise<WebhookTestResult> {
  const row = await ensureSettings(db, userId, newWebhookSecret());
  if (!row.webhookUrl) throw new AppError('BAD_REQUEST', 'Set the webhook URL first');
  if (!row.serviceCrm)
    throw new AppError('FORBIDDEN', 'Your package does not include the CRM integration');
  if (row.subscriptionStatus !== 'ACTIVE')
    throw new AppError('FORBIDDEN', 'Test events need an active subscription');
  const taken = await takeTestTurn(db, userId, Math.ceil(runtime.webhookTimeoutMs / 1000) + 5);
  if (!taken)
    throw new AppError('CONFLICT', 'A test event is already on its way: wait for its answer');
  try {
    // the minute's tests, in the counters every process shares (a refused one is not counted
    // as on its way: the turn is given back below)
    await takeHit(
      db,
      `webhook-test:${userId}`,
      { limit: config.WEBHOOK_TESTS_PER_MINUTE, windowSeconds: 60 },
      `At most ${config.WEBHOOK_TESTS_PER_MINUTE} test events a minute: try again in a moment`,
    );
    const release = connections.tryTake();
    if (!release)
      throw new AppError(
        'SERVICE_UNAVAILABLE',
        'The server is sending as many webhook calls as it may: try the test again in a moment',
        { 'retry-after': '1' },
      );
    try {
      // a connection of its own (not a kept one): the test shows the endpoint can be reached now
      return await sendTestEvent(config, runtime, row, userId);
    } finally {
      release();
    }
  } finally {
    await endTestTurn(db, userId);
  }
}

async function sendTestEvent(
  config: Pick<AppConfig, 'WEBHOOK_ALLOW_PRIVATE'>,
  runtime: Pick<DeliveryRuntime, 'webhookTimeoutMs'>,
  row: SettingsRow,
  userId: number,
): Promise<WebhookTestResult> {
  const msgId = `msg_lf_test_${randomBytes(9).toString('base64url')}`;
  const body = webhookEvent('webhook.test', {
    message: 'A test event from LeadFlow: your endpoint is reachable and can verify the signature.',
    agent: { id: userId, email: row.email },
  });
  const result = await sendWebhook(
    {
      url: row.webhookUrl!,
      secrets: signingSecrets(row.webhookSecret, row.webhookPreviousSecret),
      authHeader: row.webhookAuthHeader,
    },
    msgId,
    body,
    { allowPrivate: config.WEBHOOK_ALLOW_PRIVATE, timeoutMs: runtime.webhookTimeoutMs },
  );
  return {
    attempt: 1,
    status: result.ok ? 'SENT' : 'FAILED',
    responseCode: result.responseCode,
    latencyMs: result.latencyMs,
    error: result.error,
    at: new Date().toISOString(),
    ok: result.ok,
    responseBody: result.responseBody,
  };
}
