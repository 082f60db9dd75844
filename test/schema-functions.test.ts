import { sql, TransactionRollbackError } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/server/db/client';
import { type DeclaredSql, loadSqlFunctions } from '../src/server/db/sql-functions';
import { appFunctionNames, appTriggerNames, definitionsNamed } from './support/schema-catalog';
import { createTestDatabase } from './support/test-db';

// The functions and triggers declared in src/server/db/sql/ are the ones the migrations leave in
// the database, body for body (decision 013).

const declared = loadSqlFunctions();
const names = (kind: DeclaredSql['kind']) =>
  declared
    .filter((d) => d.kind === kind)
    .map((d) => d.name)
    .sort();

let database: Database;

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  await database?.close();
});

/**
 * The database's definitions of the declared object's name, before and after running the declared
 * statement in a transaction that is then rolled back. Both are printed by the database itself
 * (pg_get_functiondef, pg_get_triggerdef), so layout outside a function's body cannot differ; the
 * body is kept as written, so it must be the same text.
 */
async function beforeAndAfter(decl: DeclaredSql): Promise<{ before: string[]; after: string[] }> {
  let result: { before: string[]; after: string[] } | undefined;
  try {
    await database.db.transaction(async (tx) => {
      const before = await definitionsNamed(tx, decl.kind, decl.name);
      await tx.execute(sql.raw(decl.statement));
      const after = await definitionsNamed(tx, decl.kind, decl.name);
      result = { before, after };
      tx.rollback();
    });
  } catch (err) {
    if (!(err instanceof TransactionRollbackError)) throw err;
  }
  return result!;
}

describe('SQL functions and triggers (src/server/db/sql)', () => {
  it('declares each function and trigger once', () => {
    for (const kind of ['function', 'trigger'] as const)
      expect(names(kind), `${kind}s declared twice`).toEqual([...new Set(names(kind))]);
  });

  it('declares every function and trigger of the migrated database, and no other', async () => {
    expect(await appFunctionNames(database.db), 'functions in the database').toEqual(
      names('function'),
    );
    expect(await appTriggerNames(database.db), 'triggers in the database').toEqual(
      names('trigger'),
    );
  });

  it.each(declared.map((d) => [`${d.kind} ${d.name}`, d] as const))(
    '%s is as declared',
    async (_, decl) => {
      const { before, after } = await beforeAndAfter(decl);
      expect(before.length, `${decl.kind} ${decl.name} in the database`).toBeGreaterThan(0);
      // expected: the declaration (as the database prints it); received: the migrated database
      expect(before, `${decl.file} differs from the migrated database`).toEqual(after);
    },
  );
});
