/**
 * The CRM webhook channel (docs/domain.md, Delivery of assigned leads): one signed POST per event, Standard Webhooks headers
 * (`webhook-id` stays the same on every retry of one delivery), the agent's Authorization header
 * if set, a time limit, the connection made to the address the SSRF guard checked (and reused only
 * for that address: webhook-connections.ts), and no more of the answer read than is kept.
 */
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { EndpointRefused, hostOf, type ResolvedEndpoint, resolveEndpoint } from './ssrf-guard';
import type { WebhookConnections } from './webhook-connections';

export interface WebhookTarget {
  url: string;
  /** the current secret, then the previous one while a rotation's overlap lasts */
  secrets: string[];
  authHeader: string | null;
}

export interface WebhookResult {
  ok: boolean;
  /** worth trying again: network error, timeout, 408, 429, 5xx */
  retryable: boolean;
  responseCode: number | null;
  latencyMs: number;
  error: string | null;
  /** the start of the receiver's answer */
  responseBody: string | null;
}

/** How much of the receiver's answer is read and kept: the read stops there. */
export const BODY_KEPT = 500;

export function isRetryableStatus(code: number): boolean {
  return code === 408 || code === 429 || code >= 500;
}

/** What a call is signed with: the secret, and the one before it while the overlap lasts. */
export function signingSecrets(secret: string, previous: string | null): string[] {
  return previous ? [secret, previous] : [secret];
}

/** The JSON text of an event, as signed and sent. */
export function webhookEvent(type: string, data: unknown, at = new Date()): string {
  return JSON.stringify({ type, timestamp: at.toISOString(), data });
}

export async function sendWebhook(
  target: WebhookTarget,
  msgId: string,
  body: string,
  opts: {
    allowPrivate: boolean;
    timeoutMs: number;
    /** the process's connections, whose kept ones a call may reuse (without: a connection of its own) */
    connections?: WebhookConnections;
  },
): Promise<WebhookResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  let resolved: Awaited<ReturnType<typeof resolveEndpoint>>;
  try {
    resolved = await resolveEndpoint(target.url, opts.allowPrivate);
  } catch (err) {
    // an endpoint that now resolves somewhere internal is a final refusal, a DNS failure is not
    const refused = err instanceof EndpointRefused && !err.retryable;
    return {
      ok: false,
      retryable: !refused,
      responseCode: null,
      latencyMs: elapsed(),
      error: err instanceof Error ? err.message : String(err),
      responseBody: null,
    };
  }
  const now = new Date();
  // Standard Webhooks: space-separated signatures, one per secret; a receiver accepts any of them
  const signature = target.secrets
    .map((secret) => new Webhook(secret).sign(msgId, now, body))
    .join(' ');
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': 'LeadFlow-Webhooks/1',
    'webhook-id': msgId,
    'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
    'webhook-signature': signature,
  };
  if (target.authHeader) headers.authorization = target.authHeader;
  const sent = await post(resolved, headers, body, opts);
  // a kept connection the receiver closed just as it was reused: sent again at once on a new one
  // (nothing of the answer was read; the webhook-id is the same, a receiver drops a repeat)
  if (sent.reusedAndReset)
    return finished(await post(resolved, headers, body, { ...opts, connections: undefined }));
  return finished(sent);

  function finished(result: Omit<WebhookResult, 'latencyMs'>): WebhookResult {
    return { ...result, latencyMs: elapsed() };
  }
}

/** One POST to the checked address; `reusedAndReset`: a kept connection failed before any answer. */
async function post(
  resolved: ResolvedEndpoint,
  headers: Record<string, string>,
  body: string,
  opts: { timeoutMs: number; connections?: WebhookConnections },
): Promise<Omit<WebhookResult, 'latencyMs'> & { reusedAndReset?: boolean }> {
  const { url } = resolved;
  const transport = url.protocol === 'https:' ? https : http;
  const host = hostOf(url);
  const options: http.RequestOptions & { servername?: string } = {
    method: 'POST',
    // the address checked, not the name: nothing is looked up again
    host: resolved.address,
    family: resolved.family,
    port: url.port || (url.protocol === 'https:' ? 443 : 80),
    path: `${url.pathname}${url.search}`,
    headers: { ...headers, host: url.host, 'content-length': String(Buffer.byteLength(body)) },
    // the certificate is checked against the name in the URL
    ...(url.protocol === 'https:' && !isIP(host) ? { servername: host } : {}),
  };
  options.agent = opts.connections ? await opts.connections.pooled(url.protocol, options) : false;

  return new Promise((resolve) => {
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    const finish = (result: Omit<WebhookResult, 'latencyMs'> & { reusedAndReset?: boolean }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    let req: http.ClientRequest;
    try {
      req = transport.request(options, (res) => {
        const code = res.statusCode ?? 0;
        const chunks: Buffer[] = [];
        let kept = 0;
        const answered = () => {
          const text = Buffer.concat(chunks).subarray(0, BODY_KEPT).toString('utf8');
          const ok = code >= 200 && code < 300;
          finish({
            ok,
            retryable: !ok && isRetryableStatus(code),
            responseCode: code,
            error: ok ? null : `The endpoint answered ${code}`,
            responseBody: text,
          });
        };
        res.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          kept += chunk.length;
          // enough kept: the rest is not read, however long the receiver goes on
          if (kept >= BODY_KEPT) {
            answered();
            req.destroy();
          }
        });
        res.on('end', answered);
        res.on('error', (err) =>
          finish({
            ok: false,
            retryable: true,
            responseCode: code,
            error: err.message,
            responseBody: null,
          }),
        );
      });
    } catch (err) {
      // a header Node refuses (the stored Authorization header): trying again changes nothing
      finish({
        ok: false,
        retryable: false,
        responseCode: null,
        error: err instanceof Error ? err.message : String(err),
        responseBody: null,
      });
      return;
    }
    timer = setTimeout(() => {
      finish({
        ok: false,
        retryable: true,
        responseCode: null,
        error: `No answer within ${opts.timeoutMs} ms`,
        responseBody: null,
      });
      req.destroy();
    }, opts.timeoutMs);
    req.on('error', (err: NodeJS.ErrnoException) =>
      finish({
        ok: false,
        retryable: true,
        responseCode: null,
        error: err.message,
        responseBody: null,
        reusedAndReset: req.reusedSocket && (err.code === 'ECONNRESET' || err.code === 'EPIPE'),
      }),
    );
    req.end(body);
  });
}
