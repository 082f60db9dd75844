/**
 * The one place that declares the SQL functions and triggers of the schema, with their current
 * definitions: src/server/db/sql/<function>.sql holds one function (CREATE OR REPLACE FUNCTION) and
 * the triggers that call it (CREATE OR REPLACE TRIGGER), separated by drizzle's statement
 * breakpoints. Drizzle's schema.ts cannot express them, so migrations alone used to hold them.
 *
 * To add or change one: edit (or add) its file here AND write a custom migration that runs the
 * same statements (`npx drizzle-kit generate --custom --name <what>`, then copy the file's text
 * into the new drizzle/NNNN_<what>.sql). Never edit a landed migration instead. To drop one, delete
 * its file and drop it in a custom migration. test/schema-functions.test.ts holds the two in step:
 * every declared statement must leave a migrated database unchanged, and every function or
 * trigger the database has must be declared here. See docs/decisions/013-schema-source-of-truth.md.
 *
 * Files, not TypeScript strings: the SQL is kept verbatim (a template literal would turn the
 * search document's E'\x1f' into the character itself), and a file pastes into a migration as is.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const SQL_FUNCTIONS_DIR = fileURLToPath(new URL('./sql', import.meta.url));

export interface DeclaredSql {
  kind: 'function' | 'trigger';
  name: string;
  /** the table a trigger is on */
  table?: string;
  /** the CREATE OR REPLACE statement, with the comment lines above it */
  statement: string;
  file: string;
}

const HEAD = /^CREATE OR REPLACE (FUNCTION|TRIGGER) ([a-z_][a-z0-9_]*)\b/i;
const TRIGGER_TABLE = /\bON ([a-z_][a-z0-9_]*)\s/i;

/** Every declared function and trigger, read from the files (they are only read by tests). */
export function loadSqlFunctions(dir = SQL_FUNCTIONS_DIR): DeclaredSql[] {
  const declared: DeclaredSql[] = [];
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.sql'))
    .sort()) {
    const text = readFileSync(join(dir, file), 'utf8');
    for (const chunk of text.split('--> statement-breakpoint')) {
      const statement = chunk.trim();
      const code = statement
        .split('\n')
        .filter((line) => !line.startsWith('--'))
        .join('\n')
        .trim();
      const head = HEAD.exec(code);
      if (!head)
        throw new Error(`${file}: each statement must be CREATE OR REPLACE FUNCTION or TRIGGER`);
      const kind = head[1].toLowerCase() as DeclaredSql['kind'];
      const name = head[2].toLowerCase();
      if (kind === 'function' && file !== `${name}.sql`)
        throw new Error(`${file}: declares function ${name}, expected in ${name}.sql`);
      const table = kind === 'trigger' ? TRIGGER_TABLE.exec(code)?.[1].toLowerCase() : undefined;
      declared.push({ kind, name, table, statement, file });
    }
  }
  return declared;
}
