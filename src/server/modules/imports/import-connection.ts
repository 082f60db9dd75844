/**
 * The database side of an import: one connection holding its record, one transaction per
 * import, the rows sent with COPY. PostgreSQL (import-connection.postgres.ts): a dedicated pool
 * client, COPY FROM STDIN written while the file is still being parsed. PGlite
 * (import-connection.pglite.ts): COPY FROM '/dev/blob' with each group's rows as a Blob. The
 * rows themselves are written by lead-group-writer.ts, the same on both.
 */
import type { Database } from '../../db/client';
import type { BulkSession, CopyIn } from '../leads/lead-life.service';
import { withPgliteConnection } from './import-connection.pglite';
import { withPostgresConnection } from './import-connection.postgres';
import type { NewImport } from './imports.repository';

export type { CopyIn };
/** The statements an import runs inside its transaction, the same on both engines. */
export type ImportSession = BulkSession;

export { IMPORT_LOCK_KEY } from './import-connection.postgres';

/** An import's connection: its record's id, and the one transaction that stores its rows. */
export interface ImportConnection {
  importId: number;
  /** Runs `work` in one transaction (committed if it returns, rolled back if it throws). */
  transaction<T>(work: (session: ImportSession) => Promise<T>): Promise<T>;
}

/**
 * Creates the import's record and runs `body` with the connection that holds it. PostgreSQL: a
 * dedicated pool client; the record is inserted and its lock taken in one statement, so there is
 * no moment at which the record is RUNNING and unlocked while this process lives. PGlite: one
 * connection and one process, which knows its own running imports (import-progress).
 */
export async function withImportConnection<T>(
  database: Database,
  record: NewImport,
  body: (connection: ImportConnection) => Promise<T>,
): Promise<T> {
  if (database.pool) return withPostgresConnection(database.pool, record, body);
  if (database.pglite) return withPgliteConnection(database.db, database.pglite, record, body);
  throw new Error('database has neither a pool nor a PGlite engine');
}
