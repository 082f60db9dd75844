/**
 * autocannon 8 (which ships no types) with the types of the part the load test uses. Loaded with
 * require and typed here rather than by an ambient `declare module`, so it does not merge with the
 * benches' own declaration (bench/lib/autocannon.d.ts).
 */
import { createRequire } from 'node:module';
export interface AutocannonRequest {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  setupRequest?: (
    request: AutocannonRequest,
    context: Record<string, unknown>,
  ) => AutocannonRequest | null | undefined;
}

export interface Histogram {
  average: number;
  mean: number;
  stddev: number;
  min: number;
  max: number;
  total: number;
  p50: number;
  p90: number;
  p99: number;
  p999?: number;
}

export interface AutocannonResult {
  title?: string;
  url: string;
  duration: number;
  connections: number;
  latency: Histogram;
  requests: Histogram & { sent: number };
  throughput: Histogram;
  errors: number;
  timeouts: number;
  mismatches: number;
  non2xx: number;
  resets: number;
  '1xx': number;
  '2xx': number;
  '3xx': number;
  '4xx': number;
  '5xx': number;
  statusCodeStats: Record<string, { count: number }>;
}

export interface AutocannonOptions {
  url: string;
  title?: string;
  connections?: number;
  duration?: number;
  timeout?: number;
  pipelining?: number;
  headers?: Record<string, string>;
  requests?: AutocannonRequest[];
}

export interface AutocannonInstance extends PromiseLike<AutocannonResult> {
  stop(): void;
  on(event: 'reqError', listener: (err: Error) => void): this;
  on(event: 'response', listener: (client: unknown, statusCode: number) => void): this;
  on(event: string, listener: (...args: unknown[]) => void): this;
}

export const autocannon = createRequire(import.meta.url)('autocannon') as (
  opts: AutocannonOptions,
) => AutocannonInstance;
