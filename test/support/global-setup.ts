import { mkdirSync, writeFileSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { migrateDatabase, openDatabase } from '../../src/server/db/client';

export const TEST_DATABASE_URL =
  process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/**
 * Migrates one template per run: a PGlite data dir dumped to a file (each test file loads it),
 * or a PostgreSQL database that each test file clones. A missing PostgreSQL fails the run.
 */
export default async function setup(project: TestProject) {
  const kind = project.name.replace(/^api-/, '');
  if (kind === 'pglite') {
    const pglite = await PGlite.create({ extensions: { pg_trgm } });
    const database = await openDatabase({ pglite });
    await migrateDatabase(database);
    const dump = await pglite.dumpDataDir('none');
    await pglite.close();
    mkdirSync('.tmp', { recursive: true });
    const file = `.tmp/pglite-template-${process.pid}.tar`;
    writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
    project.provide('pgliteTemplate', file);
    return;
  }
  if (kind === 'postgres') {
    const template = `lf_tpl_${process.pid}`;
    const admin = new pg.Client({
      connectionString: TEST_DATABASE_URL,
      connectionTimeoutMillis: 5000,
    });
    try {
      await admin.connect();
    } catch (err) {
      throw new Error(
        `PostgreSQL is required for the api-postgres tests at ${TEST_DATABASE_URL}: ${err}`,
      );
    }
    await admin.query(`drop database if exists ${template}`);
    await admin.query(`create database ${template}`);
    const url = withDatabase(TEST_DATABASE_URL, template);
    const database = await openDatabase({ databaseUrl: url, poolSize: 1 });
    await migrateDatabase(database);
    await database.close();
    project.provide('pgTemplate', template);
    return async () => {
      const { rows } = await admin.query<{ datname: string }>(
        `select datname from pg_database where datname like 'lf_t_${process.pid}_%' or datname = $1`,
        [template],
      );
      for (const { datname } of rows)
        await admin.query(`drop database if exists ${datname} with (force)`);
      await admin.end();
    };
  }
}

export function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
    pgTemplate: string;
  }
}
