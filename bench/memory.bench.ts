/**
 * Memory bench: the server's resting RSS (VmRSS, after start and a few requests, then 3 s idle)
 * on PGlite and on PostgreSQL, each on a fresh database; against an idle bare Node process and an
 * idle Node process with the tsx loader, in the same run.
 *
 * On PGlite the database engine (WASM) lives inside the server process and counts here; on
 * PostgreSQL the database runs in its own processes and does not.
 *
 * Env: BENCH_PG_URL, BENCH_KEEP=1.
 */
import { spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { apiOk, loginAdmin, registerAgent } from './lib/client';
import { dropDatabase, recreateDatabase } from './lib/pg';
import { readMemory, toMb } from './lib/proc';
import { type BenchReport, figure, isMain, log, measure, runStandalone } from './lib/report';
import { type ServerDatabase, startServer, WORK_DIR } from './lib/server';

const DB_NAME = 'lf_bench_memory';
const REST_MS = 3000;

export function runMemoryBench(): Promise<BenchReport> {
  const workload = `fresh database, server started, admin and one agent signed in, 30 requests (health, packages, admin stats, admin leads, agent leads, me), then ${REST_MS / 1000} s idle; VmRSS read from /proc`;
  return measure('memory', workload, async (figures, notes) => {
    log('memory: bare Node baselines');
    const bare = await idleNodeRss([]);
    const bareTsx = await idleNodeRss(['--import', 'tsx']);
    notes.push(
      `idle bare Node ${process.version}: ${toMb(bare)} MB; idle Node with the tsx loader: ${toMb(bareTsx)} MB`,
    );

    log('memory: PGlite');
    const dataDir = join(WORK_DIR, 'pglite-memory');
    await rm(dataDir, { recursive: true, force: true });
    try {
      const lite = await restingRss({ dataDir });
      figures.push(
        figure('resting RSS on PGlite', toMb(lite.rss), 'MB', {
          baseline: { label: 'idle bare Node', value: toMb(bare) },
          detail: `anonymous ${toMb(lite.anon)} MB, files ${toMb(lite.file)} MB, peak ${toMb(lite.hwm)} MB, started in ${lite.startMs} ms`,
        }),
      );
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }

    log('memory: PostgreSQL');
    const url = await recreateDatabase(DB_NAME);
    try {
      const pg = await restingRss({ databaseUrl: url });
      figures.push(
        figure('resting RSS on PostgreSQL', toMb(pg.rss), 'MB', {
          baseline: { label: 'idle bare Node', value: toMb(bare) },
          detail: `anonymous ${toMb(pg.anon)} MB, files ${toMb(pg.file)} MB, peak ${toMb(pg.hwm)} MB, started in ${pg.startMs} ms; postgres processes not counted`,
        }),
      );
    } finally {
      await dropDatabase(DB_NAME);
    }
  });
}

async function restingRss(database: ServerDatabase) {
  const server = await startServer({ database });
  try {
    const admin = await loginAdmin(server.url);
    const agent = await registerAgent(server.url, 'Memory Agent', 'memory-agent@bench.test');
    const paths: [string, string | undefined][] = [
      ['/api/health', undefined],
      ['/api/packages', undefined],
      ['/api/admin/stats', admin.cookie],
      ['/api/admin/leads?limit=50', admin.cookie],
      ['/api/agent/leads', agent.cookie],
      ['/api/auth/me', agent.cookie],
    ];
    for (let i = 0; i < 5; i++) {
      for (const [path, cookie] of paths) await apiOk(server.url, path, { cookie });
    }
    await new Promise((resolve) => setTimeout(resolve, REST_MS));
    return { ...server.memory(), startMs: server.startMs };
  } finally {
    await server.stop();
  }
}

/** RSS of an idle Node process (with the given flags) one second after start. */
async function idleNodeRss(flags: string[]): Promise<number> {
  const child = spawn(process.execPath, [...flags, '-e', 'setInterval(() => {}, 1e6)'], {
    stdio: 'ignore',
  });
  try {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    if (child.pid === undefined) throw new Error('no pid');
    return readMemory(child.pid).rss;
  } finally {
    child.kill('SIGKILL');
  }
}

if (isMain(import.meta.url)) runStandalone(runMemoryBench);
