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
}

/** 5 s, 30 s, 2 min, 5 min, 15 min, 30 min, 1 h, 2 h: nine attempts over about 4 hours. */
export const DEFAULT_RUNTIME: DeliveryRuntime = {
  webhookTimeoutMs: 10_000,
  retryDelaysMs: [5, 30, 120, 300, 900, 1800, 3600, 7200].map((s) => s * 1000),
  failureLimit: 20,
  sweepGraceSeconds: 300,
};
