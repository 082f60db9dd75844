import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  appendFileSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { type Database, MIGRATIONS_DIR, openDatabase } from '../src/server/db/client';
import {
  type JournalEntry,
  LANDED_FILE,
  landedProblems,
  readJournal,
  readLanded,
} from '../src/server/db/landed-migrations';
import { TEST_DATABASE_URL, withDatabase } from './support/global-setup';
import { describeSchema } from './support/schema-catalog';
import { createTestDatabase, TEST_DB } from './support/test-db';

// One source of truth for the schema (decision 013): migrations that landed stay as they landed,
// databases migrated along the way end like fresh ones, and schema.ts needs no new migration.

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** The migrations of the project's first landing, which every later database started from. */
const FIRST_LANDING = ['0000_init', '0001_scale'];
mkdirSync(join(ROOT, '.tmp'), { recursive: true });

/** A scratch migrations folder with the given journal entries and their files. */
function migrationsFolder(entries: JournalEntry[]): string {
  const dir = mkdtempSync(join(ROOT, '.tmp', 'migrations-'));
  mkdirSync(join(dir, 'meta'));
  for (const { tag } of entries)
    cpSync(join(MIGRATIONS_DIR, `${tag}.sql`), join(dir, `${tag}.sql`));
  const journal = { version: '7', dialect: 'postgresql', entries };
  writeFileSync(join(dir, 'meta', '_journal.json'), JSON.stringify(journal, null, 2));
  return dir;
}

async function migrate(database: Database, migrationsFolder: string): Promise<void> {
  if (database.kind === 'postgres') await migratePg(database.db as never, { migrationsFolder });
  else await migratePglite(database.db as never, { migrationsFolder });
}

/** An empty database of the kind under test (PostgreSQL: named for global teardown to drop). */
async function emptyDatabase(): Promise<Database> {
  if (TEST_DB === 'pglite')
    return openDatabase({ pglite: await PGlite.create({ extensions: { pg_trgm } }) });
  const run = inject('pgTemplate').slice('lf_tpl_'.length);
  const name = `lf_t_${run}_steps_${process.pid}_${Date.now() % 1e6}`;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const database = await openDatabase({
    databaseUrl: withDatabase(TEST_DATABASE_URL, name),
    poolSize: 1,
  });
  return {
    ...database,
    close: async () => {
      await database.close();
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

describe('migrations', () => {
  // a new PGlite data dir and five migration runs: 10 s on a quiet machine, 50 s on a busy one
  it('a database migrated at the first landing, then one migration at a time, ends like a fresh one', async () => {
    const journal = readJournal();
    expect(journal.slice(0, FIRST_LANDING.length).map((e) => e.tag)).toEqual(FIRST_LANDING);
    const stepped = await emptyDatabase();
    const fresh = await createTestDatabase(); // the template: drizzle/ run in one go
    try {
      for (let n = FIRST_LANDING.length; n < journal.length; n++) {
        const folder = migrationsFolder(journal.slice(0, n));
        try {
          await migrate(stepped, folder);
        } finally {
          rmSync(folder, { recursive: true, force: true });
        }
      }
      await migrate(stepped, MIGRATIONS_DIR);
      const expected = await describeSchema(fresh.db);
      expect(expected.columns.length).toBeGreaterThan(50);
      expect(expected.triggers.length).toBeGreaterThan(10);
      expect(expected.migrations).toHaveLength(journal.length);
      expect(await describeSchema(stepped.db)).toEqual(expected);
    } finally {
      await Promise.all([stepped.close(), fresh.close()]);
    }
  }, 180_000);
});

describe(`landed migrations (drizzle/${LANDED_FILE})`, () => {
  it('are as they landed, come first in the journal, and journal times increase', () => {
    expect(landedProblems()).toEqual([]);
    expect(readLanded().map((m) => m.entry.tag)).toEqual(expect.arrayContaining(FIRST_LANDING));
  });

  it('holds every migration of the journal (the commit that adds one runs scripts/land-migrations.ts)', () => {
    // 0009-0035 went unpinned for weeks because nothing asked for them: a migration on main is a
    // migration that landed
    expect(readLanded().map((m) => m.entry.tag)).toEqual(readJournal().map((e) => e.tag));
  });

  it('an edited landed migration, a changed journal entry and a time out of order are caught', () => {
    const dir = mkdtempSync(join(ROOT, '.tmp', 'migrations-'));
    try {
      cpSync(MIGRATIONS_DIR, dir, { recursive: true });
      appendFileSync(join(dir, '0002_engine.sql'), '\n-- a late edit\n');
      const journalFile = join(dir, 'meta', '_journal.json');
      const journal = JSON.parse(readFileSync(journalFile, 'utf8'));
      journal.entries[1].breakpoints = false;
      const newest: string = journal.entries.at(-1).tag;
      journal.entries.push({ ...journal.entries.at(-1), idx: 9, tag: '0009_late', when: 1 });
      writeFileSync(journalFile, JSON.stringify(journal, null, 2));
      expect(landedProblems(dir)).toEqual([
        expect.stringMatching(/^the journal entry of 0001_scale changed after it landed/),
        expect.stringMatching(/^0002_engine\.sql changed after it landed/),
        expect.stringMatching(new RegExp(`^0009_late: its journal time is not after ${newest}'s`)),
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

function filesWithHashes(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    files[relative(dir, path)] = createHash('sha256').update(readFileSync(path)).digest('hex');
  }
  return files;
}

// Once per run (it reads files only): in the PGlite project.
describe.runIf(TEST_DB === 'pglite')('drizzle-kit generate', () => {
  it('writes nothing: drizzle/ holds every change of db/schema.ts', async () => {
    const dir = mkdtempSync(join(ROOT, '.tmp', 'drizzle-generate-'));
    try {
      const out = join(dir, 'out');
      cpSync(MIGRATIONS_DIR, out, { recursive: true });
      // the project's config with another out folder (drizzle-kit wants it relative to the root)
      const config = join(dir, 'drizzle.config.ts');
      writeFileSync(
        config,
        `import config from '${relative(dir, join(ROOT, 'drizzle.config'))}';\n` +
          `export default { ...config, out: '${relative(ROOT, out)}' };\n`,
      );
      const before = filesWithHashes(out);
      const { stdout } = await promisify(execFile)(
        join(ROOT, 'node_modules', '.bin', 'drizzle-kit'),
        ['generate', '--config', config],
        { cwd: ROOT, timeout: 100_000 },
      );
      expect(filesWithHashes(out), `drizzle-kit generate wrote a migration:\n${stdout}`).toEqual(
        before,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
