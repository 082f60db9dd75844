import { and, desc, eq, sql } from 'drizzle-orm';
import type { ImportRecord } from '../../../shared/contracts/leads';
import { type Database, type Db, queryRows } from '../../db/client';
import { imports } from '../../db/schema';
import { IMPORT_RECORD_LOCK } from './import-connection';
import { progressOf, runningImportIds } from './import-progress';

/** Imports listed by GET /api/admin/imports. */
export const RECENT_IMPORTS = 20;

type ImportRow = typeof imports.$inferSelect;

/** The record, with the figures of this process while the import runs here (they are fresher). */
function toImportRecord(row: ImportRow): ImportRecord {
  const live = row.status === 'RUNNING' ? progressOf(row.id) : undefined;
  return {
    id: row.id,
    userId: row.userId,
    filename: row.filename,
    status: row.status,
    rowsSeen: Math.max(row.rowsSeen, live?.rowsSeen ?? 0),
    imported: Math.max(row.imported, live?.imported ?? 0),
    duplicates: Math.max(row.duplicates, live?.duplicates ?? 0),
    errorCount: Math.max(row.errorCount, live?.errorCount ?? 0),
    message: row.message,
    startedAt: row.startedAt.toISOString(),
    finishedAt: row.finishedAt ? row.finishedAt.toISOString() : null,
  };
}

export async function findImport(db: Db, id: number): Promise<ImportRecord | null> {
  const [row] = await db.select().from(imports).where(eq(imports.id, id)).limit(1);
  return row ? toImportRecord(row) : null;
}

/** The most recent imports, newest first, optionally with one status. */
export async function listImports(
  db: Db,
  filter: { status?: ImportRow['status'] },
): Promise<ImportRecord[]> {
  const rows = await db
    .select()
    .from(imports)
    .where(and(filter.status ? eq(imports.status, filter.status) : undefined))
    .orderBy(desc(imports.id))
    .limit(RECENT_IMPORTS);
  return rows.map(toImportRecord);
}

/** What a RUNNING import left by a process that died says once it is settled. */
export const ABANDONED_IMPORT_MESSAGE =
  'The import was interrupted (the server stopped) and stored nothing';

/**
 * Marks FAILED the imports left RUNNING by a process that died: their transaction was rolled
 * back with the connection, so they stored nothing. A running import holds its record's advisory
 * lock on its own connection (lead-import-session), so a record whose lock can be taken has no
 * live owner; this process's own imports are known here (PGlite shares one session). Answers the
 * ids settled. Run at start and before each import.
 */
export async function failAbandonedImports(database: Database): Promise<number[]> {
  const own = runningImportIds();
  const rows = await queryRows<{ id: number }>(
    database.db,
    sql`update imports
           set status = 'FAILED', imported = 0, duplicates = 0,
               message = ${ABANDONED_IMPORT_MESSAGE}, finished_at = now()
         where status = 'RUNNING'
           and not (id = any(${`{${own.join(',')}}`}::int[]))
           and pg_try_advisory_xact_lock(${IMPORT_RECORD_LOCK}::int, id)
     returning id`,
  );
  return rows.map((r) => r.id);
}
