/**
 * The probes of a load balancer (docs/OPERATIONS.md): /api/health/live answers while the process
 * does, /api/health/ready only when the database answers, every migration is applied and the
 * workers run where this process runs them. A 5xx answer carries the request's id, the same as
 * its X-Request-Id and its log lines.
 */
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../src/server/app';
import { queryRows } from '../src/server/db/client';
import { sweepExpiredSessions } from '../src/server/modules/auth/session-sweeper';
import { setupTestApp, testConfig } from './support/test-app';
import { createTestDatabase } from './support/test-db';

describe('live and ready (PROCESS_ROLE all)', () => {
  const ctx = setupTestApp();

  it('live: 200 while the process answers', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/health/live' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it('ready: 200 with the database, the migrations and the workers', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/health/ready' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      status: 'ready',
      database: 'ok',
      migrations: 'ok',
      workers: 'ok',
    });
  });

  it('ready: 503 while a migration this build ships is not applied', async () => {
    const [newest] = await queryRows<{ id: number; created_at: string }>(
      ctx.database.db,
      sql`select id, created_at from drizzle.__drizzle_migrations order by created_at desc limit 1`,
    );
    await ctx.database.db.execute(
      sql`delete from drizzle.__drizzle_migrations where id = ${newest.id}`,
    );
    try {
      const res = await ctx.app.inject({ method: 'GET', url: '/api/health/ready' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({
        status: 'not ready',
        database: 'ok',
        migrations: 'pending',
        workers: 'ok',
        requestId: res.headers['x-request-id'],
      });
    } finally {
      await ctx.database.db.execute(
        sql`insert into drizzle.__drizzle_migrations (id, hash, created_at)
            values (${newest.id}, 'restored', ${newest.created_at})`,
      );
    }
    expect((await ctx.app.inject({ method: 'GET', url: '/api/health/ready' })).statusCode).toBe(
      200,
    );
  });
});

describe('roles', () => {
  it('a worker process serves its health only; a web process is ready without running workers', async () => {
    const database = await createTestDatabase();
    const worker = await buildApp({
      config: testConfig({ PROCESS_ROLE: 'worker' }),
      database,
      serveSpa: false,
    });
    const web = await buildApp({
      config: testConfig({ PROCESS_ROLE: 'web' }),
      database,
      serveSpa: false,
    });
    try {
      await worker.ready();
      await web.ready();
      const workerReady = await worker.inject({ method: 'GET', url: '/api/health/ready' });
      expect(workerReady.json()).toMatchObject({ status: 'ready', workers: 'ok' });
      const webReady = await web.inject({ method: 'GET', url: '/api/health/ready' });
      expect(webReady.json()).toMatchObject({ status: 'ready', workers: 'not run here' });
      // the API is the web process's: the worker has no login, no intake
      for (const [method, url] of [
        ['POST', '/api/auth/login'],
        ['POST', '/api/v1/leads'],
        ['GET', '/api/auth/me'],
      ] as const) {
        expect((await worker.inject({ method, url })).statusCode, url).toBe(404);
      }
      expect((await web.inject({ method: 'GET', url: '/api/auth/me' })).statusCode).toBe(401);
      expect((await worker.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    } finally {
      await web.close();
      await worker.close();
      await database.close();
    }
  });
});

describe('the request id', () => {
  it('a 500 carries the id of its log line; ready answers 503 with the database down', async () => {
    const logs: string[] = [];
    const database = await createTestDatabase();
    const app = await buildApp({
      config: testConfig(),
      database,
      serveSpa: false,
      logger: { level: 'info', stream: { write: (line: string) => logs.push(line) } },
    });
    await app.ready();
    await database.close();
    try {
      const res = await app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: 'someone@example.com', password: 'whatever-it-is' },
      });
      expect(res.statusCode).toBe(500);
      const id = res.headers['x-request-id'];
      expect(res.json()).toEqual({ message: 'Internal server error', requestId: id });
      const lines = logs.map((line) => JSON.parse(line) as { reqId?: string; msg: string });
      const failed = lines.find((line) => line.msg === 'request failed');
      expect(failed?.reqId).toBe(id);
      // every line of the request carries it: received, failed, completed
      expect(lines.filter((line) => line.reqId === id).length).toBeGreaterThanOrEqual(3);

      const ready = await app.inject({ method: 'GET', url: '/api/health/ready' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toMatchObject({
        status: 'not ready',
        database: 'down',
        requestId: ready.headers['x-request-id'],
      });
      expect((await app.inject({ method: 'GET', url: '/api/health/live' })).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('ids differ from request to request', async () => {
    const database = await createTestDatabase();
    const app = await buildApp({ config: testConfig(), database, serveSpa: false });
    try {
      const ids = new Set<unknown>();
      for (let i = 0; i < 5; i++)
        ids.add(
          (await app.inject({ method: 'GET', url: '/api/health/live' })).headers['x-request-id'],
        );
      expect(ids.size).toBe(5);
    } finally {
      await app.close();
      await database.close();
    }
  });
});

describe('throttles kept in the database', () => {
  it('two apps on one database share the login throttle; the sweeper deletes ended windows', async () => {
    const database = await createTestDatabase();
    const apps = [
      await buildApp({ config: testConfig({ PROCESS_ROLE: 'web' }), database, serveSpa: false }),
      await buildApp({ config: testConfig({ PROCESS_ROLE: 'web' }), database, serveSpa: false }),
    ];
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) {
        const res = await apps[i % 2].inject({
          method: 'POST',
          url: '/api/auth/login',
          payload: { email: 'guessed@example.com', password: `wrong-password-${i}` },
        });
        statuses.push(res.statusCode);
      }
      // five failures for one account from one address, counted together: the sixth is refused
      expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
      const windows = () =>
        queryRows<{ key: string }>(database.db, sql`select key from throttle_windows`);
      expect((await windows()).length).toBeGreaterThan(0);
      await sweepExpiredSessions(apps[0]);
      expect((await windows()).length).toBeGreaterThan(0); // still open: kept
      await database.db.execute(
        sql`update throttle_windows set resets_at = now() - interval '1 second'`,
      );
      await sweepExpiredSessions(apps[0]);
      expect(await windows()).toEqual([]);
      // an ended window limits nothing
      const again = await apps[1].inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: 'guessed@example.com', password: 'wrong-password-7' },
      });
      expect(again.statusCode).toBe(401);
    } finally {
      for (const app of apps) await app.close();
      await database.close();
    }
  });
});
