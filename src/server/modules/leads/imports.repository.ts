import { and, desc, eq } from 'drizzle-orm';
import type { ImportRecord } from '../../../shared/contracts/leads';
import type { Db } from '../../db/client';
import { imports } from '../../db/schema';
import { progressOf } from './import-progress';

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
