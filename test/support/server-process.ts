/**
 * The real server as a child process (node + tsx, no wrapper process in between, so a signal
 * reaches the server itself), for the crash and load tests, and a small HTTP client for it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { openAsBlob } from 'node:fs';
import { createServer } from 'node:net';
import { basename } from 'node:path';

export const SERVER_ADMIN = { email: 'admin@races.test', password: 'races-admin-pass' };

export interface ServerProcess {
  /** http://127.0.0.1:PORT */
  url: string;
  child: ChildProcess;
  /** what the server printed (stdout and stderr), for a failure message */
  output(): string;
  /** resolves with the exit code or signal once the process is gone */
  exited: Promise<string>;
  /** SIGTERM and wait (SIGKILL after 10 s) */
  stop(): Promise<string>;
}

/** A TCP port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** Starts src/server/server.ts on this PostgreSQL database and waits for /api/health. */
export async function startServer(
  databaseUrl: string,
  env: Record<string, string> = {},
): Promise<ServerProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/server.ts'], {
    cwd: process.cwd(),
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'test',
      DATABASE_URL: databaseUrl,
      HOST: '127.0.0.1',
      PORT: String(port),
      SCHEDULER: 'false',
      ADMIN_EMAIL: SERVER_ADMIN.email,
      ADMIN_PASSWORD: SERVER_ADMIN.password,
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<string>((resolve) => {
    child.once('exit', (code, signal) => resolve(signal ?? `exit ${code}`));
  });

  const deadline = Date.now() + 60_000;
  let gone: string | null = null;
  void exited.then((how) => {
    gone = how;
  });
  for (;;) {
    if (gone) throw new Error(`the server exited (${gone}) before answering:\n${output}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the server did not answer within 60 s:\n${output}`);
    }
    await sleep(200);
  }

  return {
    url,
    child,
    output: () => output,
    exited,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return exited;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      const how = await exited;
      clearTimeout(timer);
      return how;
    },
  };
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Signs in over HTTP and answers the session cookie (`lf_session=...`). */
export async function login(url: string, email: string, password: string): Promise<string> {
  const res = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: url },
    body: JSON.stringify({ email, password }),
  });
  if (res.status !== 200)
    throw new Error(`login of ${email} failed: ${res.status} ${await res.text()}`);
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .find((c) => c.startsWith('lf_session='));
  if (!cookie) throw new Error('login set no session cookie');
  return cookie;
}

/** Uploads a CSV file from disk as the import's multipart file field, streamed from the file. */
export async function uploadCsv(
  url: string,
  cookie: string,
  path: string,
): Promise<{ status: number; body: string }> {
  const form = new FormData();
  form.append('file', await openAsBlob(path, { type: 'text/csv' }), basename(path));
  const res = await fetch(`${url}/api/admin/leads/import`, {
    method: 'POST',
    headers: { cookie, origin: url },
    body: form,
  });
  return { status: res.status, body: await res.text() };
}
