/**
 * An import's connection on PostgreSQL: a dedicated pool client that holds the import record's
 * lock for as long as the import runs, and COPY FROM STDIN (pg-copy-streams) written while the
 * file is still being parsed (the database and this process work side by side).
 */
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { CopyIn, ImportConnection, ImportSession } from './import-connection';
import { insertLockedImportRecord, type NewImport } from './imports.repository';

/** Serializes imports across processes ('LFIM'): a second import waits for the first to end. */
export const IMPORT_LOCK_KEY = 0x4c46494d;

/**
 * Work inside the transaction an import runs in (SET LOCAL lasts until its end). work_mem: the
 * leads insert trigger keeps each group's rows as its transition table (~7 MB for a group),
 * which spilled to a temporary file at the default 4 MB.
 */
const TRANSACTION_SETTINGS = "set local work_mem = '32MB'";

export async function withPostgresConnection<T>(
  pool: pg.Pool,
  record: NewImport,
  body: (connection: ImportConnection) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  let broken = false;
  // a connection lost while no statement runs is reported as an event: keep it from being an
  // uncaught error (the next statement fails, and the import with it)
  const onError = () => {
    broken = true;
  };
  client.on('error', onError);
  try {
    const importId = await insertLockedImportRecord(
      async (statement, params) => (await client.query(statement, params)).rows,
      record,
    );
    const transaction = async <U>(work: (session: ImportSession) => Promise<U>): Promise<U> => {
      try {
        await client.query('begin');
        await client.query('select pg_advisory_xact_lock($1)', [IMPORT_LOCK_KEY]);
        await client.query(TRANSACTION_SETTINGS);
        const session: ImportSession = {
          copy: (target) => copyStream(client, `copy ${target} from stdin`),
          run: async (statement, params) => (await client.query(statement, params)).rowCount ?? 0,
          query: async <R>(statement: string, params?: unknown[]) =>
            (await client.query(statement, params)).rows as R[],
          // the group's check against the committed leads, on another pooled connection, while
          // this one takes the COPY before it in (lead-group-writer.ts)
          readCommitted: async <R>(statement: string, params?: unknown[]) =>
            (await pool.query(statement, params)).rows as R[],
        };
        const result = await work(session);
        await client.query('commit');
        return result;
      } catch (err) {
        await client.query('rollback').catch(() => {
          broken = true; // the connection is gone or unusable: do not hand it back to the pool
        });
        throw err;
      }
    };
    return await body({ importId, transaction });
  } finally {
    // the session lock must not outlive the import on a pooled connection: if it cannot be let
    // go, the connection is destroyed, which ends its locks
    if (!broken) {
      await client.query('select pg_advisory_unlock_all()').catch(() => {
        broken = true;
      });
    }
    client.off('error', onError);
    client.release(broken);
  }
}

function copyStream(client: pg.PoolClient, statement: string): CopyIn {
  const stream = client.query(copyFrom(statement));
  let failure: Error | null = null;
  const done = new Promise<number>((resolve, reject) => {
    stream.on('error', (err) => {
      failure = err;
      reject(err);
    });
    stream.on('finish', () => resolve(stream.rowCount));
  });
  done.catch(() => {}); // taken by end(); a write may see the failure first
  return {
    write: async (rows) => {
      if (failure) throw failure;
      if (stream.write(rows)) return;
      // the socket is full: wait until the database has taken it in (or the COPY failed)
      await new Promise<void>((resolve, reject) => {
        const onDrain = () => {
          stream.off('error', onFail);
          resolve();
        };
        const onFail = (err: Error) => {
          stream.off('drain', onDrain);
          reject(err);
        };
        stream.once('drain', onDrain);
        stream.once('error', onFail);
      });
    },
    end: () => {
      if (!failure) stream.end();
      return done;
    },
    abort: async () => {
      if (failure) return;
      // CopyFail: the server ends the COPY with an error, then takes statements again
      stream.destroy(new Error('import cancelled'));
      await done.catch(() => {});
    },
  };
}
