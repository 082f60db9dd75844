/**
 * The layers' and modules' boundaries (.dependency-cruiser.cjs, docs/ARCHITECTURE.md
 * "Boundaries"): the tree keeps them, and a deliberate bad import of each kind is caught.
 * Not about a database: it runs once, in the PGlite project.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { TEST_DB } from './support/test-db';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '..');
const DEPCRUISE = path.join(ROOT, 'node_modules/.bin/depcruise');

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
}

/** depcruise's violations over `dir`'s src/, with the project's rules. */
async function violations(cwd: string): Promise<Violation[]> {
  const { stdout } = await run(
    DEPCRUISE,
    ['src', '--config', path.join(ROOT, '.dependency-cruiser.cjs'), '--output-type', 'json'],
    { cwd, maxBuffer: 64 * 1024 * 1024 },
  ).catch((err: { stdout?: string }) => {
    // depcruise exits non-zero when it finds violations; the report is still on stdout
    if (err.stdout) return { stdout: err.stdout };
    throw err;
  });
  return JSON.parse(stdout).summary.violations;
}

describe.runIf(TEST_DB === 'pglite')('boundaries', () => {
  const probe = path.join(ROOT, '.tmp', `boundaries-probe-${process.pid}`);
  afterAll(() => rmSync(probe, { recursive: true, force: true }));

  it('the tree keeps every boundary', { timeout: 120_000 }, async () => {
    expect(await violations(ROOT)).toEqual([]);
  });

  it('a deliberate bad import of each kind is caught', { timeout: 120_000 }, async () => {
    const files: Record<string, string> = {
      'src/server/modules/leads/leads.repository.ts': 'export const q = 1;\n',
      'src/server/modules/leads/leads.service.ts': 'export const s = 1;\n',
      'src/server/modules/stats/stats.service.ts':
        "import { q } from '../leads/leads.repository';\nimport { s } from '../leads/leads.service';\nexport const x = q + s;\n",
      'src/server/plugins/auth.ts':
        "import { s } from '../modules/leads/leads.service';\nexport const y = s;\n",
      'src/web/features/leads/api.ts': 'export const api = 1;\n',
      'src/web/features/leads/lead-display.ts': 'export const d = 1;\n',
      'src/web/features/agent/panel.tsx':
        "import { x } from '../../../server/modules/stats/stats.service';\nimport { api } from '../leads/api';\nimport { d } from '../leads/lead-display';\nexport const P = () => <p>{api + d + x}</p>;\n",
      // a cycle between two modules' folders that no file-level cycle shows
      'src/server/modules/follow-ups/follow-ups.service.ts': 'export const f = 1;\n',
      'src/server/modules/delivery/deliveries.service.ts':
        "import { f } from '../follow-ups/follow-ups.service';\nexport const d = f;\n",
      'src/server/modules/follow-ups/follow-ups-email.ts':
        "import { d } from '../delivery/deliveries.service';\nexport const e = d;\n",
      'src/shared/contract.ts':
        "import { api } from '../web/features/leads/api';\nexport const c = api;\n",
    };
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(probe, file)), { recursive: true });
      writeFileSync(path.join(probe, file), text);
    }
    copyFileSync(
      path.join(ROOT, '.babelrc.depcruise.json'),
      path.join(probe, '.babelrc.depcruise.json'),
    );
    writeFileSync(
      path.join(probe, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { jsx: 'react-jsx', moduleResolution: 'Bundler' } }),
    );

    const found = (await violations(probe)).map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`);
    expect(found.sort()).toEqual(
      [
        'feature-internals-stay-inside: src/web/features/agent/panel.tsx -> src/web/features/leads/lead-display.ts',
        'module-internals-stay-inside: src/server/modules/stats/stats.service.ts -> src/server/modules/leads/leads.repository.ts',
        'no-cycle-between-modules: src/server/modules/delivery -> src/server/modules/follow-ups',
        'no-cycle-between-modules: src/server/modules/follow-ups -> src/server/modules/delivery',
        'plugins-do-not-import-modules: src/server/plugins/auth.ts -> src/server/modules/leads/leads.service.ts',
        'shared-imports-neither: src/shared/contract.ts -> src/web/features/leads/api.ts',
        'web-never-imports-server: src/web/features/agent/panel.tsx -> src/server/modules/stats/stats.service.ts',
      ].sort(),
    );
  });
});
