/**
 * Process memory and machine facts read from /proc (Linux only): what the benches report RSS and
 * load average with.
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';

export interface ProcMemory {
  /** resident set size now, bytes */
  rss: number;
  /** peak resident set size since the process started (VmHWM), bytes */
  hwm: number;
  /** of rss: anonymous memory (heaps, WASM memory), bytes */
  anon: number;
  /** of rss: file-backed pages (the node binary, shared libraries), bytes */
  file: number;
}

/** VmRSS and VmHWM of a live process; throws when it has exited. */
export function readMemory(pid: number): ProcMemory {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return {
    rss: statusKb(status, 'VmRSS') * 1024,
    hwm: statusKb(status, 'VmHWM') * 1024,
    anon: statusKb(status, 'RssAnon') * 1024,
    file: statusKb(status, 'RssFile') * 1024,
  };
}

function statusKb(status: string, key: string): number {
  const match = new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status);
  if (!match) throw new Error(`${key} not found in /proc status`);
  return Number(match[1]);
}

/** Samples a process's RSS on a timer and keeps the largest value seen. */
export class RssSampler {
  private timer: NodeJS.Timeout | null = null;
  maxRss = 0;
  samples = 0;

  constructor(
    private readonly pid: number,
    private readonly intervalMs = 25,
  ) {}

  start(): this {
    this.sample();
    this.timer = setInterval(() => this.sample(), this.intervalMs);
    return this;
  }

  stop(): ProcMemory & { maxRss: number } {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    const last = readMemory(this.pid);
    this.maxRss = Math.max(this.maxRss, last.rss);
    return { ...last, maxRss: this.maxRss };
  }

  private sample(): void {
    try {
      this.maxRss = Math.max(this.maxRss, readMemory(this.pid).rss);
      this.samples++;
    } catch {
      // the process is gone; stop() reports it
    }
  }
}

export const MB = 1024 * 1024;
export const toMb = (bytes: number) => Math.round((bytes / MB) * 10) / 10;

/** The 1-minute load average, rounded: noted beside every figure (the machine is shared). */
export function loadAverage(): number {
  return Math.round(os.loadavg()[0] * 100) / 100;
}

export interface MachineInfo {
  cpus: number;
  cpuModel: string;
  memoryGb: number;
  node: string;
  platform: string;
}

export function machineInfo(): MachineInfo {
  const cpus = os.cpus();
  return {
    cpus: cpus.length,
    cpuModel: cpus[0]?.model.trim() ?? 'unknown',
    memoryGb: Math.round(os.totalmem() / 1024 ** 3),
    node: process.version,
    platform: `${os.type()} ${os.release()}`,
  };
}

/** CPU time (user + system) a process has used so far, seconds; 0 when it is not readable. */
export function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // fields after the command name (which may hold spaces) start at ") "
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15)
    return ticks / CLOCK_TICKS;
  } catch {
    return 0;
  }
}

/** sysconf(_SC_CLK_TCK): 100 on every Linux this runs on. */
const CLOCK_TICKS = 100;

/**
 * Waits until a process has used under 5% of a core for `quietMs` (work it deferred to the
 * background is done; /proc counts CPU in 10 ms ticks, hence the coarse threshold). Answers the ms waited; throws after `timeoutMs`.
 */
export async function waitProcessQuiet(
  pid: number,
  opts: { quietMs?: number; timeoutMs?: number } = {},
): Promise<number> {
  const quietMs = opts.quietMs ?? 2000;
  const started = Date.now();
  let quietSince = Date.now();
  let last = cpuSeconds(pid);
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const now = Date.now();
    const cpu = cpuSeconds(pid);
    if (cpu - last > 0.025) quietSince = now;
    else if (now - quietSince >= quietMs) return now - started - quietMs;
    last = cpu;
    if (now - started > (opts.timeoutMs ?? 30 * 60_000)) {
      throw new Error(`process ${pid} still busy after ${now - started} ms`);
    }
  }
}
