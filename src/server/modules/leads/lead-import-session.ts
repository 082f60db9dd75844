/**
 * The database side of an import: one transaction per import, the rows sent with COPY.
 *
 * PostgreSQL: a dedicated pool client, COPY FROM STDIN (pg-copy-streams). PGlite: COPY FROM
 * '/dev/blob' with the batch as a Blob. Either way each batch first goes straight into `leads`
 * under a savepoint (the fast path: COPY costs a fraction of an INSERT ... SELECT); a batch that
 * holds an externalId already stored fails on the unique index, rolls back to its savepoint and
 * goes through a temporary staging table and INSERT ... ON CONFLICT (external_id) DO NOTHING,
 * which stores the new rows and counts the others as duplicates. The unique index decides.
 */
import type { PGlite, Transaction } from '@electric-sql/pglite';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { Database } from '../../db/client';
import { LEAD_COPY_COLUMNS } from './lead-copy-format';

/** Serializes imports across processes ('LFIM'): a second import waits for the first to end. */
export const IMPORT_LOCK_KEY = 0x4c46494d;

/** The statements an import runs inside its transaction, the same on both engines. */
export interface ImportSession {
  /** COPY text rows into a table (columns included in `target`); answers the rows copied. */
  copy(target: string, data: string): Promise<number>;
  /** One statement; answers the rows it touched. */
  run(statement: string, params?: unknown[]): Promise<number>;
}

export interface StoredBatch {
  imported: number;
  /** rows whose externalId was already stored: skipped, not stored twice */
  duplicates: number;
}

/** Runs `work` in one transaction of its own (committed if it returns, rolled back if it throws). */
export async function inImportTransaction<T>(
  database: Database,
  work: (session: ImportSession) => Promise<T>,
): Promise<T> {
  if (database.pool) return inPostgresTransaction(database.pool, work);
  if (database.pglite) return inPgliteTransaction(database.pglite, work);
  throw new Error('database has neither a pool nor a PGlite engine');
}

async function inPostgresTransaction<T>(
  pool: pg.Pool,
  work: (session: ImportSession) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  let broken = false;
  // a connection lost while no statement runs is reported as an event: keep it from being an
  // uncaught error (the next statement fails and the import with it)
  const onError = () => {
    broken = true;
  };
  client.on('error', onError);
  try {
    await client.query('begin');
    await client.query('select pg_advisory_xact_lock($1)', [IMPORT_LOCK_KEY]);
    const session: ImportSession = {
      copy: (target, data) => copyIn(client, `copy ${target} from stdin`, data),
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
  } finally {
    client.off('error', onError);
    client.release(broken);
  }
}

function copyIn(client: pg.PoolClient, statement: string, data: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const stream = client.query(copyFrom(statement));
    stream.on('error', reject);
    stream.on('finish', () => resolve(stream.rowCount));
    stream.end(data);
  });
}

async function inPgliteTransaction<T>(
  pglite: PGlite,
  work: (session: ImportSession) => Promise<T>,
): Promise<T> {
  return pglite.transaction(async (tx: Transaction) => {
    const session: ImportSession = {
      copy: async (target, data) => {
        const result = await tx.query(`copy ${target} from '/dev/blob'`, [], {
          blob: new Blob([data]),
        });
        return result.affectedRows ?? 0;
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
 * Writes an import's batches into `leads` within its transaction. Duplicates come in runs (a
 * file imported again), so after a batch that held some, the next one goes straight to the
 * staging path; a staging batch without duplicates switches back to direct COPY.
 */
export class LeadBatchWriter {
  private stagingReady = false;
  private expectDuplicates = false;

  constructor(private readonly session: ImportSession) {}

  async write(rows: string, count: number): Promise<StoredBatch> {
    if (count === 0) return { imported: 0, duplicates: 0 };
    if (!this.expectDuplicates) {
      await this.session.run('savepoint lead_batch');
      try {
        const copied = await this.session.copy(`leads (${LEAD_COPY_COLUMNS})`, rows);
        await this.session.run('release savepoint lead_batch');
        return { imported: copied, duplicates: count - copied };
      } catch (err) {
        if (!isDuplicateExternalId(err)) throw err;
        await this.session.run('rollback to savepoint lead_batch');
        this.expectDuplicates = true;
      }
    }
    const stored = await this.viaStaging(rows, count);
    this.expectDuplicates = stored.duplicates > 0;
    return stored;
  }

  private async viaStaging(rows: string, count: number): Promise<StoredBatch> {
    if (this.stagingReady) {
      await this.session.run('truncate lead_import_staging');
    } else {
      await this.session.run(
        `create temp table lead_import_staging (
           external_id text, first_name text, last_name text, phone text, email text,
           city text, state text, age integer, category lead_category, import_id integer
         ) on commit drop`,
      );
      this.stagingReady = true;
    }
    await this.session.copy(`lead_import_staging (${LEAD_COPY_COLUMNS})`, rows);
    const imported = await this.session.run(
      `insert into leads (${LEAD_COPY_COLUMNS})
       select ${LEAD_COPY_COLUMNS} from lead_import_staging
       on conflict (external_id) do nothing`,
    );
    return { imported, duplicates: count - imported };
  }
}
