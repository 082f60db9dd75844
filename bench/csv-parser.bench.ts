/**
 * The CSV lead parser alone (no database, no HTTP): `parseLeadCsv` over a generated file read as
 * 64 KiB chunks, as busboy hands the upload to the import. Several runs; the best and the median
 * are printed with the process's CPU time and the load average, since the machine is shared.
 *
 *   npx tsx bench/csv-parser.bench.ts            200,000 rows, 7 runs
 *   BENCH_ROWS=1000000 BENCH_RUNS=3 npx tsx bench/csv-parser.bench.ts
 *   BENCH_PARSER=a.ts,b.ts npx tsx bench/csv-parser.bench.ts   (modules exporting parseLeadCsv,
 *   taking turns run by run, to compare two versions)
 */
import { createReadStream } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { writeQualityCsv } from './import.bench';

type Parse = typeof import('../src/server/modules/imports/lead-csv').parseLeadCsv;

const ROWS = Number(process.env.BENCH_ROWS ?? 200_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const WORK_DIR = join(import.meta.dirname, '.work');

async function main(): Promise<void> {
  const paths = (process.env.BENCH_PARSER ?? 'src/server/modules/imports/lead-csv.ts').split(',');
  const parsers: { name: string; parse: Parse; wall: number[]; cpu: number[] }[] = [];
  for (const path of paths) {
    const { parseLeadCsv } = (await import(pathToFileURL(resolve(path)).href)) as {
      parseLeadCsv: Parse;
    };
    parsers.push({ name: path, parse: parseLeadCsv, wall: [], cpu: [] });
  }
  // the import bench's file: valid phones (docs/domain.md, Lead quality), 1% duplicates (valid rows to a parser)
  const csv = await writeQualityCsv(join(WORK_DIR, `parser-${ROWS}.csv`), ROWS);
  const loadBefore = loadavg();
  // the parsers take turns, so that a change in the machine's load falls on each alike
  for (let run = 0; run < RUNS; run++) {
    for (const parser of parsers) {
      const cpuBefore = process.cpuUsage();
      const started = performance.now();
      let leads = 0;
      const input = createReadStream(csv.path, { highWaterMark: 64 * 1024 });
      for await (const batch of parser.parse(input)) leads += batch.leads.length;
      const s = (performance.now() - started) / 1000;
      const used = process.cpuUsage(cpuBefore);
      if (leads !== ROWS) throw new Error(`${parser.name}: ${leads} leads, expected ${ROWS}`);
      parser.wall.push(Math.round(leads / s));
      parser.cpu.push(Math.round(leads / ((used.user + used.system) / 1e6)));
    }
  }
  const best = (xs: number[]) => Math.max(...xs);
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const f = (n: number) => n.toLocaleString('en-US');
  const load = (l: number[]) => l.map((x) => x.toFixed(2)).join(' ');
  console.log(
    `${f(ROWS)} rows (${(csv.bytes / 1e6).toFixed(1)} MB), ${RUNS} runs each, load average ${load(loadBefore)} -> ${load(loadavg())}`,
  );
  for (const p of parsers) {
    console.log(
      `  ${p.name}: wall rows/s best ${f(best(p.wall))} median ${f(median(p.wall))}; CPU rows/s best ${f(best(p.cpu))} median ${f(median(p.cpu))}`,
    );
  }
}

await main();
