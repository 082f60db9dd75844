/**
 * The process's metrics for GET /metrics (Prometheus text, docs/OPERATIONS.md): one registry per
 * process, counted where the things happen (the intake, the engine, the deliveries, first
 * contacts) and read at scrape time where they are states (the queue, the pools: collect()).
 * Counters are the process's own since it started; Prometheus sums them over the processes.
 */
import client from 'prom-client';

export const registry = new client.Registry();
// the process's CPU, memory, handles and the event loop's delay (nodejs_eventloop_lag_*)
client.collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 20 });

const SECONDS_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export const httpDuration = new client.Histogram({
  name: 'leadflow_http_request_duration_seconds',
  help: 'Time to answer an HTTP request, by route (its pattern) and status',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: SECONDS_BUCKETS,
  registers: [registry],
});

export const leadsReceived = new client.Counter({
  name: 'leadflow_leads_received_total',
  help: 'Leads posted to the intake, by source id and outcome (accepted, duplicate, invalid, refused)',
  labelNames: ['source', 'outcome'] as const,
  registers: [registry],
});

export const leadsAssigned = new client.Counter({
  name: 'leadflow_leads_assigned_total',
  help: 'Leads given to agents, by trigger (the run triggers SCHEDULE, MANUAL, IMPORT...; INTAKE)',
  labelNames: ['trigger'] as const,
  registers: [registry],
});

export const intakePicks = new client.Counter({
  name: 'leadflow_intake_picks_total',
  help: "The intake's picks of an agent, by where the fit was asked (memory: the process's copy of the agents; database: the fit rule's SQL, while that copy is being read again)",
  labelNames: ['by'] as const,
  registers: [registry],
});

export const speedToLead = new client.Histogram({
  name: 'leadflow_speed_to_lead_seconds',
  help: "Time from a lead's assignment to the agent's first contact",
  buckets: [30, 60, 120, 300, 600, 1800, 3600, 4 * 3600, 24 * 3600, 3 * 24 * 3600],
  registers: [registry],
});

export const deliveryAttempts = new client.Counter({
  name: 'leadflow_delivery_attempts_total',
  help: 'Delivery attempts, by channel (EMAIL, WEBHOOK) and outcome (the attempt status)',
  labelNames: ['channel', 'outcome'] as const,
  registers: [registry],
});

export const deliveryLag = new client.Histogram({
  name: 'leadflow_delivery_lag_seconds',
  help: "Time from a lead's assignment to its successful delivery, by channel",
  labelNames: ['channel'] as const,
  buckets: [0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 300, 1800, 3600],
  registers: [registry],
});

export const engineRunSeconds = new client.Histogram({
  name: 'leadflow_engine_run_seconds',
  help: 'Time an assignment run took, by trigger',
  labelNames: ['trigger'] as const,
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
  registers: [registry],
});

/** What the gauges read at scrape time: set by the app that serves /metrics. */
export interface GaugeSources {
  /** per queue: jobs waiting (created or retry) and the oldest one's age in seconds */
  queues(): Promise<{ queue: string; depth: number; oldestSeconds: number }[]>;
  /** per pool (main, read): its size, connections in use and requests waiting for one */
  pools(): { pool: string; size: number; inUse: number; waiting: number }[];
}

let sources: GaugeSources | null = null;

export function setGaugeSources(next: GaugeSources | null): void {
  sources = next;
}

const queueDepth = new client.Gauge({
  name: 'leadflow_queue_depth',
  help: 'Jobs waiting in a queue (created or waiting for a retry)',
  labelNames: ['queue'] as const,
  registers: [registry],
});
const queueAge = new client.Gauge({
  name: 'leadflow_queue_oldest_seconds',
  help: "Age of a queue's oldest waiting job",
  labelNames: ['queue'] as const,
  registers: [registry],
});
/** A gauge of one figure of each of this process's pools (main, read), read at scrape time. */
function poolGauge(
  name: string,
  help: string,
  figure: (p: ReturnType<GaugeSources['pools']>[number]) => number,
) {
  new client.Gauge({
    name,
    help,
    labelNames: ['pool'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const p of sources?.pools() ?? []) this.set({ pool: p.pool }, figure(p));
    },
  });
}
poolGauge(
  'leadflow_db_pool_size',
  "Database connections this process's pool may open (DATABASE_POOL_SIZE), by pool",
  (p) => p.size,
);
poolGauge(
  'leadflow_db_pool_in_use',
  'Database connections of this process in use, by pool (main, read)',
  (p) => p.inUse,
);
poolGauge(
  'leadflow_db_pool_waiting',
  'Requests of this process waiting for a database connection, by pool',
  (p) => p.waiting,
);

/** Reads the queues once per scrape (both queue gauges from one statement). */
export async function collectQueues(): Promise<void> {
  queueDepth.reset();
  queueAge.reset();
  for (const q of (await sources?.queues()) ?? []) {
    queueDepth.set({ queue: q.queue }, q.depth);
    queueAge.set({ queue: q.queue }, q.oldestSeconds);
  }
}
