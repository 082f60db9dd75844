/**
 * Starts the real server (src/server/server.ts) as a child process, the way an operator runs it,
 * and gives the bench its URL, its pid (for /proc memory readings) and a way to stop it.
 *
 * The child is `node --import tsx src/server/server.ts` rather than `npx tsx ...`: the same code
 * and loader, but one process, so the pid whose memory we read is the server itself and not the
 * npx or tsx wrapper in front of it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import { type ProcMemory, readMemory } from './proc';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const WORK_DIR = fileURLToPath(new URL('../.work', import.meta.url));

export const ADMIN_EMAIL = 'bench-admin@bench.test';
export const ADMIN_PASSWORD = 'bench-admin-pass';

export type ServerDatabase = { databaseUrl: string } | { dataDir: string };

export interface StartOptions {
  database: ServerDatabase;
  /** extra environment (overrides the defaults below) */
  env?: Record<string, string>;
  /** how long to wait for /api/health, ms */
  startTimeoutMs?: number;
  /** extra node flags, e.g. --cpu-prof */
  nodeFlags?: string[];
}

export interface BenchServer {
  url: string;
  pid: number;
  /** milliseconds from spawn to the first healthy /api/health */
  startMs: number;
  memory(): ProcMemory;
  /** the last lines the server printed (for error messages) */
  output(): string;
  /** the error messages the server logged since the last call, counted: "message x3; ..." */
  drainErrors(): string;
  stop(): Promise<void>;
}

/** A free TCP port on loopback (asked of the kernel, then released). */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  server.close();
  await once(server, 'close');
  return port;
}

const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** BENCH_NODE_FLAGS: Node flags for every bench server (space-separated), for runs that compare them */
const BENCH_NODE_FLAGS = (process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean);

export async function startServer(opts: StartOptions): Promise<BenchServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const db: Record<string, string> =
    'databaseUrl' in opts.database
      ? { DATABASE_URL: opts.database.databaseUrl }
      : { DATA_DIR: opts.database.dataDir };
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: process.env.HOME ?? '/tmp',
    NODE_ENV: 'production',
    COOKIE_SECURE: 'false',
    HOST: '127.0.0.1',
    PORT: String(port),
    LOG_LEVEL: 'warn',
    SCHEDULER: 'false',
    ASSIGN_ON_IMPORT: 'false',
    ADMIN_EMAIL,
    ADMIN_PASSWORD,
    // the bench's admin signs in with a password alone (production asks admins for two factors)
    REQUIRE_2FA_FOR_ADMINS: 'false',
    ...db,
    // BENCH_SERVER_<NAME>=value: the server's setting NAME, for runs that compare settings
    ...Object.fromEntries(
      Object.entries(process.env)
        .filter(([name, value]) => name.startsWith('BENCH_SERVER_') && value !== undefined)
        .map(([name, value]) => [name.slice('BENCH_SERVER_'.length), value as string]),
    ),
    ...opts.env,
  };
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [...BENCH_NODE_FLAGS, ...(opts.nodeFlags ?? []), '--import', 'tsx', 'src/server/server.ts'],
    { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  running.add(child);
  const lines: string[] = [];
  const errors = new Map<string, number>();
  let partial = '';
  const keep = (chunk: Buffer) => {
    const text = partial + chunk.toString();
    const cut = text.lastIndexOf('\n');
    partial = text.slice(cut + 1);
    for (const line of text.slice(0, cut + 1).split('\n')) {
      if (!line) continue;
      lines.push(line);
      const message = errorMessage(line);
      if (message) errors.set(message, (errors.get(message) ?? 0) + 1);
    }
    if (lines.length > 50) lines.splice(0, lines.length - 50);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  let exited: number | string | null = null;
  child.once('exit', (code, signal) => {
    exited = code ?? signal;
    running.delete(child);
  });

  const stop = async () => {
    if (exited !== null) return;
    const gone = once(child, 'exit');
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await gone;
    clearTimeout(timer);
  };

  const deadline = Date.now() + (opts.startTimeoutMs ?? 120_000);
  for (;;) {
    if (exited !== null) {
      throw new Error(`server exited (${exited}) before it was healthy:\n${lines.join('\n')}`);
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`server not healthy in time:\n${lines.join('\n')}`);
    }
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const startMs = Math.round(performance.now() - started);
  const pid = child.pid;
  if (pid === undefined) throw new Error('server has no pid');

  return {
    url,
    pid,
    startMs,
    memory: () => readMemory(pid),
    output: () => lines.join('\n'),
    drainErrors: () => {
      const text = [...errors.entries()]
        .sort((a, b) => b[1] - a[1])
        .map(([message, n]) => `${message} x${n}`)
        .join('; ');
      errors.clear();
      return text;
    },
    stop,
  };
}

/** The message of a pino error line (level 50 and up), or null. */
function errorMessage(line: string): string | null {
  if (!line.startsWith('{')) return null;
  try {
    const entry = JSON.parse(line) as {
      level?: number;
      msg?: string;
      err?: { message?: string; cause?: { message?: string } };
    };
    if ((entry.level ?? 0) < 50) return null;
    // drizzle's "Failed query: <sql>" hides the driver's reason in err.cause
    const cause = entry.err?.cause?.message;
    const message = (entry.err?.message ?? entry.msg ?? 'error').replace(/\s+/g, ' ');
    if (cause) return `${cause} (${message.slice(0, 60)}…)`;
    // pino appends the causes' messages to the message: keep its end
    return message.startsWith('Failed query') ? `…${message.slice(-140)}` : message.slice(0, 160);
  } catch {
    return null;
  }
}
