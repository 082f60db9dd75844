/** The part of autocannon 8's programmatic API the benches use (the package ships no types). */
declare module 'autocannon' {
  interface Histogram {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    total: number;
    totalCount: number;
    p50: number;
    p90: number;
    p97_5: number;
    p99: number;
    p99_9: number;
  }

  export interface Result {
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    '2xx': number;
    latency: Histogram;
    requests: Histogram;
    throughput: Histogram;
    statusCodeStats: Record<string, { count: number }>;
  }

  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    method?: string;
    headers?: Record<string, string>;
    timeout?: number;
    /** stop after this many requests (instead of a duration) */
    amount?: number;
    body?: string;
    /** a request sequence; setupRequest may change each request before it is sent */
    requests?: {
      setupRequest?: (req: Record<string, unknown>) => Record<string, unknown>;
    }[];
  }

  /** a run under way: told of each answer (`response`) */
  interface Instance {
    on(event: 'response', listener: () => void): Instance;
  }

  function autocannon(opts: Options): Promise<Result>;
  function autocannon(opts: Options, done: (err: Error | null, result: Result) => void): Instance;
  export default autocannon;
}
