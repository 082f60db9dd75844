import { readFileSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import pg from 'pg';
import { inject } from 'vitest';
import { type Database, openDatabase } from '../../src/server/db/client';
import { TEST_DATABASE_URL, withDatabase } from './global-setup';

export const TEST_DB = (process.env.TEST_DB ?? 'pglite') as 'pglite' | 'postgres';

let counter = 0;

/** A fresh, migrated database of the kind this project runs against, cloned from the template. */
export async function createTestDatabase(): Promise<Database & { url?: string }> {
  if (TEST_DB === 'pglite') {
    const tar = readFileSync(inject('pgliteTemplate'));
    const pglite = await PGlite.create({
      loadDataDir: new Blob([tar]),
      extensions: { pg_trgm },
    });
    return openDatabase({ pglite });
  }
  const template = inject('pgTemplate');
  const name = `lf_t_${template.slice('lf_tpl_'.length)}_${process.pid}_${++counter}_${Date.now() % 1e6}`;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  try {
    await admin.query(`create database ${name} template ${template}`);
  } finally {
    await admin.end();
  }
  const url = withDatabase(TEST_DATABASE_URL, name);
  const database = await openDatabase({ databaseUrl: url });
  return {
    ...database,
    url,
    close: async () => {
      await database.close();
      const dropper = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await dropper.connect();
      await dropper.query(`drop database if exists ${name} with (force)`);
      await dropper.end();
    },
  };
}
