/**
 * The query plans of the statements the server really runs, with their real parameter values:
 * the server is started with auto_explain loaded in its own database sessions (connection-string
 * options; nothing changes for other databases), every statement's EXPLAIN ANALYZE lands in the
 * PostgreSQL log, and we read back the entries of our database. Marker statements from a second
 * session (also explained) tell which request each plan belongs to.
 */
import { accessSync, constants, readFileSync, statSync } from 'node:fs';
import pg from 'pg';

/** Where Debian's PostgreSQL writes its log (logging_collector off): override with BENCH_PG_LOG. */
export const PG_LOG = process.env.BENCH_PG_LOG ?? '/var/log/postgresql/postgresql-15-main.log';

export function withAutoExplain(url: string): string {
  const u = new URL(url);
  u.searchParams.set(
    'options',
    '-c session_preload_libraries=auto_explain -c auto_explain.log_min_duration=0 -c auto_explain.log_analyze=on -c auto_explain.log_buffers=on -c auto_explain.log_nested_statements=on',
  );
  return u.toString();
}

export interface PlanEntry {
  ms: number;
  query: string;
  plan: string[];
}

/** Why plans cannot be read here, or null when they can. */
export function planLogProblem(): string | null {
  try {
    accessSync(PG_LOG, constants.R_OK);
    return null;
  } catch {
    return `${PG_LOG} is not readable (set BENCH_PG_LOG to the PostgreSQL log file)`;
  }
}

export class PlanCapture {
  private offset = 0;
  private marker: pg.Client | null = null;

  constructor(
    private readonly url: string,
    private readonly database: string,
  ) {}

  async start(): Promise<void> {
    this.offset = statSync(PG_LOG).size;
    this.marker = new pg.Client({ connectionString: withAutoExplain(this.url) });
    await this.marker.connect();
  }

  /** Everything explained from now on belongs to `label` (until the next mark). */
  async mark(label: string): Promise<void> {
    await this.marker?.query(`select 'bench_marker=${label.replace(/'/g, '')}' as marker`);
  }

  /** Plans by label, in order; the marker statements themselves left out. */
  async stop(): Promise<Map<string, PlanEntry[]>> {
    await this.mark('(end)');
    await this.marker?.end();
    await new Promise((resolve) => setTimeout(resolve, 500)); // let the log reach the disk
    const text = readFileSync(PG_LOG).subarray(this.offset).toString('utf8');
    const byLabel = new Map<string, PlanEntry[]>();
    let label: string | null = null;
    const head = new RegExp(`@${this.database} LOG:  duration: ([\\d.]+) ms  plan:$`);
    const lines = text.split('\n');
    for (let i = 0; i < lines.length; i++) {
      const m = head.exec(lines[i]);
      if (!m) continue;
      const body: string[] = [];
      while (i + 1 < lines.length && lines[i + 1].startsWith('\t')) body.push(lines[++i].slice(1));
      const query = (body[0] ?? '').replace(/^Query Text: /, '');
      const marker = /^select 'bench_marker=(.*)' as marker$/.exec(query);
      if (marker) {
        label = marker[1];
        continue;
      }
      if (label === null || label === '(end)') continue;
      const entries = byLabel.get(label) ?? [];
      entries.push({ ms: Number(m[1]), query, plan: body.slice(1) });
      byLabel.set(label, entries);
    }
    return byLabel;
  }
}

/** "12.3 ms Seq Scan on leads, Index Scan using x" for one plan. */
export function describePlan(e: PlanEntry): string {
  const scans = e.plan
    .map((l) =>
      /(Parallel )?(Seq Scan|Index Only Scan|Index Scan|Bitmap Index Scan|Bitmap Heap Scan)(?: Backward)? (?:using (\S+) )?on (\S+)/.exec(
        l,
      ),
    )
    .filter((m) => m !== null)
    .map((m) => `${m[1] ?? ''}${m[2]} ${m[3] ?? m[4]}`);
  const rows = e.plan
    .map((l) => /Rows Removed by Filter: (\d+)/.exec(l))
    .filter((m) => m !== null)
    .reduce((sum, m) => sum + Number(m[1]), 0);
  return `${e.ms} ms: ${[...new Set(scans)].join(', ') || 'no scan'}${rows ? ` (${rows} rows removed by filters)` : ''}`;
}
