/**
 * A portal server of a spec's own, for specs whose settings the shared e2e server does not have
 * (Stripe, Twilio): the real server as a child process on its own port and PGlite folder, with the
 * e2e admin, and the given settings added; started once for the spec and stopped after it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { E2E_ADMIN } from './support';

export class OwnServer {
  readonly base: string;
  private readonly dataDir: string;
  private child: ChildProcess | null = null;
  private output = '';

  /** `name`: what the server is for, in its folder and in errors; `port`: its own. */
  constructor(
    private readonly name: string,
    private readonly port: number,
  ) {
    this.base = `http://127.0.0.1:${port}`;
    this.dataDir = `.tmp/e2e-${name}-data-${port}`;
  }

  /**
   * Starts on a fresh database with these settings (or, with keepData, on the one it had: a
   * restart); resolves once /api/health answers.
   */
  async start(settings: Record<string, string>, opts: { keepData?: boolean } = {}): Promise<void> {
    if (!opts.keepData) rmSync(this.dataDir, { recursive: true, force: true });
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/server.ts'], {
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        PORT: String(this.port),
        HOST: '127.0.0.1',
        DATA_DIR: this.dataDir,
        PUBLIC_URL: this.base,
        ADMIN_EMAIL: E2E_ADMIN.email,
        ADMIN_PASSWORD: E2E_ADMIN.password,
        SCHEDULER: 'false',
        LOG_LEVEL: 'warn',
        REGISTRATIONS_PER_ADDRESS: '1000',
        REGISTRATIONS_TOTAL: '1000',
        ...settings,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    const keep = (chunk: Buffer) => {
      this.output = (this.output + chunk.toString()).slice(-20_000);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    const deadline = Date.now() + 100_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${this.name} server exited:\n${this.output}`);
      try {
        if ((await fetch(`${this.base}/api/health`)).ok) return;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline)
        throw new Error(`${this.name} server never answered:\n${this.output}`);
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
  }

  /** SIGTERM (a graceful stop), or SIGKILL: the process dies mid-work, as in a crash. */
  async stop(signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM'): Promise<void> {
    const child = this.child;
    this.child = null;
    if (child && child.exitCode === null) {
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.kill(signal);
      await gone;
    }
  }
}
