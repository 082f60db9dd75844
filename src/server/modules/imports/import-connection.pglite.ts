/**
 * An import's connection on PGlite: the one connection there is, in this process (which knows
 * its own running imports, so the record needs no lock), and COPY FROM '/dev/blob'.
 */
import type { PGlite, Transaction } from '@electric-sql/pglite';
import type { Db } from '../../db/client';
import type { ImportConnection, ImportSession } from './import-connection';
import { insertImportRecord, type NewImport } from './imports.repository';

export async function withPgliteConnection<T>(
  db: Db,
  pglite: PGlite,
  record: NewImport,
  body: (connection: ImportConnection) => Promise<T>,
): Promise<T> {
  const importId = await insertImportRecord(db, record);
  return body({ importId, transaction: (work) => inPgliteTransaction(pglite, work) });
}

async function inPgliteTransaction<T>(
  pglite: PGlite,
  work: (session: ImportSession) => Promise<T>,
): Promise<T> {
  return pglite.transaction(async (tx: Transaction) => {
    // no larger work_mem here: PGlite's groups are small enough for the default (see
    // PGLITE_IMPORT_GROUP_ROWS), and memory the WASM heap takes is never given back
    const session: ImportSession = {
      // PGlite runs in this thread: gather the group, then one COPY of it as a Blob
      copy: (target) => {
        const parts: Uint8Array[] = [];
        return {
          write: async (rows) => {
            parts.push(rows);
          },
          end: async () => {
            const result = await tx.query(`copy ${target} from '/dev/blob'`, [], {
              // the writer's bytes are a Buffer's, never a SharedArrayBuffer's
              blob: new Blob(parts as BlobPart[]),
            });
            return result.affectedRows ?? 0;
          },
          abort: async () => {
            parts.length = 0;
          },
        };
      },
      run: async (statement, params) => (await tx.query(statement, params)).affectedRows ?? 0,
      query: async <R>(statement: string, params?: unknown[]) =>
        (await tx.query<R>(statement, params)).rows,
    };
    return work(session);
  });
}
