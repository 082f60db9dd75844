/**
 * A push service on loopback, for the API tests (docs/decisions/030-web-push.md): it plays the
 * browser's part too. `device()` makes a subscription as a browser would (an ECDH P-256 key pair
 * and a 16-byte auth secret, the endpoint a path here); every message received is decrypted with
 * that device's private key and secret (RFC 8291 aes128gcm, by http_ece, independent of the
 * server's web-push), and its `Authorization: vapid t=<jwt>, k=<key>` header checked (RFC 8292:
 * an ES256 JWT signed by k, aud the endpoint's origin, exp in the future). The answer is 201
 * unless the test scripted others for the device (the last one repeats).
 */
import { createECDH, createPublicKey, type ECDH, randomBytes, verify } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
// biome-ignore lint/suspicious/noTsIgnore: http_ece has no types
// @ts-ignore
import ece from 'http_ece';

export interface PushDevice {
  path: string;
  endpoint: string;
  keys: { p256dh: string; auth: string };
  ecdh: ECDH;
  authSecret: Buffer;
}

export interface ReceivedPush {
  path: string;
  at: number;
  /** the answer given */
  answered: number;
  contentEncoding: string | undefined;
  ttl: string | undefined;
  urgency: string | undefined;
  /** the decrypted payload, parsed; null when it did not decrypt */
  payload: unknown;
  decryptError: string | null;
  /** the VAPID header's verdict: null when valid, else why not */
  vapidError: string | null;
  /** the key the JWT was signed with (k=) and its claims */
  vapidKey: string | null;
  claims: { aud?: string; exp?: number; sub?: string } | null;
}

const b64u = (b: Buffer) => b.toString('base64url');

/** Checks `vapid t=<jwt>, k=<key>`: the claims, or why it is refused. */
export function checkVapid(
  header: string | undefined,
  origin: string,
): { error: string | null; key: string | null; claims: ReceivedPush['claims'] } {
  const m = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header ?? '');
  if (!m) return { error: `not a vapid Authorization header: ${header}`, key: null, claims: null };
  const [, jwt, k] = m as unknown as [string, string, string];
  const [h, p, s] = jwt.split('.');
  if (!h || !p || !s) return { error: 'not a JWT', key: k, claims: null };
  const head = JSON.parse(Buffer.from(h, 'base64url').toString());
  const claims = JSON.parse(Buffer.from(p, 'base64url').toString());
  if (head.alg !== 'ES256') return { error: `alg ${head.alg}`, key: k, claims };
  const point = Buffer.from(k, 'base64url');
  if (point.length !== 65 || point[0] !== 4)
    return { error: 'k is not a P-256 point', key: k, claims };
  const key = createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: b64u(point.subarray(1, 33)), y: b64u(point.subarray(33)) },
    format: 'jwk',
  });
  const ok = verify(
    'sha256',
    Buffer.from(`${h}.${p}`),
    { key, dsaEncoding: 'ieee-p1363' },
    Buffer.from(s, 'base64url'),
  );
  if (!ok) return { error: 'bad signature', key: k, claims };
  if (claims.aud !== origin) return { error: `aud ${claims.aud} is not ${origin}`, key: k, claims };
  if (!(claims.exp > Date.now() / 1000)) return { error: 'expired', key: k, claims };
  if (!/^(https:|mailto:)/.test(claims.sub ?? ''))
    return { error: `sub ${claims.sub}`, key: k, claims };
  return { error: null, key: k, claims };
}

export class TestPushService {
  readonly received: ReceivedPush[] = [];
  private readonly devices = new Map<string, PushDevice>();
  private readonly answers = new Map<string, number[]>();
  private server: Server | null = null;
  private seq = 0;
  base = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const path = req.url ?? '/';
        const device = this.devices.get(path);
        let payload: unknown = null;
        let decryptError: string | null = null;
        try {
          if (!device) throw new Error('no such device');
          const plain: Buffer = ece.decrypt(Buffer.concat(chunks), {
            version: 'aes128gcm',
            privateKey: device.ecdh,
            authSecret: b64u(device.authSecret),
          });
          payload = JSON.parse(plain.toString('utf8'));
        } catch (err) {
          decryptError = err instanceof Error ? err.message : String(err);
        }
        const vapid = checkVapid(req.headers.authorization, this.base);
        const plan = this.answers.get(path) ?? [201];
        const answered = device ? (plan.length > 1 ? plan.shift()! : plan[0]!) : 404;
        this.received.push({
          path,
          at: Date.now(),
          answered,
          contentEncoding: req.headers['content-encoding'],
          ttl: req.headers.ttl as string | undefined,
          urgency: req.headers.urgency as string | undefined,
          payload,
          decryptError,
          vapidError: vapid.error,
          vapidKey: vapid.key,
          claims: vapid.claims,
        });
        res.writeHead(answered, { 'content-type': 'text/plain' });
        res.end(answered < 300 ? '' : `answered ${answered}`);
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** A browser's new subscription on this service; `answers` scripts its replies. */
  device(answers: number[] = [201]): PushDevice {
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    const authSecret = randomBytes(16);
    const path = `/push/${process.pid}-${++this.seq}-${b64u(randomBytes(6))}`;
    const device: PushDevice = {
      path,
      endpoint: `${this.base}${path}`,
      keys: { p256dh: b64u(ecdh.getPublicKey()), auth: b64u(authSecret) },
      ecdh,
      authSecret,
    };
    this.devices.set(path, device);
    this.answers.set(path, [...answers]);
    return device;
  }

  /** Replies from now on for this device. */
  answer(device: PushDevice, answers: number[]): void {
    this.answers.set(device.path, [...answers]);
  }

  of(device: PushDevice): ReceivedPush[] {
    return this.received.filter((r) => r.path === device.path);
  }

  async close(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server!.close(resolve));
  }
}
