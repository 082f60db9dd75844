/**
 * Push alerts to the agent's devices (docs/domain.md, Alerts to the agent's phone): the server's
 * public key, a device's subscription as the browser's PushManager gives it, and what a push
 * carries (the service worker shows it).
 */
import { z } from 'zod';

/** base64url of exactly this many bytes (padding allowed, as some browsers send it) */
const base64url = (bytes: number) => {
  const chars = Math.ceil((bytes * 4) / 3);
  return z
    .string()
    .regex(new RegExp(`^[A-Za-z0-9_-]{${chars}}=*$`), `must be ${bytes} bytes in base64url`);
};

/** GET /api/push/public-key */
export const pushPublicKey = z.object({ publicKey: z.string() });
export type PushPublicKey = z.infer<typeof pushPublicKey>;

/** POST /api/agent/push/subscriptions: PushSubscription.toJSON() without expirationTime */
export const pushSubscriptionBody = z.object({
  endpoint: z.string().min(1).max(2000),
  keys: z.object({
    /** the device's P-256 public key, uncompressed (65 bytes) */
    p256dh: base64url(65),
    /** the device's 16-byte auth secret */
    auth: base64url(16),
  }),
});
export type PushSubscriptionBody = z.infer<typeof pushSubscriptionBody>;

/** DELETE /api/agent/push/subscriptions */
export const pushUnsubscribeBody = z.object({ endpoint: z.string().min(1).max(2000) });

/** One of the agent's devices (never its keys). */
export const pushDevice = z.object({
  endpoint: z.string(),
  createdAt: z.string(),
});
export const pushDeviceList = z.object({ devices: z.array(pushDevice) });
export type PushDeviceList = z.infer<typeof pushDeviceList>;

/** What a push carries: the service worker shows title and body, and a click opens url. */
export const pushMessage = z.object({ title: z.string(), body: z.string(), url: z.string() });
export type PushMessage = z.infer<typeof pushMessage>;
