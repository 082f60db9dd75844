/**
 * A stand-in of TrustedForm's Certificate API v4 on loopback (TRUSTEDFORM_API_BASE): the one
 * call LeadFlow makes, `POST /<certificate id>` with `api-version: 4.0`, JSON, and HTTP Basic
 * auth (user "API", password the key), answering retain and match_lead. It models:
 *
 * - a known certificate: 200 `{outcome, reason, retain: {result: {expires_at,
 *   previously_retained}}, match_lead: {email, phone, result: {success, email_match,
 *   phone_match}}}`, the match made on the phone's last ten digits or the email,
 *   case-insensitive; `outcome` is "success" only when every operation succeeded (the match
 *   too), else "failure" with a `reason`;
 * - an expired certificate: 200 `{outcome: "failure", reason: "The certificate has expired"}`;
 * - an unknown certificate: 404 `{outcome: "failure", reason}`;
 * - a wrong key: 401; no or another api-version: 400;
 * - `down = true`: 503 to every call (TrustedForm unavailable).
 *
 * Every request is recorded (path, headers, body) for the tests to read.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Certificate {
  phone?: string;
  email?: string;
  /** ISO; the retention's end */
  expiresAt?: string;
  expired?: boolean;
}

export interface TrustedFormRequest {
  method: string;
  path: string;
  apiVersion: string | undefined;
  authorized: boolean;
  body: {
    retain?: { reference?: string; vendor?: string };
    match_lead?: { email?: string; phone?: string };
  } | null;
}

export class TrustedFormStandIn {
  readonly requests: TrustedFormRequest[] = [];
  readonly certificates = new Map<string, Certificate>();
  /** answer 503 to every call */
  down = false;
  private server: Server | null = null;
  private seq = 0;

  constructor(readonly apiKey = 'stand-in-trustedform-key') {}

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((err: unknown) => this.json(res, 500, { message: String(err) }));
    });
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }

  /** A new certificate (40 hex digits), its public URL as a source sends it. */
  issue(cert: Certificate = {}): string {
    this.seq += 1;
    const id = `${process.pid.toString(16).padStart(8, '0')}${String(this.seq).padStart(32, '0')}`;
    this.certificates.set(id, {
      expiresAt: new Date(Date.now() + 90 * 86_400_000).toISOString(),
      ...cert,
    });
    return `https://cert.trustedform.com/${id}`;
  }

  /** The requests made for one certificate URL. */
  requestsFor(certUrl: string): TrustedFormRequest[] {
    const id = new URL(certUrl).pathname.slice(1);
    return this.requests.filter((r) => r.path === `/${id}`);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    let body: TrustedFormRequest['body'] = null;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      body = null;
    }
    const expected = `Basic ${Buffer.from(`API:${this.apiKey}`).toString('base64')}`;
    const path = (req.url ?? '/').split('?')[0] as string;
    const apiVersion = req.headers['api-version'] as string | undefined;
    const authorized = req.headers.authorization === expected;
    this.requests.push({ method: req.method ?? '', path, apiVersion, authorized, body });

    if (this.down) return this.json(res, 503, { message: 'Service Unavailable' });
    if (!authorized) return this.json(res, 401, { message: 'Unauthorized' });
    if (apiVersion !== '4.0') return this.json(res, 400, { message: 'api-version 4.0 required' });
    if (req.method !== 'POST' || req.headers['content-type'] !== 'application/json' || !body) {
      return this.json(res, 400, { message: 'POST a JSON body' });
    }
    const cert = this.certificates.get(path.slice(1));
    if (!cert) return this.json(res, 404, { outcome: 'failure', reason: 'Certificate not found' });
    if (cert.expired) {
      return this.json(res, 200, { outcome: 'failure', reason: 'The certificate has expired' });
    }
    const lead = body.match_lead ?? {};
    const digits = (p: string | undefined) => (p ?? '').replace(/\D/g, '').slice(-10);
    const phoneMatch = Boolean(
      cert.phone && lead.phone && digits(cert.phone) === digits(lead.phone),
    );
    const emailMatch = Boolean(
      cert.email && lead.email && cert.email.toLowerCase() === lead.email.toLowerCase(),
    );
    const matched = phoneMatch || emailMatch;
    return this.json(res, 200, {
      outcome: matched ? 'success' : 'failure',
      reason: matched ? null : 'The lead did not match the certificate',
      retain: {
        result: { expires_at: cert.expiresAt, previously_retained: false },
      },
      match_lead: {
        email: lead.email ?? null,
        phone: lead.phone ?? null,
        result: {
          success: phoneMatch || emailMatch,
          email_match: emailMatch,
          phone_match: phoneMatch,
        },
      },
    });
  }

  private json(res: ServerResponse, status: number, body: unknown): void {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  }
}
