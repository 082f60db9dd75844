import { AppError } from '../../lib/app-error';
import { clientKey } from '../../lib/client-address';
import {
  type AttemptWindows,
  type Limit,
  memoryWindows,
  type WindowsFactory,
} from './fixed-windows';

/**
 * Failed-login limits, in a fixed window opened by the first attempt, kept where `windows` keeps
 * them: the app's are in the database, shared by every process (decision 039):
 * - perAccountAddress: wrong passwords for one account from one client address. Reaching it locks
 *   that account for that address only, so someone guessing from elsewhere cannot lock the owner
 *   out: the right password from another address still signs in.
 * - perAccount: wrong passwords for one account from all addresses together, the cap on a guesser
 *   that spreads over many addresses; reaching it locks the account for everyone.
 * - perIp: wrong passwords from one client address over all accounts (password spraying).
 */
export interface ThrottleLimits {
  perAccountAddress: number;
  perAccount: number;
  perIp: number;
  windowMs: number;
}

export const DEFAULT_LIMITS: ThrottleLimits = {
  perAccountAddress: 5,
  perAccount: 50,
  perIp: 30,
  windowMs: 15 * 60_000,
};

/** The lockout's answer, saying how long: "Try again in 14 minutes." (429 with Retry-After). */
export function tooManyFailedAttempts(waitMs: number): AppError {
  const minutes = Math.max(1, Math.ceil(waitMs / 60_000));
  return new AppError(
    'TOO_MANY_REQUESTS',
    `Too many failed attempts. Try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`,
    { 'retry-after': String(Math.ceil(waitMs / 1000)) },
  );
}

export class LoginThrottle {
  private readonly windows: AttemptWindows;

  constructor(
    private readonly limits: ThrottleLimits = DEFAULT_LIMITS,
    windows: WindowsFactory = memoryWindows,
  ) {
    this.windows = windows(limits.windowMs);
  }

  private keys(email: string, ip: string): Limit[] {
    const address = clientKey(ip);
    return [
      { key: `p:${email} ${address}`, max: this.limits.perAccountAddress },
      { key: `a:${email}`, max: this.limits.perAccount },
      { key: `i:${address}`, max: this.limits.perIp },
    ];
  }

  /**
   * Checks the limits and, when the attempt is allowed, counts it as a failure at once, before
   * the password is checked: concurrent attempts cannot all pass through the same free slot
   * (50 parallel guesses would otherwise all be checked). A success gives the slot back.
   * Answers the milliseconds to wait (the attempt is not counted), or 0 when allowed.
   */
  reserve(email: string, ip: string, now = Date.now()): Promise<number> {
    return this.windows.take(this.keys(email, ip), now);
  }

  /**
   * The right password: this address's failures on the account are forgiven, and the account
   * and the address get back the slot reserve() took. Failures from other addresses stay counted.
   */
  async recordSuccess(email: string, ip: string, now = Date.now()): Promise<void> {
    const [pair, ...rest] = this.keys(email, ip);
    await this.windows.forget(pair.key);
    await this.windows.giveBack(
      rest.map((l) => l.key),
      now,
    );
  }

  /** The password was never checked (the server was too busy): the attempt does not count. */
  release(email: string, ip: string, now = Date.now()): Promise<void> {
    return this.windows.giveBack(
      this.keys(email, ip).map((l) => l.key),
      now,
    );
  }
}

/**
 * Registrations tried per client address and in all, in a fixed window. Every attempt that gets
 * past validation counts, a taken email's 409 included: asking "is this email registered?" this
 * way is no faster than a login attempt (the per-address limits match).
 */
export class RegistrationThrottle {
  private readonly windows: AttemptWindows;

  constructor(
    private readonly limits: { perAddress: number; total: number; windowMs: number },
    windows: WindowsFactory = memoryWindows,
  ) {
    this.windows = windows(limits.windowMs);
  }

  private keys(ip: string): Limit[] {
    return [
      { key: `r:${clientKey(ip)}`, max: this.limits.perAddress },
      { key: 'r:*', max: this.limits.total },
    ];
  }

  /** Counts the attempt, or answers the milliseconds to wait (nothing counted). */
  reserve(ip: string, now = Date.now()): Promise<number> {
    return this.windows.take(this.keys(ip), now);
  }

  /** The attempt was never carried out (the server was too busy): it does not count. */
  release(ip: string, now = Date.now()): Promise<void> {
    return this.windows.giveBack(
      this.keys(ip).map((l) => l.key),
      now,
    );
  }
}

/**
 * Password reset requests ("Forgot password?") per client address and per email, in a fixed
 * window, like registrations: an unknown email counts as a known one, so the limit tells nothing.
 */
export class ResetRequestThrottle {
  private readonly windows: AttemptWindows;

  constructor(
    windows: WindowsFactory = memoryWindows,
    private readonly limits: { perAddress: number; perEmail: number; windowMs: number } = {
      perAddress: 30,
      perEmail: 5,
      windowMs: 15 * 60_000,
    },
  ) {
    this.windows = windows(limits.windowMs);
  }

  /** Counts the request, or answers the milliseconds to wait (nothing counted). */
  reserve(email: string, ip: string, now = Date.now()): Promise<number> {
    return this.windows.take(
      [
        { key: `f:${clientKey(ip)}`, max: this.limits.perAddress },
        { key: `e:${email}`, max: this.limits.perEmail },
      ],
      now,
    );
  }
}
