/** PostgreSQL helpers for the benches: throwaway databases and psql runs. */
import { spawn } from 'node:child_process';
import pg from 'pg';

/** The server the benches use (a superuser: CREATE/DROP DATABASE, CHECKPOINT). */
export const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432';

export function databaseUrl(name: string): string {
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export const keepDatabases = () => process.env.BENCH_KEEP === '1';

/** Drops (if present) and creates an empty database; answers its URL. */
export async function recreateDatabase(name: string): Promise<string> {
  await withClient(databaseUrl('postgres'), async (client) => {
    await client.query(`drop database if exists "${name}" with (force)`);
    await client.query(`create database "${name}"`);
  });
  return databaseUrl(name);
}

export async function dropDatabase(name: string): Promise<void> {
  if (keepDatabases()) return;
  await withClient(databaseUrl('postgres'), (client) =>
    client.query(`drop database if exists "${name}" with (force)`),
  );
}

export async function query<T extends pg.QueryResultRow = pg.QueryResultRow>(
  url: string,
  text: string,
  values?: unknown[],
): Promise<T[]> {
  return withClient(url, async (client) => (await client.query<T>(text, values)).rows);
}

/** Runs psql with one command; answers its wall time in ms (throws on failure). */
export function psql(url: string, command: string): Promise<{ ms: number; output: string }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn('psql', [url, '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-c', command], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (c) => (output += c));
    child.stderr.on('data', (c) => (output += c));
    child.on('error', reject);
    child.on('exit', (code) => {
      const ms = performance.now() - started;
      if (code === 0) resolve({ ms, output });
      else reject(new Error(`psql ${command.slice(0, 80)}: exit ${code}\n${output}`));
    });
  });
}

/** The settings that shape write and query speed, for the report. */
export async function serverSettings(url: string): Promise<string> {
  const rows = await query<{ name: string; setting: string }>(
    url,
    `select name, current_setting(name) as setting from pg_settings
     where name in ('server_version', 'shared_buffers', 'work_mem', 'synchronous_commit',
                    'max_wal_size', 'jit')
     order by name`,
  );
  return rows.map((r) => `${r.name}=${r.setting}`).join(', ');
}

export interface ActivityProfile {
  samples: number;
  /** mean number of the database's client backends running a statement at a sample */
  meanActive: number;
  /** share of samples in which at least one backend ran a statement */
  busyShare: number;
  /** statements seen running, by share of (backend, sample) pairs; with wait events */
  top: { query: string; share: number; waits: string }[];
  /** CPU seconds the database's client backends used while sampled */
  backendCpuS: number;
}

/**
 * Samples pg_stat_activity of one database on a timer: what the database is busy with, and how
 * much, while a workload runs (a poor man's profiler that needs no server configuration).
 */
export class PgActivitySampler {
  private client: pg.Client | null = null;
  private timer: NodeJS.Timeout | null = null;
  private busy = false;
  private samples = 0;
  private activeTotal = 0;
  private busySamples = 0;
  private byQuery = new Map<string, { n: number; waits: Map<string, number> }>();
  private cpuAtFirstSight = new Map<number, number>();

  constructor(
    private readonly url: string,
    private readonly database: string,
    private readonly intervalMs = 100,
    private readonly cpuOf: (pid: number) => number = () => 0,
  ) {}

  async start(): Promise<this> {
    this.client = new pg.Client({ connectionString: this.url });
    await this.client.connect();
    this.timer = setInterval(() => void this.sample(), this.intervalMs);
    return this;
  }

  private async sample(): Promise<void> {
    if (this.busy || !this.client) return;
    this.busy = true;
    try {
      const { rows } = await this.client.query<{
        pid: number;
        state: string | null;
        wait: string | null;
        query: string;
      }>(
        `select pid, state, wait_event_type || ':' || wait_event as wait,
                left(regexp_replace(query, '\\s+', ' ', 'g'), 160) as query
         from pg_stat_activity
         where datname = $1 and backend_type = 'client backend' and pid <> pg_backend_pid()`,
        [this.database],
      );
      this.samples++;
      let active = 0;
      for (const row of rows) {
        if (!this.cpuAtFirstSight.has(row.pid))
          this.cpuAtFirstSight.set(row.pid, this.cpuOf(row.pid));
        if (row.state !== 'active') continue;
        active++;
        const entry = this.byQuery.get(row.query) ?? { n: 0, waits: new Map() };
        entry.n++;
        const wait = row.wait ?? 'CPU';
        entry.waits.set(wait, (entry.waits.get(wait) ?? 0) + 1);
        this.byQuery.set(row.query, entry);
      }
      this.activeTotal += active;
      if (active > 0) this.busySamples++;
    } catch {
      // a failed sample is skipped
    } finally {
      this.busy = false;
    }
  }

  async stop(): Promise<ActivityProfile> {
    if (this.timer) clearInterval(this.timer);
    while (this.busy) await new Promise((r) => setTimeout(r, 5));
    await this.client?.end();
    this.client = null;
    let backendCpuS = 0;
    for (const [pid, first] of this.cpuAtFirstSight) backendCpuS += this.cpuOf(pid) - first;
    const pairs = Math.max(1, this.activeTotal);
    const top = [...this.byQuery.entries()]
      .sort((a, b) => b[1].n - a[1].n)
      .slice(0, 5)
      .map(([query, e]) => ({
        query,
        share: Math.round((e.n / pairs) * 100) / 100,
        waits: [...e.waits.entries()]
          .sort((a, b) => b[1] - a[1])
          .slice(0, 3)
          .map(([w, n]) => `${w} ${Math.round((n / e.n) * 100)}%`)
          .join(', '),
      }));
    return {
      samples: this.samples,
      meanActive: Math.round((this.activeTotal / Math.max(1, this.samples)) * 100) / 100,
      busyShare: Math.round((this.busySamples / Math.max(1, this.samples)) * 100) / 100,
      top,
      backendCpuS: Math.round(backendCpuS * 10) / 10,
    };
  }
}

/**
 * Waits until no session of the database has run a statement (or held a transaction open) for
 * `quietMs`: work the server defers to the background (index catch-ups) is done. Answers the ms
 * waited; throws after `timeoutMs`.
 */
export async function waitDatabaseQuiet(
  database: string,
  opts: { quietMs?: number; timeoutMs?: number } = {},
): Promise<number> {
  const quietMs = opts.quietMs ?? 2000;
  const started = Date.now();
  const client = new pg.Client({ connectionString: databaseUrl('postgres') });
  await client.connect();
  try {
    let quietSince = Date.now();
    for (;;) {
      const { rows } = await client.query<{ n: number }>(
        `select count(*)::int as n from pg_stat_activity
         where datname = $1 and pid <> pg_backend_pid()
           and state in ('active', 'idle in transaction')`,
        [database],
      );
      const now = Date.now();
      if (rows[0].n > 0) quietSince = now;
      else if (now - quietSince >= quietMs) return now - started - quietMs;
      if (now - started > (opts.timeoutMs ?? 30 * 60_000)) {
        throw new Error(`database ${database} still busy after ${now - started} ms`);
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  } finally {
    await client.end();
  }
}
