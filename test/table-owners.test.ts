/**
 * Each table has one owning module that writes it (docs/ARCHITECTURE.md, "Who writes each
 * table"); other modules ask its service. Import rules cannot see SQL, so this test reads every
 * server file, finds the tables it writes, and fails when a module writes a table it does not own,
 * when a table has no owner, or when the documented map names a table the schema lacks.
 * Not about a database: it runs once, in the PGlite project.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  documentedOwners,
  moduleOf,
  readText,
  schemaTables,
  serverFiles,
  tablesWritten,
} from './support/table-writes';
import { TEST_DB } from './support/test-db';

const ROOT = path.resolve(import.meta.dirname, '..');
const tables = schemaTables(readText(path.join(ROOT, 'src/server/db/schema.ts')));
const owners = documentedOwners(readText(path.join(ROOT, 'docs/ARCHITECTURE.md')));

/** "module writes table" for every write a module makes to a table it does not own. */
function trespasses(files: { file: string; text: string }[]): string[] {
  const out: string[] = [];
  for (const { file, text } of files) {
    const module = moduleOf(file);
    for (const table of tablesWritten(text, tables)) {
      if (owners.get(table) !== module)
        out.push(
          `${path.relative(ROOT, file)} (${module}) writes ${table}, owned by ${owners.get(table) ?? 'nobody'}`,
        );
    }
  }
  return out;
}

describe.runIf(TEST_DB === 'pglite')('who writes each table', () => {
  it('the documented map names every table of the schema, and only those', () => {
    expect([...owners.keys()].sort()).toEqual([...new Set(tables.values())].sort());
  });

  it('every table is written by its owner only', () => {
    const files = serverFiles(ROOT).map((file) => ({ file, text: readText(file) }));
    // the reader finds the writes there are: the leads module writes leads and lead_history
    const leadWriters = files.filter((f) => tablesWritten(f.text, tables).includes('leads'));
    expect(leadWriters.map((f) => moduleOf(f.file))).toContain('leads');
    expect(trespasses(files)).toEqual([]);
  });

  it("a deliberate write to another module's table is caught, in SQL and through Drizzle", () => {
    const file = path.join(ROOT, 'src/server/modules/returns/returns.repository.ts');
    const sqlWrite = "await tx.execute(sql`update leads set status = 'INVALID' where id = 1`);";
    const drizzleWrite = 'await db.insert(leadHistory).values(row);';
    const outside = path.join(ROOT, 'src/server/jobs/stray.ts');
    expect(
      trespasses([
        { file, text: sqlWrite },
        { file, text: drizzleWrite },
        { file, text: '// a comment may say: update leads set status' },
        { file: outside, text: 'await db.delete(sessions);' },
      ]),
    ).toEqual([
      'src/server/modules/returns/returns.repository.ts (returns) writes leads, owned by leads',
      'src/server/modules/returns/returns.repository.ts (returns) writes lead_history, owned by leads',
      'src/server/jobs/stray.ts ((outside modules)) writes sessions, owned by auth',
    ]);
  });
});
