import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { type SQL, sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { type PgDatabase, PgDialect, type PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import * as schema from './schema';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  kind: 'pglite' | 'postgres';
  db: Db;
  /**
   * where analytics, exports and the assignment's explanation read (DATABASE_READ_URL, a
   * replica); the main database when none is configured. Never written through.
   */
  readDb: Db;
  /** node-postgres pool (PostgreSQL only): for COPY streams and dedicated connections. */
  pool?: pg.Pool;
  /** the replica's pool, when DATABASE_READ_URL is set */
  readPool?: pg.Pool;
  /** the embedded engine (PGlite only). */
  pglite?: PGlite;
  close(): Promise<void>;
}

export const MIGRATIONS_DIR = fileURLToPath(new URL('../../../drizzle', import.meta.url));

// bigint counts come back as strings by default; ours fit in a JS number.
pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));

export interface OpenOptions {
  databaseUrl?: string;
  dataDir?: string;
  /** an already opened PGlite (tests load one from a migrated template) */
  pglite?: PGlite;
  poolSize?: number;
  /** a read replica of databaseUrl (PostgreSQL only) */
  readUrl?: string;
}

/**
 * Our session settings, and the URL's own `options` after them (a replica's URL may add
 * `-c default_transaction_read_only=on`): node-postgres would let the URL's replace ours.
 */
function withSessionOptions(
  connectionString: string,
  ours: string,
): { connectionString: string; options?: string } {
  const url = new URL(connectionString);
  const theirs = url.searchParams.get('options');
  if (!theirs) return { connectionString, options: ours };
  url.searchParams.set('options', `${ours} ${theirs}`);
  return { connectionString: url.toString() };
}

function newPool(connectionString: string, max: number): pg.Pool {
  const pool = new pg.Pool({
    max,
    // a dead database answers health checks quickly instead of hanging them
    connectionTimeoutMillis: 5000,
    // named statements (queryPreparedRows, the session lookup) are planned once per connection:
    // left to choose, PostgreSQL re-plans a `limit $n` page on every run (decision 011)
    // jit off: these are short statements, and a misestimated cost (an assignment run sets
    // enable_sort off for its reads) made PostgreSQL spend 0.4 s compiling one of them
    ...withSessionOptions(connectionString, '-c plan_cache_mode=force_generic_plan -c jit=off'),
  });
  pool.on('error', () => {
    /* idle client errors are surfaced by the next query */
  });
  return pool;
}

export async function openDatabase(opts: OpenOptions): Promise<Database> {
  if (opts.databaseUrl) {
    const pool = newPool(opts.databaseUrl, opts.poolSize ?? 10);
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    if (!opts.readUrl) return { kind: 'postgres', db, readDb: db, pool, close: () => pool.end() };
    const readPool = newPool(opts.readUrl, opts.poolSize ?? 10);
    const readDb = drizzlePg(readPool, { schema }) as unknown as Db;
    return {
      kind: 'postgres',
      db,
      readDb,
      pool,
      readPool,
      close: async () => {
        await Promise.all([pool.end(), readPool.end()]);
      },
    };
  }
  if (opts.readUrl) throw new Error('DATABASE_READ_URL needs DATABASE_URL (PostgreSQL)');
  let pglite = opts.pglite;
  if (!pglite) {
    if (opts.dataDir && !opts.dataDir.startsWith('memory://'))
      mkdirSync(opts.dataDir, { recursive: true });
    pglite = await PGlite.create({ dataDir: opts.dataDir, extensions: { pg_trgm } });
  }
  const db = drizzlePglite(pglite, { schema }) as unknown as Db;
  const engine = pglite;
  return { kind: 'pglite', db, readDb: db, pglite: engine, close: () => engine.close() };
}

/** The advisory lock processes starting together take to migrate one at a time. */
const MIGRATION_LOCK = 0x1f0_039;

/**
 * Applies the migrations not yet applied. On PostgreSQL under an advisory lock held on a
 * connection of its own: processes started together migrate one after the other, and the
 * later ones find nothing left to do (docs/OPERATIONS.md, Upgrades).
 */
export async function migrateDatabase(database: Database): Promise<void> {
  if (database.kind === 'postgres' && database.pool) {
    // a connection outside the pool: a pool of one would otherwise leave the migrator none
    const lock = new pg.Client(database.pool.options);
    await lock.connect();
    try {
      await lock.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
      await migratePg(database.db as never, { migrationsFolder: MIGRATIONS_DIR });
    } finally {
      await lock.end().catch(() => undefined);
    }
  } else {
    await migratePglite(database.db as never, { migrationsFolder: MIGRATIONS_DIR });
  }
}

/**
 * The rows of a statement about some leads, whose integer array is `intArrayLiteral` for many and
 * a bound parameter for one: one lead (the intake's, a hand assignment's: a lead at a time, many a
 * second) runs the one prepared statement of its text, parsed and planned once per connection;
 * a batch keeps its literal, so the planner sees its size.
 */
export function queryRowsForIds<T>(
  db: Db,
  ids: number[],
  type: 'bigint' | 'int',
  statement: (array: SQL) => SQL,
): Promise<T[]> {
  if (ids.length === 1 && Number.isSafeInteger(ids[0]))
    return queryPreparedRows<T>(db, statement(idsParam(ids, type)));
  return queryRows<T>(db, statement(intArrayLiteral(ids, type)));
}

/**
 * Ids as one bound parameter (`bigint[]`, or `int[]`): a statement that reads a few named leads
 * keeps one text, so its prepared plan serves every call.
 */
export function idsParam(ids: number[], type: 'bigint' | 'int' = 'bigint'): SQL {
  if (!ids.every(Number.isSafeInteger)) throw new Error('integer array: non-integer value');
  return sql`${`{${ids.join(',')}}`}::${sql.raw(type)}[]`;
}

/**
 * The leads an id array names, as a FROM item read by the primary key alone. The `offset 0` fence
 * keeps the planner from merging the ids with the statement's other conditions on the lead (an
 * agent, a status): a prepared statement's generic plan, cached on a connection while the
 * statistics say few leads are assigned, would otherwise scan a partial index of the assigned
 * leads (`agent_id is not null`) from end to end and filter it by id, costing more with every lead
 * the day assigns (docs/decisions/045-named-leads-by-primary-key.md).
 */
export function leadsNamed(ids: SQL): SQL {
  return sql`(select * from leads where id = any(${ids}) offset 0)`;
}

/**
 * An array of integers written into the statement as a constant, not bound as a parameter: the
 * planner then knows how many there are (a large batch is joined by hash in one pass over the
 * table, a small one by index). Only integers are ever written this way.
 */
export function intArrayLiteral(values: number[], type: 'bigint' | 'int'): SQL {
  if (!values.every(Number.isSafeInteger)) throw new Error('integer array: non-integer value');
  return sql.raw(`'{${values.join(',')}}'::${type}[]`);
}

/**
 * A value of a text enum written into the statement as a literal, so the planner sees which value
 * (and can pick a partial or per-value index); only the enum's own values ever get here.
 */
export function enumLiteral<T extends string>(value: T, values: readonly T[]): SQL {
  if (!values.includes(value)) throw new Error(`not one of ${values.join(', ')}`);
  return sql.raw(`'${value}'`);
}

/** Rows of a raw SQL statement, the same on both drivers. */
export async function queryRows<T>(db: Pick<Db, 'execute'>, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

const dialect = new PgDialect();

/**
 * Like queryRows, for the statements of the busiest reads (the list pages): the statement is
 * prepared on each connection the first time it runs there, named after its text, so later runs
 * skip parsing and planning (a third of the database's work for a page). Its text must come from a
 * bounded set of shapes: values go in as parameters, never as literals that differ per request
 * (each distinct text stays prepared on every connection). Timestamps come back as text.
 */
export async function queryPreparedRows<T>(db: Db, query: SQL): Promise<T[]> {
  const built = dialect.sqlToQuery(query);
  const name = `lf_${createHash('sha1').update(built.sql).digest('base64url').slice(0, 24)}`;
  const prepared = db._.session.prepareQuery(built, undefined, name, false);
  const result = (await prepared.execute()) as { rows: T[] };
  return result.rows;
}
