import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { loginAdmin, setupTestApp } from './support/test-app';
import { TEST_DB } from './support/test-db';

// node-postgres' pool only: PGlite has one connection and queues without a limit
describe.runIf(TEST_DB === 'postgres')('every database connection busy', () => {
  const ctx = setupTestApp();

  it('answers 503 with Retry-After when no connection frees up in time, then serves again', async () => {
    const admin = await loginAdmin(ctx);
    const pool = ctx.database.pool as pg.Pool;
    const held: pg.PoolClient[] = [];
    // take every connection of the pool (its size is the app's)
    while (held.length < (pool.options.max ?? 10)) held.push(await pool.connect());
    try {
      const busy = await admin.client.get('/api/admin/stats');
      expect(busy.statusCode).toBe(503);
      expect(busy.headers['retry-after']).toBe('1');
      expect(busy.json()).toEqual({
        message: 'The server is busy: please try again in a moment',
        requestId: busy.headers['x-request-id'],
      });
    } finally {
      for (const client of held) client.release();
    }
    expect((await admin.client.get('/api/admin/stats')).statusCode).toBe(200);
  }, 30_000);
});
