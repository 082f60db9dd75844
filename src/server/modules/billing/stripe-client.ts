import Stripe from 'stripe';
import type { AppConfig } from '../../config/env';

/** The Stripe settings, when billing is on: both keys set (docs/domain.md, Billing). */
export interface StripeSettings {
  secretKey: string;
  webhookSecret: string;
  /** a stand-in of Stripe's API (tests only): http(s)://host:port */
  apiBase?: string;
}

export function stripeSettings(config: AppConfig): StripeSettings | null {
  if (!config.STRIPE_SECRET_KEY || !config.STRIPE_WEBHOOK_SECRET) return null;
  return {
    secretKey: config.STRIPE_SECRET_KEY,
    webhookSecret: config.STRIPE_WEBHOOK_SECRET,
    ...(config.STRIPE_API_BASE ? { apiBase: config.STRIPE_API_BASE } : {}),
  };
}

/**
 * The official SDK, pointed at Stripe, or at STRIPE_API_BASE's host, port and protocol (a
 * stand-in that tests start on loopback). No automatic retries beyond the SDK's one: a failed
 * call fails the request that made it, which the caller may repeat.
 */
export function createStripeClient(settings: StripeSettings): Stripe {
  const base = settings.apiBase ? new URL(settings.apiBase) : null;
  return new Stripe(settings.secretKey, {
    maxNetworkRetries: 1,
    timeout: 20_000,
    telemetry: false,
    ...(base
      ? {
          host: base.hostname,
          port: base.port || (base.protocol === 'https:' ? 443 : 80),
          protocol: base.protocol === 'https:' ? 'https' : 'http',
        }
      : {}),
  });
}

export type { Stripe };
