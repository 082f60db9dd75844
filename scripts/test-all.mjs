#!/usr/bin/env node
// npm test: every suite (unit, API on PGlite and PostgreSQL, browser) and one closing line
// "N passed, N failed" that sums them all.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';

mkdirSync('.tmp', { recursive: true });
const VITEST_JSON = '.tmp/vitest-results.json';
const PLAYWRIGHT_JSON = '.tmp/playwright-results.json';
rmSync(VITEST_JSON, { force: true });
rmSync(PLAYWRIGHT_JSON, { force: true });

function run(cmd, args, env = {}) {
  console.log(`\n$ ${cmd} ${args.join(' ')}`);
  const res = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  return res.status ?? 1;
}

let passed = 0;
let failed = 0;

const vitestCode = run('npx', [
  'vitest',
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${VITEST_JSON}`,
]);
if (existsSync(VITEST_JSON)) {
  const r = JSON.parse(readFileSync(VITEST_JSON, 'utf8'));
  passed += r.numPassedTests;
  // a file that failed to load has no failed tests of its own: count it once
  const brokenFiles = r.testResults.filter(
    (f) => f.status === 'failed' && !f.assertionResults.some((t) => t.status === 'failed'),
  ).length;
  failed += r.numFailedTests + brokenFiles;
} else if (vitestCode !== 0) {
  failed += 1;
}
if (vitestCode !== 0 && failed === 0) failed += 1;

const buildCode = run('npx', ['vite', 'build', '--logLevel', 'warn']);
if (buildCode !== 0) {
  failed += 1;
} else {
  const pwCode = run('npx', ['playwright', 'test'], { CI: 'true' });
  if (existsSync(PLAYWRIGHT_JSON)) {
    const r = JSON.parse(readFileSync(PLAYWRIGHT_JSON, 'utf8'));
    passed += r.stats.expected + (r.stats.flaky ?? 0);
    failed += r.stats.unexpected;
    if (pwCode !== 0 && r.stats.unexpected === 0) failed += 1;
  } else if (pwCode !== 0) {
    failed += 1;
  }
}

console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
