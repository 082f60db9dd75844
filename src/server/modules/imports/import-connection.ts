/**
 * The database side of an import: one transaction per import, the rows sent with COPY.
 *
 * PostgreSQL: a dedicated pool client, COPY FROM STDIN (pg-copy-streams), written while the file
 * is still being parsed (the database and this process work side by side). PGlite: COPY FROM
 * '/dev/blob' with the rows as a Blob. Either way the rows go in groups, each straight into
 * `leads` under a savepoint (the fast path: COPY costs a fraction of an INSERT ... SELECT). A
 * group holding an externalId already stored fails on the unique index, rolls back to its
 * savepoint and goes again through a temporary staging table and INSERT ... ON CONFLICT
 * (external_id) DO NOTHING, which stores the new rows and counts the others as duplicates. The
 * unique index decides.
 */
import type { PGlite, Transaction } from '@electric-sql/pglite';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { Database } from '../../db/client';
import { LEAD_COPY_COLUMNS } from './lead-copy-format';

/** Serializes imports across processes ('LFIM'): a second import waits for the first to end. */
export const IMPORT_LOCK_KEY = 0x4c46494d;

/** One COPY in progress: rows go in as they come, `end` answers the rows copied. */
export interface CopyIn {
  write(rows: string): Promise<void>;
  end(): Promise<number>;
  /** gives the COPY up (its rows are not stored); the connection is usable again after */
  abort(): Promise<void>;
}

/** The statements an import runs inside its transaction, the same on both engines. */
export interface ImportSession {
  /** starts COPY into a table (`target` names its columns) */
  copy(target: string): CopyIn;
  /** one statement; answers the rows it touched */
  run(statement: string, params?: unknown[]): Promise<number>;
}

export interface StoredGroup {
  imported: number;
  /** rows whose externalId was already stored: skipped, not stored twice */
  duplicates: number;
}

/**
 * Advisory lock class of a running import ('LFIR'), keyed by its id: held by the import's own
 * connection (session-level) from the moment its record exists until it ended, so a RUNNING
 * record whose lock nobody holds belongs to a process that died (see failAbandonedImports).
 */
export const IMPORT_RECORD_LOCK = 0x4c464952;

/**
 * Work inside the transaction an import runs in (SET LOCAL lasts until its end). work_mem: the
 * leads insert trigger keeps each group's rows as its transition table (~7 MB for a group),
 * which spilled to a temporary file at the default 4 MB.
 */
const TRANSACTION_SETTINGS = "set local work_mem = '32MB'";

/** The record of an import to create: its id comes back, held by this connection. */
export interface NewImport {
  userId: number;
  filename: string;
}

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
  if (database.pglite) {
    const pglite = database.pglite;
    const result = await pglite.query<{ id: number }>(
      'insert into imports (user_id, filename) values ($1, $2) returning id',
      [record.userId, record.filename],
    );
    return body({
      importId: result.rows[0].id,
      transaction: (work) => inPgliteTransaction(pglite, work),
    });
  }
  throw new Error('database has neither a pool nor a PGlite engine');
}

async function withPostgresConnection<T>(
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
    const { rows } = await client.query<{ id: number }>(
      `with r as (insert into imports (user_id, filename) values ($1, $2) returning id)
       select id, pg_advisory_lock($3, id) from r`,
      [record.userId, record.filename, IMPORT_RECORD_LOCK],
    );
    const importId = rows[0].id;
    const transaction = async <U>(work: (session: ImportSession) => Promise<U>): Promise<U> => {
      try {
        await client.query('begin');
        await client.query('select pg_advisory_xact_lock($1)', [IMPORT_LOCK_KEY]);
        await client.query(TRANSACTION_SETTINGS);
        const session: ImportSession = {
          copy: (target) => copyStream(client, `copy ${target} from stdin`),
          run: async (statement, params) => (await client.query(statement, params)).rowCount ?? 0,
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
        const parts: string[] = [];
        return {
          write: async (rows) => {
            parts.push(rows);
          },
          end: async () => {
            const result = await tx.query(`copy ${target} from '/dev/blob'`, [], {
              blob: new Blob(parts),
            });
            return result.affectedRows ?? 0;
          },
          abort: async () => {
            parts.length = 0;
          },
        };
      },
      run: async (statement, params) => (await tx.query(statement, params)).affectedRows ?? 0,
    };
    return work(session);
  });
}

function isDuplicateExternalId(err: unknown): boolean {
  const e = err as { code?: string; constraint?: string; message?: string };
  return (
    e?.code === '23505' &&
    (e.constraint === 'leads_external_id_key' || /leads_external_id_key/.test(e.message ?? ''))
  );
}

/**
 * Writes an import's rows into `leads` within its transaction, one group (one COPY, one
 * savepoint) at a time: `add` streams rows into the open group, `endGroup` closes it. The
 * group's rows are kept until then, for the staging path. Duplicates come in runs (a file
 * imported again), so after a group that held some the next one goes straight to staging; a
 * staging group without duplicates switches back to direct COPY.
 */
export class LeadGroupWriter {
  private stagingReady = false;
  private expectDuplicates = false;
  private copy: CopyIn | null = null;
  private copyFailed: unknown = null;
  private rows: string[] = [];
  private count = 0;

  constructor(private readonly session: ImportSession) {}

  /** rows in the open group */
  get size(): number {
    return this.count;
  }

  async add(rows: string, count: number): Promise<void> {
    if (count === 0) return;
    if (!this.copy) await this.open();
    this.rows.push(rows);
    this.count += count;
    if (this.copyFailed) return;
    try {
      await this.copy?.write(rows);
    } catch (err) {
      this.copyFailed = err;
    }
  }

  async endGroup(): Promise<StoredGroup> {
    if (!this.copy) return { imported: 0, duplicates: 0 };
    const { rows, count } = this;
    const copy = this.copy;
    this.copy = null;
    this.rows = [];
    this.count = 0;
    let copied = 0;
    try {
      copied = await copy.end();
      if (this.copyFailed) throw this.copyFailed;
    } catch (err) {
      this.copyFailed = null;
      if (this.expectDuplicates || !isDuplicateExternalId(err)) throw err;
      await this.session.run('rollback to savepoint lead_group');
      this.expectDuplicates = true;
      const stored = await this.viaStaging(rows, count);
      this.expectDuplicates = stored.duplicates > 0;
      return stored;
    }
    if (this.expectDuplicates) {
      const imported = await this.insertFromStaging();
      this.expectDuplicates = imported < count;
      return { imported, duplicates: count - imported };
    }
    await this.session.run('release savepoint lead_group');
    return { imported: copied, duplicates: count - copied };
  }

  /** Gives the open group up, so that the transaction can be rolled back. */
  async abort(): Promise<void> {
    const copy = this.copy;
    this.copy = null;
    this.rows = [];
    this.count = 0;
    await copy?.abort();
  }

  private async open(): Promise<void> {
    if (this.expectDuplicates) {
      await this.prepareStaging();
      this.copy = this.session.copy(`lead_import_staging (${LEAD_COPY_COLUMNS})`);
    } else {
      await this.session.run('savepoint lead_group');
      this.copy = this.session.copy(`leads (${LEAD_COPY_COLUMNS})`);
    }
  }

  private async viaStaging(rows: string[], count: number): Promise<StoredGroup> {
    await this.prepareStaging();
    const copy = this.session.copy(`lead_import_staging (${LEAD_COPY_COLUMNS})`);
    for (const part of rows) await copy.write(part);
    await copy.end();
    const imported = await this.insertFromStaging();
    return { imported, duplicates: count - imported };
  }

  private async prepareStaging(): Promise<void> {
    if (this.stagingReady) {
      await this.session.run('truncate lead_import_staging');
      return;
    }
    await this.session.run(
      `create temp table lead_import_staging (
         external_id text, first_name text, last_name text, phone text, email text,
         city text, state text, age integer, category lead_category, import_id integer
       ) on commit drop`,
    );
    this.stagingReady = true;
  }

  private insertFromStaging(): Promise<number> {
    return this.session.run(
      `insert into leads (${LEAD_COPY_COLUMNS})
       select ${LEAD_COPY_COLUMNS} from lead_import_staging
       on conflict (external_id) do nothing`,
    );
  }
}
