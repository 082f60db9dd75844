/**
 * Limits that hold across processes (SECURITY.md): a count per key and fixed window in the
 * database, so every process behind a load balancer counts against the same budget. For what is
 * rare and costly (a recording fetched from the phone provider, a code sent by SMS), where a
 * statement per request is cheap next to the work it guards.
 */
import type { Db } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { countHit, currentHits } from './rate-counters.repository';

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
