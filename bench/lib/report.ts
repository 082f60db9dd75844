/** What a bench answers, and how it is printed: every figure beside its baseline from the run. */
import { execFileSync } from 'node:child_process';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadAverage, type MachineInfo, machineInfo } from './proc';
import { ROOT, WORK_DIR } from './server';

export interface Figure {
  label: string;
  value: number;
  unit: string;
  /** what the figure is measured against, in the same run */
  baseline?: { label: string; value: number };
  /** value / baseline.value */
  ratio?: number;
  goal?: { text: string; met: boolean };
  /** a short detail shown beside the figure (p50, non-2xx count...) */
  detail?: string;
}

export interface BenchReport {
  bench: string;
  workload: string;
  startedAt: string;
  durationS: number;
  /** 1-minute load average before and after the bench (2 cores: >2 means contention) */
  load: { before: number; after: number };
  machine: MachineInfo;
  /** the code measured: commit and changed files (other people edit the tree meanwhile) */
  code: string;
  figures: Figure[];
  notes: string[];
}

export function figure(
  label: string,
  value: number,
  unit: string,
  extra: Omit<Figure, 'label' | 'value' | 'unit' | 'ratio'> = {},
): Figure {
  const ratio =
    extra.baseline && extra.baseline.value !== 0
      ? Math.round((value / extra.baseline.value) * 1000) / 1000
      : undefined;
  return { label, value, unit, ...extra, ratio };
}

/** Runs a bench body and wraps what it found with the time, load and machine. */
export async function measure(
  bench: string,
  workload: string,
  body: (figures: Figure[], notes: string[]) => Promise<void>,
): Promise<BenchReport> {
  const started = Date.now();
  const before = loadAverage();
  const code = gitState();
  const figures: Figure[] = [];
  const notes: string[] = [];
  // the benches write their diagnostics here as they go (it is gitignored: absent in a new clone)
  mkdirSync(WORK_DIR, { recursive: true });
  await body(figures, notes);
  const report: BenchReport = {
    bench,
    workload,
    startedAt: new Date(started).toISOString(),
    durationS: Math.round((Date.now() - started) / 1000),
    load: { before, after: loadAverage() },
    machine: machineInfo(),
    code,
    figures,
    notes,
  };
  writeFileSync(join(WORK_DIR, `${bench}.json`), `${JSON.stringify(report, null, 2)}\n`);
  return report;
}

/** The commit and how many files under src/ differ from it. */
export function gitState(): string {
  try {
    const git = (...args: string[]) =>
      execFileSync('git', args, { cwd: ROOT, encoding: 'utf8', stdio: 'pipe' });
    const head = git('rev-parse', '--short', 'HEAD').trim();
    const dirty = git('status', '--porcelain', 'src').split('\n').filter(Boolean).length;
    return `commit ${head}${dirty ? ` + ${dirty} changed files under src/` : ''}`;
  } catch {
    return 'unknown';
  }
}

export function formatValue(value: number, unit: string): string {
  const digits = Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : 2;
  const n = value.toLocaleString('en-US', { maximumFractionDigits: digits });
  return unit ? `${n} ${unit}` : n;
}

function rows(reports: BenchReport[]): string[][] {
  const out: string[][] = [];
  for (const r of reports) {
    for (const f of r.figures) {
      out.push([
        r.bench,
        f.label,
        formatValue(f.value, f.unit) + (f.detail ? ` (${f.detail})` : ''),
        f.baseline ? `${f.baseline.label}: ${formatValue(f.baseline.value, f.unit)}` : '',
        f.ratio === undefined ? '' : `${f.ratio}x`,
        f.goal ? `${f.goal.text}: ${f.goal.met ? 'met' : 'MISSED'}` : '',
      ]);
    }
  }
  return out;
}

const HEADER = ['bench', 'figure', 'measured', 'baseline (same run)', 'ratio', 'goal'];

export function textTable(reports: BenchReport[]): string {
  const all = [HEADER, ...rows(reports)];
  const widths = HEADER.map((_, c) => Math.max(...all.map((row) => row[c].length)));
  const line = (row: string[]) => row.map((cell, c) => cell.padEnd(widths[c])).join('  ');
  const lines = [line(HEADER), widths.map((w) => '-'.repeat(w)).join('  ')];
  for (const row of all.slice(1)) lines.push(line(row));
  for (const r of reports) {
    lines.push('', `${r.bench}: ${r.workload}`);
    lines.push(`  ${r.durationS} s, load average ${r.load.before} -> ${r.load.after}, ${r.code}`);
    for (const n of r.notes) lines.push(`  - ${n}`);
  }
  return lines.join('\n');
}

export function markdownTable(reports: BenchReport[]): string {
  const esc = (s: string) => s.replace(/\|/g, '\\|');
  const lines = [
    `| ${HEADER.join(' | ')} |`,
    `|${HEADER.map(() => '---').join('|')}|`,
    ...rows(reports).map((row) => `| ${row.map(esc).join(' | ')} |`),
  ];
  return lines.join('\n');
}

/** True when this module is the script node was started with (`tsx bench/x.bench.ts`). */
export function isMain(importMetaUrl: string): boolean {
  const script = process.argv[1];
  if (!script) return false;
  try {
    return realpathSync(script) === realpathSync(fileURLToPath(importMetaUrl));
  } catch {
    return false;
  }
}

/** Runs one bench on its own: prints its table and exits non-zero on failure. */
export function runStandalone(run: () => Promise<BenchReport>): void {
  run()
    .then((report) => {
      console.log(`\n${textTable([report])}`);
      process.exit(0);
    })
    .catch((err) => {
      console.error(err instanceof Error ? (err.stack ?? err.message) : err);
      process.exit(1);
    });
}

export const log = (message: string) =>
  console.log(`[${new Date().toISOString().slice(11, 19)}] ${message}`);
