/**
 * The intake's rate per API key: an in-process token bucket (capacity = one second's rate,
 * refilled continuously). Each app process keeps its own buckets, so N processes let a key
 * through at up to N times the rate; that is the documented trade for no shared state.
 */
export class KeyRateLimiter {
  private readonly buckets = new Map<number, { tokens: number; at: number }>();

  constructor(private readonly perSecond: number) {}

  /** 0 when the request may go ahead, else the seconds to wait (Retry-After). */
  take(keyId: number, now = Date.now()): number {
    const bucket = this.buckets.get(keyId) ?? { tokens: this.perSecond, at: now };
    bucket.tokens = Math.min(
      this.perSecond,
      bucket.tokens + ((now - bucket.at) / 1000) * this.perSecond,
    );
    bucket.at = now;
    this.buckets.set(keyId, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - bucket.tokens) / this.perSecond));
  }
}
