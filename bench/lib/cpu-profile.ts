/**
 * Reads a V8 .cpuprofile (node --cpu-prof) and says where the CPU went: self time by package
 * (or by source folder for our own code) and the hottest functions.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

interface CpuProfile {
  startTime: number;
  endTime: number;
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileSummary {
  totalMs: number;
  /** share of the samples where the process was idle (waiting for I/O) */
  idleShare: number;
  byPlace: { place: string; share: number }[];
  topFunctions: { name: string; share: number }[];
}

/** node_modules/<pkg>, src/<folder>/<file>, node:<module>, or a V8 pseudo-frame. */
export function placeOf(url: string, functionName: string): string {
  if (!url) return `(${functionName || 'native'})`.replace(/^\(\((.*)\)\)$/, '($1)');
  const nm = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (nm) return nm[1];
  const src = /\/(src\/.+?)(?:\?.*)?$/.exec(url);
  if (src) return src[1];
  if (url.startsWith('node:')) return url;
  return url.split('/').slice(-2).join('/');
}

/** CLOCK_MONOTONIC in microseconds: the clock V8 stamps profile samples with, on Linux. */
export const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);

/**
 * Summarizes the samples taken within [window.fromUs, window.toUs] (monotonicUs() readings taken
 * in any process of this machine), or all of them.
 */
export function summarizeProfile(
  path: string,
  window?: { fromUs: number; toUs: number },
  top = 6,
): ProfileSummary {
  const profile = JSON.parse(readFileSync(path, 'utf8')) as CpuProfile;
  if (window && (window.fromUs < profile.startTime || window.toUs > profile.endTime)) {
    throw new Error('the profile does not cover the window: clocks differ?');
  }
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfMs = new Map<number, number>();
  let total = 0;
  let at = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    const delta = profile.timeDeltas[i] ?? 0;
    at += delta;
    if (window && (at < window.fromUs || at > window.toUs)) continue;
    const ms = delta / 1000;
    total += ms;
    selfMs.set(profile.samples[i], (selfMs.get(profile.samples[i]) ?? 0) + ms);
  }
  const places = new Map<string, number>();
  const functions = new Map<string, number>();
  let idle = 0;
  for (const [id, ms] of selfMs) {
    const node = byId.get(id);
    if (!node) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    if (functionName === '(idle)') {
      idle += ms;
      continue;
    }
    const place = placeOf(url, functionName);
    places.set(place, (places.get(place) ?? 0) + ms);
    const name =
      `${functionName || '(anonymous)'} ${url ? `${place}:${lineNumber + 1}` : ''}`.trim();
    functions.set(name, (functions.get(name) ?? 0) + ms);
  }
  const busy = Math.max(1e-9, total - idle);
  const ranked = (m: Map<string, number>) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([k, ms]) => ({ k, share: Math.round((ms / busy) * 100) / 100 }));
  return {
    totalMs: Math.round(total),
    idleShare: Math.round((idle / Math.max(1e-9, total)) * 100) / 100,
    byPlace: ranked(places).map(({ k, share }) => ({ place: k, share })),
    topFunctions: ranked(functions).map(({ k, share }) => ({ name: k, share })),
  };
}

export function describeProfile(s: ProfileSummary): string {
  const pct = (x: number) => `${Math.round(x * 100)}%`;
  return `idle ${pct(s.idleShare)}; busy CPU by place: ${s.byPlace
    .map((p) => `${p.place} ${pct(p.share)}`)
    .join(', ')}; hottest functions: ${s.topFunctions
    .map((f) => `${f.name} ${pct(f.share)}`)
    .join(', ')}`;
}

/**
 * The main thread's profile among those `node --cpu-prof --cpu-prof-dir <dir>` wrote (one per
 * thread: the tsx loader runs in a worker thread of its own). Default names are
 * CPU.<date>.<time>.<pid>.<thread id>.<seq>.cpuprofile; the main thread is thread 0.
 */
export function mainThreadProfile(dir: string): string {
  const main = readdirSync(dir).filter((f) => /^CPU\.\d+\.\d+\.\d+\.0\.\d+\.cpuprofile$/.test(f));
  if (main.length !== 1) throw new Error(`expected one main-thread profile in ${dir}: ${main}`);
  return join(dir, main[0]);
}

/** The node flags that make a server write its CPU profile into `dir` when `on`. */
export function profileFlags(on: boolean, dir: string): string[] {
  return on ? ['--cpu-prof', '--cpu-prof-dir', dir] : [];
}
