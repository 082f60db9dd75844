import { isIP } from 'node:net';
import { z } from 'zod';
import { LEAD_CATEGORIES, REGISTRATION_MODES } from '../../shared/domain';
import { passwordProblem } from '../modules/auth/password-policy';

/** An enrollment window as month/day pairs; end before start means it wraps the new year. */
const monthDay = z.string().regex(/^\d{2}-\d{2}$/, 'expected MM-DD');
const enrollmentWindows = z.partialRecord(
  z.enum(LEAD_CATEGORIES),
  z.object({ start: monthDay, end: monthDay }),
);
export type EnrollmentWindows = z.infer<typeof enrollmentWindows>;

const DEFAULT_WINDOWS: EnrollmentWindows = {
  MEDICARE: { start: '10-15', end: '12-07' },
  ACA: { start: '11-01', end: '01-15' },
};

const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

/** proxy-addr's names for address ranges, accepted in a TRUST_PROXY list. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** An address, an address/prefix, or a range name: one entry of a TRUST_PROXY list. */
function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.has(entry)) return true;
  const [address, prefix, ...rest] = entry.split('/');
  const family = isIP(address ?? '');
  if (!family || rest.length) return false;
  if (prefix === undefined) return true;
  const bits = Number(prefix);
  return /^\d+$/.test(prefix) && bits <= (family === 4 ? 32 : 128);
}

/**
 * Which proxies' X-Forwarded-For to believe for the client's address (the login throttle's IP):
 * none by default, so a forged header counts for nothing; or the proxies' own addresses, ranges
 * or range names, comma-separated. (No hop count: Fastify 5 refuses to trust by hops alone, as
 * it cannot tell a proxy from a client that sends the header itself.)
 */
const trustProxy = z
  .string()
  .default('false')
  .transform((raw, ctx): false | string => {
    const value = raw.trim();
    if (value === 'false') return false;
    const entries = value.split(',').map((entry) => entry.trim());
    if (entries.every(isProxyAddress)) return entries.join(',');
    ctx.addIssue({
      code: 'custom',
      message: 'expected false, or proxy addresses/ranges like 10.0.0.0/8,loopback',
    });
    return z.NEVER;
  });

/** A host name, IPv4 address or [IPv6] address, with an optional :port. */
const HOST_ENTRY = /^(?:\[[0-9a-f:.]+\]|[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?)(?::\d{1,5})?$/;

/** ALLOWED_HOSTS: comma-separated names the Host header may carry; unset means the defaults. */
const allowedHosts = z
  .string()
  .optional()
  .transform((raw, ctx): string[] | undefined => {
    if (raw === undefined) return undefined;
    const entries = raw
      .split(',')
      .map((entry) => entry.trim().toLowerCase())
      .filter(Boolean);
    const bad = entries.filter((entry) => !HOST_ENTRY.test(entry));
    if (entries.length > 0 && bad.length === 0) return entries;
    ctx.addIssue({
      code: 'custom',
      message: `expected host names with an optional port, like leads.example.com,10.0.0.5:3000${bad.length ? ` (not: ${bad.join(', ')})` : ''}`,
    });
    return z.NEVER;
  });

const milliseconds = (fallback: number) => z.coerce.number().int().min(1).default(fallback);

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATABASE_URL: z.string().url().optional(),
  /**
   * a read replica (docs/OPERATIONS.md): analytics, exports and the assignment's explanation read
   * from it; unset: they read from DATABASE_URL. PostgreSQL only.
   */
  DATABASE_READ_URL: z.string().url().optional(),
  /**
   * connections of each of this process's PostgreSQL pools (docs/OPERATIONS.md): the primary's,
   * and the replica's when DATABASE_READ_URL is set
   */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(500).default(10),
  /**
   * what this process runs (docs/OPERATIONS.md): all (HTTP and the background work), web (HTTP
   * only), worker (the job queue's workers, the schedule and the sweepers; /api/health only)
   */
  PROCESS_ROLE: z.enum(['all', 'web', 'worker']).default('all'),
  /** the bearer token GET /metrics asks for; unset: /metrics is not served (404) */
  METRICS_TOKEN: z.string().min(16, 'use at least 16 characters').optional(),
  /** on SIGTERM: how long requests in flight and running jobs get to finish */
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).default(10_000),
  /**
   * how far V8 lets the old generation grow past what its last full collection kept, in percent
   * (docs/decisions/050-heap-growth-bounded.md); 0 leaves it to V8's own heuristics
   */
  HEAP_GROWING_PERCENT: z.coerce.number().int().min(0).max(1000).default(100),
  DATA_DIR: z.string().min(1).default('./data'),
  ADMIN_EMAIL: z.email().optional(),
  ADMIN_PASSWORD: z
    .string()
    .optional()
    .superRefine((password, ctx) => {
      const problem = password === undefined ? null : passwordProblem(password);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }),
  BUSINESS_TZ: z
    .string()
    .default('America/New_York')
    .refine((tz) => {
      try {
        new Intl.DateTimeFormat('en-US', { timeZone: tz });
        return true;
      } catch {
        return false;
      }
    }, 'unknown time zone'),
  ASSIGNMENT_SCHEDULE: z.string().min(1).default('0 8 * * *'),
  ASSIGN_ON_IMPORT: bool.default(true),
  COOKIE_SECURE: bool.optional(),
  /** admins must turn two factors on before anything else (docs/domain.md, Accounts) */
  REQUIRE_2FA_FOR_ADMINS: bool.optional(),
  /** leads received more than this many days ago are anonymized, daily; unset: kept (docs/domain.md, Consumer deletion and retention) */
  LEAD_RETENTION_DAYS: z.coerce.number().int().min(1).max(36_500).optional(),
  ENROLLMENT_WINDOWS: z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (!raw) return DEFAULT_WINDOWS;
      try {
        return enrollmentWindows.parse(JSON.parse(raw));
      } catch {
        ctx.addIssue({
          code: 'custom',
          message: 'must be JSON like {"MEDICARE":{"start":"10-15","end":"12-07"}}',
        });
        return z.NEVER;
      }
    }),
  MAX_UPLOAD_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(512 * 1024 * 1024),
  SESSION_IDLE_MINUTES: z.coerce
    .number()
    .int()
    .positive()
    .default(60 * 24),
  SESSION_ABSOLUTE_DAYS: z.coerce.number().int().positive().default(14),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('warn'),
  SCHEDULER: bool.default(true),
  TRUST_PROXY: trustProxy,
  ALLOWED_HOSTS: allowedHosts,
  // whole request (headers and body, an upload included) / headers alone / a JSON body after
  // its headers / a connection with no traffic: see SECURITY.md
  REQUEST_TIMEOUT_MS: milliseconds(10 * 60_000),
  HEADERS_TIMEOUT_MS: milliseconds(15_000),
  BODY_TIMEOUT_MS: milliseconds(10_000),
  CONNECTION_TIMEOUT_MS: milliseconds(2 * 60_000),
  REGISTRATIONS_PER_ADDRESS: z.coerce.number().int().positive().default(30),
  REGISTRATIONS_TOTAL: z.coerce.number().int().positive().default(300),
  /** who may sign up (docs/domain.md, Accounts): open, approval (an admin approves), invite */
  REGISTRATION: z.enum(REGISTRATION_MODES).default('open'),
  // live event streams open at once in one process: from one client address (IPv6: one /64), in all
  LIVE_STREAMS_PER_ADDRESS: z.coerce.number().int().positive().default(100),
  LIVE_STREAMS_TOTAL: z.coerce.number().int().positive().default(2000),
  // delivery (docs/domain.md, Delivery of assigned leads): links in emails and the providers' callbacks go to PUBLIC_URL
  PUBLIC_URL: z.url().optional(),
  /** smtp://user:pass@host:port or smtps://...; unset: the email channel is "not configured" */
  SMTP_URL: z.url().optional(),
  MAIL_FROM: z.string().min(3).default('LeadFlow <leads@leadflow.local>'),
  /** allow CRM endpoints on private, loopback and link-local addresses (tests, private networks) */
  WEBHOOK_ALLOW_PRIVATE: bool.default(false),
  /**
   * the server's VAPID key pair for push (docs/domain.md, Alerts to the agent's phone), base64url
   * as web-push makes them; unset: a pair is made at first start and kept in the database
   */
  VAPID_PUBLIC_KEY: z
    .string()
    .regex(/^[A-Za-z0-9_-]{87}$/, 'must be a base64url P-256 public key (65 bytes)')
    .optional(),
  VAPID_PRIVATE_KEY: z
    .string()
    .regex(/^[A-Za-z0-9_-]{43}$/, 'must be a base64url P-256 private key (32 bytes)')
    .optional(),
  /** CRM webhook connections open at once in one process (deliveries and test events) */
  WEBHOOK_MAX_CONNECTIONS: z.coerce.number().int().positive().default(64),
  /** test events ("Send test") an agent may send per minute */
  WEBHOOK_TESTS_PER_MINUTE: z.coerce.number().int().positive().default(5),
  // Stripe Billing (docs/domain.md, Billing): on when both keys are set; STRIPE_API_BASE points the SDK at a
  // stand-in of Stripe's API (tests only)
  STRIPE_SECRET_KEY: z.string().min(1).optional(),
  STRIPE_WEBHOOK_SECRET: z.string().min(1).optional(),
  STRIPE_API_BASE: z.url().optional(),
  // Follow-up messages and calls (docs/domain.md, Follow-up messages and calls): on when the three are set; TWILIO_API_BASE points
  // the SDK at a stand-in of Twilio's REST API (tests only)
  TWILIO_ACCOUNT_SID: z.string().min(1).optional(),
  TWILIO_AUTH_TOKEN: z.string().min(1).optional(),
  TWILIO_FROM_NUMBER: z.string().min(1).optional(),
  TWILIO_API_BASE: z.url().optional(),
  // consent verified at intake (docs/domain.md, Consent verified at intake): TrustedForm's
  // Certificate API key for the sources that require it; TRUSTEDFORM_API_BASE points the client at
  // a stand-in of TrustedForm (tests only); SELLER_NAME, the name a MEDICARE lead's consent text
  // must carry (one-to-one consent)
  TRUSTEDFORM_API_KEY: z.string().min(1).optional(),
  TRUSTEDFORM_API_BASE: z.url().optional(),
  SELLER_NAME: z.string().trim().min(1).max(200).optional(),
  // click-to-call and the agent's phone (docs/domain.md, Follow-up messages and calls)
  SERVED_COUNTRIES: z
    .string()
    .default('US,PR')
    .transform((raw) =>
      raw
        .split(',')
        .map((c) => c.trim().toUpperCase())
        .filter(Boolean),
    )
    .pipe(z.array(z.string().regex(/^[A-Z]{2}$/, 'must be ISO country codes like US,PR')).min(1)),
  CALLS_PER_AGENT_PER_HOUR: z.coerce.number().int().min(1).max(1000).default(20),
  CALLS_PER_LEAD_PER_DAY: z.coerce.number().int().min(1).max(100).default(3),
  RECORDINGS_PER_USER_PER_MINUTE: z.coerce.number().int().min(1).max(10_000).default(30),
  // lead quality (docs/domain.md, Lead quality)
  DUPLICATE_WINDOW_DAYS: z.coerce.number().int().min(0).max(3650).default(30),
  RETURN_WINDOW_DAYS: z.coerce.number().int().min(0).max(365).default(7),
});

export type AppConfig = Omit<
  z.infer<typeof envSchema>,
  'COOKIE_SECURE' | 'ALLOWED_HOSTS' | 'PUBLIC_URL' | 'REQUIRE_2FA_FOR_ADMINS'
> & {
  COOKIE_SECURE: boolean;
  REQUIRE_2FA_FOR_ADMINS: boolean;
  ALLOWED_HOSTS: string[];
  /** where the portal is reached from outside, without a trailing slash */
  PUBLIC_URL: string;
};

/**
 * The Host names served when ALLOWED_HOSTS is unset: the configured HOST and the loopback names,
 * with the port. In development the loopback names are also served on any port, for the Vite dev
 * server's proxy, which forwards the browser's Host (a DNS-rebinding page cannot send those names).
 */
export function defaultAllowedHosts(host: string, port: number, nodeEnv: string): string[] {
  const named = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  const loopback = ['127.0.0.1', 'localhost', '[::1]'];
  const names = [...new Set([named.toLowerCase(), ...loopback])].map((name) => `${name}:${port}`);
  return nodeEnv === 'development' ? [...names, ...loopback] : names;
}

function hostForUrl(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

/** The only reader of process.env: validates and fails fast with every problem listed. */
export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  overrides: Partial<AppConfig> = {},
): AppConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const cfg = parsed.data;
  if (cfg.HEADERS_TIMEOUT_MS > cfg.REQUEST_TIMEOUT_MS) {
    throw new Error(
      'Invalid configuration:\n  HEADERS_TIMEOUT_MS: must not be longer than REQUEST_TIMEOUT_MS',
    );
  }
  if (cfg.DATABASE_READ_URL && !cfg.DATABASE_URL) {
    throw new Error(
      'Invalid configuration:\n  DATABASE_READ_URL: needs DATABASE_URL (a replica of PostgreSQL)',
    );
  }
  if (Boolean(cfg.VAPID_PUBLIC_KEY) !== Boolean(cfg.VAPID_PRIVATE_KEY)) {
    throw new Error(
      'Invalid configuration:\n  VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY: set both or neither',
    );
  }
  return {
    ...cfg,
    COOKIE_SECURE: cfg.COOKIE_SECURE ?? cfg.NODE_ENV === 'production',
    REQUIRE_2FA_FOR_ADMINS: cfg.REQUIRE_2FA_FOR_ADMINS ?? cfg.NODE_ENV === 'production',
    ALLOWED_HOSTS: cfg.ALLOWED_HOSTS ?? defaultAllowedHosts(cfg.HOST, cfg.PORT, cfg.NODE_ENV),
    PUBLIC_URL: (cfg.PUBLIC_URL ?? `http://${hostForUrl(cfg.HOST)}:${cfg.PORT}`).replace(
      /\/+$/,
      '',
    ),
    ...overrides,
  };
}
