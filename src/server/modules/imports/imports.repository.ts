/**
 * Every statement on `imports`. Most run through drizzle on the app's pool; those that must run
 * on the import's own connection (its record's lock, its transaction) take that connection.
 */
import { and, desc, eq, sql } from 'drizzle-orm';
import type { ImportRecord, ImportRowError } from '../../../shared/contracts/leads';
import { type Database, type Db, queryRows } from '../../db/client';
import { imports } from '../../db/schema';
import type { ImportSession } from './import-connection';
import { type ImportProgress, progressOf, runningImportIds } from './import-progress';

/**
 * Advisory lock class of a running import ('LFIR'), keyed by its id: held by the import's own
 * connection (session-level) from the moment its record exists until it ended, so a RUNNING
 * record whose lock nobody holds belongs to a process that died (see failAbandonedImports).
 */
export const IMPORT_RECORD_LOCK = 0x4c464952;

/** The record of an import to create. */
export interface NewImport {
  userId: number;
  filename: string;
  /** the source the upload names (its leads carry it too), if any */
  sourceId: number | null;
}

/** One statement on a connection the caller holds outside drizzle's pool; answers its rows. */
export type HeldConnectionQuery = (statement: string, params: unknown[]) => Promise<unknown[]>;

/** The running figures of an import, as its record stores them. */
export type ImportFigures = Pick<
  ImportProgress,
  'rowsSeen' | 'imported' | 'duplicates' | 'dnc' | 'suppressed' | 'consent' | 'errorCount'
>;

/** Creates a RUNNING record (PGlite: one connection, this process knows its running imports). */
export async function insertImportRecord(db: Db, record: NewImport): Promise<number> {
  const [row] = await db
    .insert(imports)
    .values({ userId: record.userId, filename: record.filename, sourceId: record.sourceId })
    .returning({ id: imports.id });
  return row.id;
}

/**
 * Creates a RUNNING record and takes its lock (IMPORT_RECORD_LOCK) on `query`'s connection, in
 * one statement: there is no moment at which the record is RUNNING and unlocked.
 */
export async function insertLockedImportRecord(
  query: HeldConnectionQuery,
  record: NewImport,
): Promise<number> {
  const rows = (await query(
    `with r as (insert into imports (user_id, filename, source_id) values ($1, $2, $4) returning id)
     select id, pg_advisory_lock($3, id) from r`,
    [record.userId, record.filename, IMPORT_RECORD_LOCK, record.sourceId],
  )) as { id: number }[];
  return rows[0].id;
}

/** Copies a running import's figures into its record (over the pool, outside its transaction). */
export async function saveImportFigures(
  db: Db,
  importId: number,
  figures: ImportFigures,
): Promise<void> {
  await db
    .update(imports)
    .set({
      rowsSeen: figures.rowsSeen,
      imported: figures.imported,
      duplicates: figures.duplicates,
      dnc: figures.dnc,
      suppressed: figures.suppressed,
      consent: figures.consent,
      errorCount: figures.errorCount,
    })
    .where(and(eq(imports.id, importId), eq(imports.status, 'RUNNING')));
}

/** Marks the import DONE, inside its own transaction (it commits with the rows). */
export async function markImportDone(
  session: Pick<ImportSession, 'run'>,
  importId: number,
  figures: ImportFigures,
  errors: readonly ImportRowError[],
  refusedLines: readonly ImportRowError[],
): Promise<void> {
  await session.run(
    `update imports set status = 'DONE', rows_seen = $2, imported = $3, duplicates = $4,
            error_count = $5, errors = $6::jsonb, dnc = $8, suppressed = $9, duplicate_lines = $7::jsonb,
            consent = $10, finished_at = now()
      where id = $1`,
    [
      importId,
      figures.rowsSeen,
      figures.imported,
      figures.duplicates,
      figures.errorCount,
      JSON.stringify(errors),
      JSON.stringify(refusedLines),
      figures.dnc,
      figures.suppressed,
      figures.consent,
    ],
  );
}

/** Marks the import FAILED (its transaction was rolled back: it stored nothing). */
export async function markImportFailed(
  db: Db,
  importId: number,
  rowsSeen: number,
  message: string,
): Promise<void> {
  await db
    .update(imports)
    .set({
      status: 'FAILED',
      rowsSeen,
      imported: 0,
      duplicates: 0,
      dnc: 0,
      suppressed: 0,
      consent: 0,
      message,
      finishedAt: sql`now()`,
    })
    .where(eq(imports.id, importId));
}

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
    dnc: Math.max(row.dnc, live?.dnc ?? 0),
    suppressed: Math.max(row.suppressed, live?.suppressed ?? 0),
    consent: Math.max(row.consent, live?.consent ?? 0),
    duplicateLines: row.duplicateLines,
    errors: row.errors,
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
 * lock on its own connection (insertLockedImportRecord), so a record whose lock can be taken has no
 * live owner; this process's own imports are known here (PGlite shares one session). Answers the
 * ids settled. Run at start and before each import.
 */
export async function failAbandonedImports(database: Database): Promise<number[]> {
  const own = runningImportIds();
  const rows = await queryRows<{ id: number }>(
    database.db,
    sql`update imports
           set status = 'FAILED', imported = 0, duplicates = 0, dnc = 0,
               message = ${ABANDONED_IMPORT_MESSAGE}, finished_at = now()
         where status = 'RUNNING'
           and not (id = any(${`{${own.join(',')}}`}::int[]))
           and pg_try_advisory_xact_lock(${IMPORT_RECORD_LOCK}::int, id)
     returning id`,
  );
  return rows.map((r) => r.id);
}
