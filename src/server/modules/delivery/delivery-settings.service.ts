/** An agent's delivery settings (GET/PUT /api/agent/delivery) and the webhook test. */
import { randomBytes } from 'node:crypto';
import type {
  DeliverySettings,
  DeliverySettingsBody,
  WebhookTestResult,
} from '../../../shared/contracts/delivery';
import type { AppConfig } from '../../config/env';
import type { Db } from '../../db/client';
import { AppError, badField } from '../../lib/app-error';
import type { DeliveryRuntime } from './delivery-runtime';
import { ensureSettings, type SettingsRow, updateSettings } from './delivery-settings.repository';
import { EndpointRefused, resolveEndpoint } from './ssrf-guard';
import { sendWebhook, webhookEvent } from './webhook-channel';

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

/** Sends a test event to the agent's endpoint now and answers the attempt. */
export async function testWebhook(
  db: Db,
  config: Pick<AppConfig, 'SMTP_URL' | 'WEBHOOK_ALLOW_PRIVATE'>,
  runtime: Pick<DeliveryRuntime, 'webhookTimeoutMs'>,
  userId: number,
): Promise<WebhookTestResult> {
  const row = await ensureSettings(db, userId, newWebhookSecret());
  if (!row.webhookUrl) throw new AppError('BAD_REQUEST', 'Set the webhook URL first');
  if (!row.serviceCrm)
    throw new AppError('FORBIDDEN', 'Your package does not include the CRM integration');
  const msgId = `msg_lf_test_${randomBytes(9).toString('base64url')}`;
  const body = webhookEvent('webhook.test', {
    message: 'A test event from LeadFlow: your endpoint is reachable and can verify the signature.',
    agent: { id: userId, email: row.email },
  });
  const result = await sendWebhook(
    { url: row.webhookUrl, secret: row.webhookSecret, authHeader: row.webhookAuthHeader },
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
