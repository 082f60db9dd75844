/**
 * Failed-login counters per account and per IP, in a fixed window. Kept in process memory:
 * see docs/decisions/002-login-throttle.md for why that is enough here.
 */
export interface ThrottleLimits {
  perAccount: number;
  perIp: number;
  windowMs: number;
}

export const DEFAULT_LIMITS: ThrottleLimits = { perAccount: 5, perIp: 30, windowMs: 15 * 60_000 };

interface Window {
  count: number;
  resetAt: number;
}

export class LoginThrottle {
  private readonly windows = new Map<string, Window>();

  constructor(private readonly limits: ThrottleLimits = DEFAULT_LIMITS) {}

  /** Milliseconds until the caller may try again, or 0 when allowed. */
  retryAfter(email: string, ip: string, now = Date.now()): number {
    const account = this.get(`a:${email}`, now);
    const addr = this.get(`i:${ip}`, now);
    const waits = [];
    if (account && account.count >= this.limits.perAccount) waits.push(account.resetAt - now);
    if (addr && addr.count >= this.limits.perIp) waits.push(addr.resetAt - now);
    return waits.length ? Math.max(...waits) : 0;
  }

  /**
   * Checks the limits and, when the attempt is allowed, counts it as a failure at once, before
   * the password is checked: concurrent attempts cannot all pass through the same free slot
   * (50 parallel guesses would otherwise all be checked). A success gives the slot back.
   * Answers the milliseconds to wait (the attempt is not counted), or 0 when allowed.
   */
  reserve(email: string, ip: string, now = Date.now()): number {
    const wait = this.retryAfter(email, ip, now);
    if (wait === 0) this.recordFailure(email, ip, now);
    return wait;
  }

  recordFailure(email: string, ip: string, now = Date.now()): void {
    for (const key of [`a:${email}`, `i:${ip}`]) {
      const w = this.get(key, now) ?? { count: 0, resetAt: now + this.limits.windowMs };
      w.count += 1;
      this.windows.set(key, w);
    }
    if (this.windows.size > 100_000) this.sweep(now);
  }

  /** The account's failures are forgiven; the address gets back the slot reserve() took. */
  recordSuccess(email: string, ip: string, now = Date.now()): void {
    this.windows.delete(`a:${email}`);
    const addr = this.get(`i:${ip}`, now);
    if (addr && addr.count > 0) addr.count -= 1;
  }

  private get(key: string, now: number): Window | undefined {
    const w = this.windows.get(key);
    if (w && w.resetAt <= now) {
      this.windows.delete(key);
      return undefined;
    }
    return w;
  }

  private sweep(now: number): void {
    for (const [key, w] of this.windows) if (w.resetAt <= now) this.windows.delete(key);
  }
}
