/**
 * Which tables a source file writes: SQL text (insert into, update ... set, delete from, copy,
 * truncate) and Drizzle's builders (.insert(t), .update(t), .delete(t) with a table of the
 * schema). Comments are left out, so a sentence about a table is not a write.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** The schema's tables: variable name -> table name. */
export function schemaTables(schemaText: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of schemaText.matchAll(/export const (\w+) = pgTable\(\s*'(\w+)'/g))
    out.set(m[1], m[2]);
  return out;
}

function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
}

/** The tables `text` writes, among the schema's. */
export function tablesWritten(text: string, tables: Map<string, string>): string[] {
  const names = new Set(tables.values());
  const code = withoutComments(text);
  const found = new Set<string>();
  for (const m of code.matchAll(
    /\b(?:insert\s+into|update|delete\s+from|copy|truncate(?:\s+table)?)\s+([a-z_]+)\b/gi,
  )) {
    if (names.has(m[1])) found.add(m[1]);
  }
  for (const m of code.matchAll(/\.(?:insert|update|delete)\(\s*(\w+)\s*\)/g)) {
    const table = tables.get(m[1]);
    if (table) found.add(table);
  }
  return [...found].sort();
}

/** The module a server file belongs to: its folder under modules/, or "(outside modules)". */
export function moduleOf(file: string): string {
  const m = file.replace(/\\/g, '/').match(/src\/server\/modules\/([^/]+)\//);
  return m ? m[1] : '(outside modules)';
}

/** Every server source file (tests left out). */
export function serverFiles(root: string): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)],
    );
  return walk(path.join(root, 'src/server')).filter(
    (f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.endsWith('.d.ts'),
  );
}

/** The owners' map as docs/ARCHITECTURE.md states it: the rows of "Who writes each table". */
export function documentedOwners(architecture: string): Map<string, string> {
  const start = architecture.indexOf('### Who writes each table');
  if (start < 0) throw new Error('docs/ARCHITECTURE.md has no "Who writes each table" section');
  const section = architecture.slice(start).split(/\n#{2,3} /)[0];
  const owners = new Map<string, string>();
  for (const m of section.matchAll(/^\| `([a-z_]+)` \| ([a-z-]+) \|/gm)) owners.set(m[1], m[2]);
  return owners;
}

export function readText(file: string): string {
  return readFileSync(file, 'utf8');
}
