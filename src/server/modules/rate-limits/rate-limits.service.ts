/**
 * Limits that hold across processes (SECURITY.md): a count per key and fixed window in the
 * database, so every process behind a load balancer counts against the same budget. For what is
 * rare and costly (a recording fetched from the phone provider, a code sent by SMS), where a
 * statement per request is cheap next to the work it guards.
 */
import type { Db } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { countHit, currentHits } from './rate-counters.repository';
import {
  countAttempt,
  deleteEndedWindows,
  forgetWindow,
  type Limit,
  uncountAttempt,
} from './throttle-windows.repository';

export type { Limit } from './throttle-windows.repository';

export interface RateLimit {
  /** hits allowed per window */
  limit: number;
  windowSeconds: number;
}

/**
 * Counts a hit of `key`; past the limit, 429 with Retry-After (the seconds left in the window)
 * and `message`. A refused hit still counts, so hammering does not open the next window early.
 */
export async function takeHit(db: Db, key: string, rule: RateLimit, message: string) {
  const { hits, secondsLeft } = await countHit(db, key, rule.windowSeconds);
  if (hits > rule.limit) {
    throw new AppError('TOO_MANY_REQUESTS', message, { 'retry-after': String(secondsLeft) });
  }
}

/**
 * 429 (with `message`) when `key` has already used up this window's hits, without counting one:
 * for limits that count failures only, checked before the work they guard.
 */
export async function refuseWhenSpent(db: Db, key: string, rule: RateLimit, message: string) {
  if ((await currentHits(db, key, rule.windowSeconds)) >= rule.limit) {
    // the seconds left in the window (windows start at multiples of its length since the epoch)
    const left = rule.windowSeconds - (Math.floor(Date.now() / 1000) % rule.windowSeconds);
    throw new AppError('TOO_MANY_REQUESTS', message, { 'retry-after': String(Math.max(1, left)) });
  }
}

/**
 * Attempt windows kept in the database (decision 039), opened by a key's first attempt and
 * `windowMs` long: the login, registration and password-reset throttles, which must hold across
 * every process behind the load balancer.
 */
export class DatabaseWindows {
  constructor(
    private readonly db: Db,
    readonly windowMs: number,
  ) {}

  /**
   * Counts one attempt against every key when each has room: answers 0, or the milliseconds to
   * wait (nothing counted). Counted first and given back when over, so that concurrent attempts
   * in any process cannot all pass through the same free slot.
   */
  async take(limits: readonly Limit[]): Promise<number> {
    const counted = await countAttempt(this.db, limits, this.windowMs);
    const over = counted.filter((c) => c.hits > c.max);
    if (over.length === 0) return 0;
    await uncountAttempt(
      this.db,
      counted.map((c) => c.key),
    );
    return Math.max(1, ...over.map((c) => c.msLeft));
  }

  /** Gives back one attempt taken from each key. */
  giveBack(keys: readonly string[]): Promise<void> {
    return uncountAttempt(this.db, keys);
  }

  forget(key: string): Promise<void> {
    return forgetWindow(this.db, key);
  }
}

/** Deletes the attempt windows that ended (the sweeper's, in the worker processes). */
export function sweepEndedWindows(db: Db): Promise<number> {
  return deleteEndedWindows(db);
}
