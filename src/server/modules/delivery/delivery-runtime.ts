/** The timings of delivery; tests shorten them. */
export interface DeliveryRuntime {
  /** the webhook's time limit */
  webhookTimeoutMs: number;
  /** the waits before the 2nd, 3rd... attempt; after the last, a retryable failure is final */
  retryDelaysMs: number[];
  /** failed webhook attempts in a row that switch the endpoint off */
  failureLimit: number;
  /** a PENDING delivery with no job this long is enqueued again by the sweeper */
  sweepGraceSeconds: number;
  /**
   * a worker's claim on deliveries (decision 040): renewed every quarter of it while the worker
   * lives, taken over by another process once it lapsed. At least 4/3 of the webhook's time limit
   * and a second: a send starts only with its time limit (and a second) left on the claim
   */
  leaseSeconds: number;
}

/** 5 s, 30 s, 2 min, 5 min, 15 min, 30 min, 1 h, 2 h: nine attempts over about 4 hours. */
export const DEFAULT_RUNTIME: DeliveryRuntime = {
  webhookTimeoutMs: 10_000,
  retryDelaysMs: [5, 30, 120, 300, 900, 1800, 3600, 7200].map((s) => s * 1000),
  failureLimit: 20,
  sweepGraceSeconds: 300,
  // renewed every 5 s; a dead worker's claims are taken over 20-25 s after its last renewal
  leaseSeconds: 20,
};
