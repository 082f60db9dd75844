/**
 * Slow clients (issue 13): the real server, short timeouts set through its configuration, and
 * raw sockets that trickle a request. Each must be cut off near its deadline, never held open.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTrickle } from './support/raw-http';
import { login, SERVER_ADMIN, type ServerProcess, startServer } from './support/server-process';
import { createTestDatabase, TEST_DB } from './support/test-db';

const TIMEOUTS = {
  HEADERS_TIMEOUT_MS: 1000,
  BODY_TIMEOUT_MS: 1000,
  CONNECTION_TIMEOUT_MS: 2000,
  REQUEST_TIMEOUT_MS: 4000,
};

let server: ServerProcess;
let port: number;
let closeDatabase: (() => Promise<void>) | undefined;

// Sockets, not the database, are under test: one database kind is enough, and a server on a
// fresh PGlite folder takes most of a minute to start on this machine.
const onPostgres = TEST_DB === 'postgres';

beforeAll(async () => {
  if (!onPostgres) return;
  const database = await createTestDatabase();
  closeDatabase = () => database.close();
  server = await startServer(
    database.url!,
    Object.fromEntries(Object.entries(TIMEOUTS).map(([k, v]) => [k, String(v)])),
  );
  port = Number(new URL(server.url).port);
});

afterAll(async () => {
  await server?.stop();
  await closeDatabase?.();
});

/** Writes `head` at once, then `body` one byte every `everyMs`, until the server closes. */
function trickle(head: string, body: string, everyMs: number) {
  const conn = openTrickle(port);
  conn.socket.write(head);
  let sent = 0;
  const timer = setInterval(() => {
    if (sent < body.length && !conn.socket.destroyed) conn.socket.write(body[sent++]);
  }, everyMs);
  void conn.closed.then(() => clearInterval(timer));
  return conn;
}

const host = () => `127.0.0.1:${port}`;

describe.runIf(onPostgres)('timeouts', () => {
  it('a JSON body trickled a byte at a time gets 408 and loses its connection within BODY_TIMEOUT_MS', async () => {
    const body = JSON.stringify({ email: 'slow@example.com', password: 'x'.repeat(200) });
    const conn = trickle(
      `POST /api/auth/login HTTP/1.1\r\nHost: ${host()}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${body.length}\r\n\r\n`,
      body,
      200,
    );
    const closedAfter = await conn.closed;
    expect(closedAfter).toBeGreaterThanOrEqual(TIMEOUTS.BODY_TIMEOUT_MS - 100);
    expect(closedAfter).toBeLessThan(TIMEOUTS.BODY_TIMEOUT_MS + 1500);
    expect(conn.received()).toMatch(/^HTTP\/1\.1 408 /);
    expect(conn.received()).toContain(
      '"message":"Request timeout: the body did not arrive in time"',
    );
  });

  it('a body refused unread (too large) leaves no deadline behind: the server outlives it', async () => {
    const res = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.url },
      body: JSON.stringify({ email: 'big@example.com', password: 'x'.repeat(20_000) }),
    });
    expect(res.status).toBe(413);
    await new Promise((resolve) => setTimeout(resolve, TIMEOUTS.BODY_TIMEOUT_MS + 500));
    expect(server.child.exitCode).toBeNull();
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
  });

  it('headers trickled a byte at a time are cut off within HEADERS_TIMEOUT_MS (408)', async () => {
    const head = `GET /api/health HTTP/1.1\r\nHost: ${host()}\r\nX-Slow: ${'a'.repeat(200)}\r\n\r\n`;
    const conn = trickle('', head, 100);
    const closedAfter = await conn.closed;
    expect(closedAfter).toBeLessThan(TIMEOUTS.HEADERS_TIMEOUT_MS + 1500);
    expect(conn.received()).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('an upload trickled a byte at a time is cut off at REQUEST_TIMEOUT_MS, and a stalled one when idle for CONNECTION_TIMEOUT_MS', async () => {
    const cookie = await login(server.url, SERVER_ADMIN.email, SERVER_ADMIN.password);
    const boundary = 'lfSlowBoundary';
    const part =
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="slow.csv"\r\n` +
      'Content-Type: text/csv\r\n\r\nexternalId,firstName,lastName,phone,email,city,state,age,category\n';
    const head =
      `POST /api/admin/leads/import HTTP/1.1\r\nHost: ${host()}\r\nOrigin: ${server.url}\r\n` +
      `Cookie: ${cookie}\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\n` +
      'Content-Length: 100000\r\n\r\n';
    const trickled = trickle(head + part, 'x'.repeat(1000), 200);
    const stalled = trickle(head + part, '', 200);
    const [trickledAfter, stalledAfter] = await Promise.all([trickled.closed, stalled.closed]);
    // bytes keep arriving, so only the whole-request deadline ends it
    expect(trickledAfter).toBeGreaterThanOrEqual(TIMEOUTS.REQUEST_TIMEOUT_MS - 100);
    expect(trickledAfter).toBeLessThan(TIMEOUTS.REQUEST_TIMEOUT_MS + 2000);
    // nothing arrives: the connection is idle
    expect(stalledAfter).toBeGreaterThanOrEqual(TIMEOUTS.CONNECTION_TIMEOUT_MS - 100);
    expect(stalledAfter).toBeLessThan(TIMEOUTS.REQUEST_TIMEOUT_MS);
    // the server is fine afterwards
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
  });
});
