/**
 * Front-end bench: builds the SPA (vite build), sums the gzipped JavaScript of the landing page
 * (the entry script and modulepreload links of dist/index.html, and what Chromium really fetched
 * on /), and runs Lighthouse (performance + accessibility, default mobile settings, median of
 * BENCH_LH_RUNS=3) on / and /login served by the real server on a fresh PGlite. Baselines from
 * the same run: all the JavaScript of the build, and a minimal HTML page served by a bare Node
 * http server, audited by the same Lighthouse in the same Chromium. As a diagnostic, each page is
 * also audited behind a reverse proxy that fetches the text uncompressed and gzips it on the fly
 * (the server itself sends the build's precompressed .br/.gz files).
 *
 * The build keeps older files in dist/ (emptyOutDir off) so that other people's running e2e
 * servers never lose the assets of the index.html they already served.
 */
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import http from 'node:http';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { type BenchReport, figure, isMain, log, measure, runStandalone } from './lib/report';
import { ROOT, startServer, WORK_DIR } from './lib/server';

const RUNS = Number(process.env.BENCH_LH_RUNS ?? 3);
const JS_GOAL_KB = 150;
const SCORE_GOAL = 95;
const CHROMIUM = process.env.BENCH_CHROMIUM ?? '/usr/bin/chromium';
const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
  '--disable-quic',
];
const DIST = join(ROOT, 'dist');

type Lhr = NonNullable<Awaited<ReturnType<typeof lighthouse>>>['lhr'];

export function runFrontendBench(): Promise<BenchReport> {
  const workload = `vite build; gzip (zlib level 6) of each JS file; Lighthouse ${lighthouseVersion()} default (mobile: simulated slow 4G, 4x CPU slowdown) performance and accessibility, median of ${RUNS} runs, Chromium ${chromiumVersion()} headless, pages served by the real server on a fresh PGlite`;
  return measure('frontend', workload, async (figures, notes) => {
    log('frontend: vite build');
    const buildMs = await viteBuild();
    const manifest = JSON.parse(readFileSync(join(DIST, '.vite/manifest.json'), 'utf8')) as Record<
      string,
      { file: string }
    >;
    const buildJs = [...new Set(Object.values(manifest).map((c) => c.file))].filter((f) =>
      f.endsWith('.js'),
    );
    const allKb = kb(buildJs.reduce((sum, f) => sum + gzippedBytes(`/${f}`), 0));
    const html = readFileSync(join(DIST, 'index.html'), 'utf8');
    const htmlJs = landingScripts(html);
    const htmlKb = kb(htmlJs.reduce((sum, f) => sum + gzippedBytes(f), 0));
    notes.push(
      `build ${(buildMs / 1000).toFixed(1)} s; ${buildJs.length} JS chunks; index.html loads ${htmlJs.join(', ')}`,
    );

    const dataDir = join(WORK_DIR, 'pglite-frontend');
    await rm(dataDir, { recursive: true, force: true });
    const server = await startServer({ database: { dataDir } });
    const blank = await blankPageServer();
    const proxy = await gzipProxy(server.url);
    const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: CHROME_FLAGS });
    try {
      const asset = await fetch(`${server.url}${htmlJs[0]}`, {
        headers: { 'accept-encoding': 'gzip, br' },
      });
      await asset.arrayBuffer();
      notes.push(
        `the server answers ${htmlJs[0]} with content-encoding: ${asset.headers.get('content-encoding') ?? 'none (sent uncompressed)'}`,
      );

      const audit = async (url: string, label: string, desktop = false) => {
        const runs: Lhr[] = [];
        for (let i = 0; i < (desktop ? 1 : RUNS); i++) {
          log(`frontend: Lighthouse ${label}${desktop ? ' (desktop)' : ''} run ${i + 1}`);
          runs.push(await runLighthouse(chrome.port, url, desktop));
        }
        runs.sort((a, b) => score(a, 'performance') - score(b, 'performance'));
        return { median: runs[Math.floor(runs.length / 2)], all: runs };
      };

      const base = await audit(blank.url, 'blank page');
      const basePerf = score(base.median, 'performance');
      const baseA11y = score(base.median, 'accessibility');
      const landing = await audit(`${server.url}/`, '/');
      const loaded = fetchedScripts(landing.median, server.url);
      const loadedKb = kb(loaded.reduce((sum, f) => sum + gzippedBytes(f), 0));
      figures.push(
        figure('landing page JS as fetched by Chromium on / (gzipped)', loadedKb, 'KB', {
          baseline: { label: 'all JS of the build', value: allKb },
          goal: { text: `<= ${JS_GOAL_KB} KB`, met: loadedKb <= JS_GOAL_KB },
          detail: `${loaded.length} files`,
        }),
        figure('landing page JS in index.html (entry + modulepreload, gzipped)', htmlKb, 'KB', {
          baseline: { label: 'all JS of the build', value: allKb },
          goal: { text: `<= ${JS_GOAL_KB} KB`, met: htmlKb <= JS_GOAL_KB },
        }),
      );
      notes.push(`Chromium fetched on /: ${loaded.join(', ')}`);

      const login = await audit(`${server.url}/login`, '/login');
      for (const [page, result] of [
        ['/', landing],
        ['/login', login],
      ] as const) {
        const perf = score(result.median, 'performance');
        const a11y = score(result.median, 'accessibility');
        figures.push(
          figure(`Lighthouse performance ${page}`, perf, 'score', {
            baseline: { label: 'minimal page', value: basePerf },
            goal: { text: `>= ${SCORE_GOAL}`, met: perf >= SCORE_GOAL },
            detail: `runs ${result.all.map((r) => score(r, 'performance')).join('/')}; ${metrics(result.median)}`,
          }),
          figure(`Lighthouse accessibility ${page}`, a11y, 'score', {
            baseline: { label: 'minimal page', value: baseA11y },
            goal: { text: `>= ${SCORE_GOAL}`, met: a11y >= SCORE_GOAL },
          }),
        );
        const problems = findings(result.median);
        if (problems) notes.push(`${page}: ${problems}`);
        const desktop = (await audit(`${server.url}${page}`, page, true)).median;
        notes.push(
          `${page} desktop preset (1 run): performance ${score(desktop, 'performance')}, accessibility ${score(desktop, 'accessibility')}; ${metrics(desktop)}`,
        );
        // Diagnostic: the same page with its text gzipped on the way by a proxy instead of the
        // build's precompressed files the server sends itself.
        const zipped = await audit(`${proxy.url}${page}`, `${page} behind a gzip proxy`);
        figures.push(
          figure(
            `Lighthouse performance ${page} behind a gzip proxy (diagnostic)`,
            score(zipped.median, 'performance'),
            'score',
            {
              baseline: { label: 'minimal page', value: basePerf },
              detail: `runs ${zipped.all.map((r) => score(r, 'performance')).join('/')}; ${metrics(zipped.median)}`,
            },
          ),
        );
      }
      notes.push(`baseline minimal page: ${metrics(base.median)}`);
      writeFileSync(
        join(WORK_DIR, 'lighthouse-landing.json'),
        JSON.stringify(landing.median, null, 1),
      );
    } finally {
      await chrome.kill();
      blank.server.close();
      proxy.server.close();
      await server.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
}

function viteBuild(): Promise<number> {
  // vite's own API: the same build as `npx vite build`, plus a manifest and without emptying
  // dist/ (see the file comment)
  const script = `import { build } from 'vite';
await build({ logLevel: 'warn', build: { emptyOutDir: false, manifest: true } });`;
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
      cwd: ROOT,
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve(performance.now() - started) : reject(new Error(`vite build: ${code}`)),
    );
  });
}

/** The entry script and the modulepreload links of index.html, as /assets/... paths. */
export function landingScripts(html: string): string[] {
  const out: string[] = [];
  for (const m of html.matchAll(/<script\b[^>]*\btype="module"[^>]*\bsrc="([^"]+)"/g)) {
    out.push(m[1]);
  }
  for (const m of html.matchAll(/<link\b[^>]*\brel="modulepreload"[^>]*\bhref="([^"]+)"/g)) {
    out.push(m[1]);
  }
  return [...new Set(out)];
}

function fetchedScripts(lhr: Lhr, origin: string): string[] {
  const details = lhr.audits['network-requests']?.details as { items: NetworkItem[] } | undefined;
  return (details?.items ?? [])
    .filter((r) => r.resourceType === 'Script' && r.url.startsWith(origin))
    .map((r) => new URL(r.url).pathname);
}

function gzippedBytes(path: string): number {
  return gzipSync(readFileSync(join(DIST, path)), { level: 6 }).length;
}

const kb = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;

/** One Lighthouse run; a run whose trace recording failed (it happens under load) is retried. */
async function runLighthouse(port: number, url: string, desktop: boolean): Promise<Lhr> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await runLighthouseOnce(port, url, desktop);
    } catch (err) {
      if (attempt >= 3) throw err;
      log(`frontend: Lighthouse run failed (${(err as Error).message}); again`);
    }
  }
}

async function runLighthouseOnce(port: number, url: string, desktop: boolean): Promise<Lhr> {
  const result = await lighthouse(
    url,
    { port, output: 'json', logLevel: 'error', onlyCategories: ['performance', 'accessibility'] },
    desktop ? desktopConfig : undefined,
  );
  if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
  if (result.lhr.runtimeError) {
    throw new Error(`Lighthouse ${url}: ${result.lhr.runtimeError.message}`);
  }
  return result.lhr;
}

function score(lhr: Lhr, category: 'performance' | 'accessibility'): number {
  return Math.round((lhr.categories[category]?.score ?? 0) * 100);
}

function metrics(lhr: Lhr): string {
  const ms = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
  return `FCP ${Math.round(ms('first-contentful-paint'))} ms, LCP ${Math.round(ms('largest-contentful-paint'))} ms, TBT ${Math.round(ms('total-blocking-time'))} ms, CLS ${ms('cumulative-layout-shift').toFixed(3)}, SI ${Math.round(ms('speed-index'))} ms`;
}

/** Failed accessibility audits, and the audits that estimate a saving of 100 ms or more. */
function findings(lhr: Lhr): string {
  const a11y = (lhr.categories.accessibility?.auditRefs ?? [])
    .filter((ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 1)
    .map((ref) => `a11y fails ${ref.id}`);
  const perf = Object.values(lhr.audits)
    .map((a) => {
      const savings = Object.entries(a.metricSavings ?? {}).filter(([, ms]) => (ms ?? 0) >= 100);
      const text = savings.map(([metric, ms]) => `${metric} ${ms} ms`).join(', ');
      return { a, text, top: Math.max(0, ...savings.map(([, ms]) => ms ?? 0)) };
    })
    .filter((x) => x.top > 0)
    .sort((x, y) => y.top - x.top)
    .map((x) => `${x.a.id}${x.a.displayValue ? ` (${x.a.displayValue})` : ''}: ${x.text}`);
  const bytes = (type: string) =>
    ((lhr.audits['network-requests']?.details as { items: NetworkItem[] } | undefined)?.items ?? [])
      .filter((r) => r.resourceType === type)
      .reduce((sum, r) => sum + (r.transferSize ?? 0), 0);
  const transfer = `transferred ${kb(bytes('Script'))} KB of JS and ${kb(bytes('Stylesheet'))} KB of CSS`;
  return [transfer, ...a11y, ...perf].join('; ');
}

interface NetworkItem {
  url: string;
  resourceType?: string;
  transferSize?: number;
}

/** A reverse proxy that gzips text answers (HTML, JS, CSS, JSON) for clients that accept it. */
async function gzipProxy(upstream: string) {
  const target = new URL(upstream);
  const server = http.createServer((req, res) => {
    const headers = { ...req.headers, host: target.host };
    delete headers['accept-encoding'];
    const forward = http.request(
      { host: target.hostname, port: target.port, path: req.url, method: req.method, headers },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (c: Buffer) => chunks.push(c));
        answer.on('end', () => {
          let body = Buffer.concat(chunks);
          const out = { ...answer.headers };
          delete out['content-length'];
          delete out['transfer-encoding'];
          const type = String(answer.headers['content-type'] ?? '');
          if (
            /gzip/.test(String(req.headers['accept-encoding'] ?? '')) &&
            /text|javascript|css|json/.test(type)
          ) {
            body = gzipSync(body, { level: 6 });
            out['content-encoding'] = 'gzip';
          }
          res.writeHead(answer.statusCode ?? 502, { ...out, 'content-length': body.length });
          res.end(body);
        });
      },
    );
    forward.on('error', () => res.writeHead(502).end());
    req.pipe(forward);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { server, url: `http://127.0.0.1:${port}` };
}

async function blankPageServer() {
  const server = http.createServer((_req, res) => {
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.end(
      '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="description" content="A minimal page"><title>Minimal</title></head><body><main><h1>Minimal page</h1><p>Nothing else.</p></main></body></html>',
    );
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { server, url: `http://127.0.0.1:${port}/` };
}

function lighthouseVersion(): string {
  return JSON.parse(readFileSync(join(ROOT, 'node_modules/lighthouse/package.json'), 'utf8'))
    .version;
}

function chromiumVersion(): string {
  try {
    const out = execFileSync(CHROMIUM, ['--version'], { encoding: 'utf8', stdio: 'pipe' });
    return /[\d.]+/.exec(out)?.[0] ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

if (isMain(import.meta.url)) runStandalone(runFrontendBench);
