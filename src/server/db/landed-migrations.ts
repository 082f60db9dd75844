/**
 * Landed migrations are never edited again (decision 013): a database that ran one keeps what it
 * ran, so an edit would only reach fresh databases. drizzle/landed.sha256 lists each landed
 * migration with the SHA-256 of its file (the hash drizzle records in drizzle.__drizzle_migrations)
 * and its journal entry as it landed; test/schema-migrations.test.ts checks the folder against it
 * and scripts/land-migrations.ts adds the migrations that land with a change.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { MIGRATIONS_DIR } from './client';

export interface JournalEntry {
  idx: number;
  version: string;
  when: number;
  tag: string;
  breakpoints: boolean;
}

export interface LandedMigration {
  sha256: string;
  entry: JournalEntry;
}

export const LANDED_FILE = 'landed.sha256';

export function readJournal(dir = MIGRATIONS_DIR): JournalEntry[] {
  return JSON.parse(readFileSync(`${dir}/meta/_journal.json`, 'utf8')).entries;
}

export function migrationSha256(tag: string, dir = MIGRATIONS_DIR): string | undefined {
  const file = `${dir}/${tag}.sql`;
  if (!existsSync(file)) return undefined;
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

const LINE = /^([0-9a-f]{64}) {2}(\S+) {2}(\{.*\})$/;

export function readLanded(dir = MIGRATIONS_DIR): LandedMigration[] {
  const landed: LandedMigration[] = [];
  for (const line of readFileSync(`${dir}/${LANDED_FILE}`, 'utf8').split('\n')) {
    if (line.trim() === '' || line.startsWith('#')) continue;
    const m = LINE.exec(line);
    if (!m) throw new Error(`${LANDED_FILE}: cannot read the line "${line}"`);
    const entry = JSON.parse(m[3]) as JournalEntry;
    if (entry.tag !== m[2])
      throw new Error(`${LANDED_FILE}: ${m[2]} has the journal entry of ${entry.tag}`);
    landed.push({ sha256: m[1], entry });
  }
  return landed;
}

export function landedLine({ sha256, entry }: LandedMigration): string {
  return `${sha256}  ${entry.tag}  ${JSON.stringify(entry)}`;
}

/**
 * What breaks the rules in a migrations folder: a landed migration's file or journal entry that
 * changed or went, a landed one after an unlanded one, or a journal time that does not increase
 * (drizzle's migrator skips a migration whose time is not after the last one a database ran).
 */
export function landedProblems(dir = MIGRATIONS_DIR): string[] {
  const problems: string[] = [];
  const journal = readJournal(dir);
  const landed = readLanded(dir);
  landed.forEach(({ sha256, entry }, i) => {
    const { tag } = entry;
    const now = migrationSha256(tag, dir);
    if (now === undefined) problems.push(`${tag}.sql landed and is gone`);
    else if (now !== sha256) problems.push(`${tag}.sql changed after it landed (sha256 ${now})`);
    const current = journal.find((e) => e.tag === tag);
    if (!current) problems.push(`the journal entry of ${tag} landed and is gone`);
    else if (!isDeepStrictEqual(current, entry))
      problems.push(
        `the journal entry of ${tag} changed after it landed: ${JSON.stringify(current)}`,
      );
    else if (journal[i] !== current)
      problems.push(`${tag} landed, but the journal puts it after a migration that did not`);
  });
  for (let i = 1; i < journal.length; i++) {
    if (!(journal[i].when > journal[i - 1].when))
      problems.push(
        `${journal[i].tag}: its journal time is not after ${journal[i - 1].tag}'s, so databases ` +
          'that ran that one would skip it',
      );
  }
  return problems;
}
