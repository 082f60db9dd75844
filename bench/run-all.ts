/**
 * npm run bench [-- memory frontend import http]: runs the benches one after the other (all of
 * them by default, lightest first), prints one table, and writes it with every note to
 * bench/.work/results.md (to copy into bench/README.md). Each bench also runs alone:
 * `npx tsx bench/<name>.bench.ts`. The assignment bench is separate: `npm run bench:assign`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runAlertsBench } from './alerts.bench';
import { runExplainBench } from './explain.bench';
import { runFrontendBench } from './frontend.bench';
import { runHttpBench } from './http.bench';
import { runImportBench } from './import.bench';
import { runIntakeBench } from './intake.bench';
import { machineInfo } from './lib/proc';
import { type BenchReport, gitState, log, markdownTable, textTable } from './lib/report';
import { WORK_DIR } from './lib/server';
import { runMemoryBench } from './memory.bench';

const BENCHES: Record<string, () => Promise<BenchReport>> = {
  memory: runMemoryBench,
  frontend: runFrontendBench,
  import: runImportBench,
  http: runHttpBench,
  intake: runIntakeBench,
  explain: runExplainBench,
  alerts: runAlertsBench,
};

async function main() {
  const asked = process.argv.slice(2);
  const unknown = asked.filter((name) => !(name in BENCHES));
  if (unknown.length > 0) {
    throw new Error(
      `unknown bench ${unknown.join(', ')}; known: ${Object.keys(BENCHES).join(', ')}`,
    );
  }
  const names = asked.length > 0 ? asked : Object.keys(BENCHES);
  const reports: BenchReport[] = [];
  const failures: string[] = [];
  for (const name of names) {
    log(`== ${name}`);
    try {
      reports.push(await BENCHES[name]());
    } catch (err) {
      const message = err instanceof Error ? (err.stack ?? err.message) : String(err);
      failures.push(`${name}: ${message}`);
      console.error(`bench ${name} failed: ${message}`);
    }
  }

  console.log(`\n${textTable(reports)}`);
  const m = machineInfo();
  const md = [
    `Run of ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${m.cpus} cores (${m.cpuModel}), ${m.memoryGb} GB, ${m.platform}, Node ${m.node}; code: ${gitState()}.`,
    '',
    markdownTable(reports),
    '',
    ...reports.flatMap((r) => [
      `**${r.bench}** (${r.startedAt.slice(11, 16)} UTC, ${r.durationS} s, load average ${r.load.before} -> ${r.load.after}, ${r.code}): ${r.workload}.`,
      '',
      ...r.notes.map((n) => `- ${n}`),
      '',
    ]),
    ...failures.map((f) => `**failed** ${f.split('\n')[0]}`),
  ].join('\n');
  mkdirSync(WORK_DIR, { recursive: true });
  writeFileSync(join(WORK_DIR, 'results.md'), `${md}\n`);
  console.log(`\nwritten to ${join(WORK_DIR, 'results.md')}`);
  if (failures.length > 0) process.exit(1);
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
