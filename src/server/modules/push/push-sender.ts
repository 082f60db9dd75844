/**
 * One push to one device: the payload encrypted for it (RFC 8291, aes128gcm) and signed with the
 * server's VAPID key (RFC 8292), both by the web-push library, then POSTed by us rather than by
 * web-push's own sender: the connection goes to the address the SSRF guard checked (as a CRM
 * webhook's does), and to plain http on loopback where WEBHOOK_ALLOW_PRIVATE allows it (tests).
 */
import http from 'node:http';
import https from 'node:https';
import webpush from 'web-push';
import { pinnedLookup, type ResolvedEndpoint } from '../delivery/deliveries.service';
import type { KeyPair } from './push.repository';

export interface PushTarget {
  endpoint: string;
  p256dh: string;
  auth: string;
}

export interface PushResult {
  /** the push service's answer; null when none came (a timeout, a refused connection) */
  status: number | null;
  error: string | null;
}

/** How long a message waits at the push service for an offline device: a lead goes stale. */
const TTL_SECONDS = 60 * 60;
/** the push service's answer is read up to this many bytes (a CRM webhook's too) */
const BODY_KEPT = 500;

export function sendPush(
  target: PushTarget,
  resolved: ResolvedEndpoint,
  payload: string,
  vapid: KeyPair & { subject: string },
  timeoutMs: number,
): Promise<PushResult> {
  const details = webpush.generateRequestDetails(
    { endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } },
    payload,
    { vapidDetails: vapid, TTL: TTL_SECONDS, urgency: 'high', contentEncoding: 'aes128gcm' },
  );
  const url = resolved.url;
  const request = url.protocol === 'https:' ? https.request : http.request;
  return new Promise((resolve) => {
    let settled = false;
    const settle = (result: PushResult) => {
      if (settled) return;
      settled = true;
      resolve(result);
    };
    const req = request(
      url,
      {
        method: 'POST',
        headers: details.headers,
        lookup: pinnedLookup(resolved),
        timeout: timeoutMs,
      },
      (res) => {
        const status = res.statusCode ?? 0;
        const chunks: Buffer[] = [];
        let size = 0;
        const done = () => {
          const text = Buffer.concat(chunks).toString('utf8').slice(0, BODY_KEPT);
          settle({
            status,
            error: status >= 200 && status < 300 ? null : text || `HTTP ${status}`,
          });
        };
        res.on('data', (c: Buffer) => {
          chunks.push(c);
          size += c.length;
          // an endless answer holds nothing: its first bytes are enough
          if (size >= BODY_KEPT) {
            done();
            res.destroy();
          }
        });
        res.on('end', done);
        res.on('error', (err) => settle({ status: null, error: err.message }));
      },
    );
    req.on('timeout', () => req.destroy(new Error(`No answer within ${timeoutMs} ms`)));
    req.on('error', (err) => settle({ status: null, error: err.message }));
    req.end(details.body);
  });
}

/** A new key pair, base64url (web-push's form, as the browser's applicationServerKey takes it). */
export function newKeyPair(): KeyPair {
  return webpush.generateVAPIDKeys();
}
