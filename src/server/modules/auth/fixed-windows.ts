/** A counter and the end of its window. */
interface Window {
  count: number;
  resetAt: number;
}

export interface Limit {
  key: string;
  max: number;
}

/**
 * Where a throttle keeps its attempt windows: in the database for the app (every process counts
 * together, decision 039: rate-limits' DatabaseWindows), in memory for the throttles' unit tests.
 * `now` is the memory's clock; the database keeps its own.
 */
export interface AttemptWindows {
  /** Counts one attempt against every key when each has room: 0, or the milliseconds to wait. */
  take(limits: readonly Limit[], now?: number): Promise<number>;
  /** Gives back one attempt taken from each key. */
  giveBack(keys: readonly string[], now?: number): Promise<void>;
  /** Forgets a key's window. */
  forget(key: string): Promise<void>;
}

/** Opens the attempt windows of one throttle, `windowMs` long each. */
export type WindowsFactory = (windowMs: number) => AttemptWindows;

/** Attempt windows in this process's memory (unit tests): see AttemptWindows. */
export const memoryWindows: WindowsFactory = (windowMs) => {
  const windows = new FixedWindows(windowMs);
  return {
    take: async (limits, now) => windows.take(limits, now),
    giveBack: async (keys, now) => windows.giveBack(keys, now),
    forget: async (key) => windows.forget(key),
  };
};

/**
 * Attempt counters in fixed windows, kept in process memory: each key counts up to its limit
 * within `windowMs` of its first attempt.
 */
export class FixedWindows {
  private readonly windows = new Map<string, Window>();

  constructor(private readonly windowMs: number) {}

  /** Milliseconds until every limit has room again, or 0 when each has room now. */
  wait(limits: readonly Limit[], now = Date.now()): number {
    let wait = 0;
    for (const { key, max } of limits) {
      const w = this.get(key, now);
      if (w && w.count >= max) wait = Math.max(wait, w.resetAt - now);
    }
    return wait;
  }

  /**
   * Counts one attempt against every key at once when each has room, so that concurrent attempts
   * cannot all pass through the same free slot. Answers the milliseconds to wait (nothing counted)
   * or 0 (counted).
   */
  take(limits: readonly Limit[], now = Date.now()): number {
    const wait = this.wait(limits, now);
    if (wait > 0) return wait;
    for (const { key } of limits) {
      const w = this.get(key, now) ?? { count: 0, resetAt: now + this.windowMs };
      w.count += 1;
      this.windows.set(key, w);
    }
    if (this.windows.size > 100_000) this.sweep(now);
    return 0;
  }

  /** Gives back one attempt taken from each key. */
  giveBack(keys: readonly string[], now = Date.now()): void {
    for (const key of keys) {
      const w = this.get(key, now);
      if (w && w.count > 0) w.count -= 1;
    }
  }

  forget(key: string): void {
    this.windows.delete(key);
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
