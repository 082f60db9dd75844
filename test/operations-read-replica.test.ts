/**
 * DATABASE_READ_URL (docs/OPERATIONS.md): analytics, the leads' export and the assignment's
 * explanation read from the replica. Tried with a read-only connection to the same database
 * (every transaction read only, as on a hot standby): those routes answer, any write through
 * it fails, and the rest of the app still writes through the main pool.
 */
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/server/app';
import { type Database, openDatabase } from '../src/server/db/client';
import { createAgent } from './support/assignment-fixtures';
import { uniqueEmail, uniquePhone } from './support/lead-contact';
import { Client, loginAdmin, testConfig } from './support/test-app';
import { createTestDatabase, TEST_DB } from './support/test-db';

describe.runIf(TEST_DB === 'postgres')('a read replica', () => {
  let main: Database & { url?: string };
  let database: Database;
  let app: FastifyInstance;

  beforeAll(async () => {
    main = await createTestDatabase();
    const readOnly = new URL(main.url!);
    readOnly.searchParams.set('options', '-c default_transaction_read_only=on');
    database = await openDatabase({ databaseUrl: main.url, readUrl: readOnly.toString() });
    app = await buildApp({ config: testConfig(), database, serveSpa: false });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
    await main?.close();
  });

  it('a write through the read pool fails; through the main pool it is made', async () => {
    await expect(
      database.readDb.execute(sql`insert into rate_counters values ('replica', now(), 1)`),
    ).rejects.toThrow();
    const [{ ro }] = (
      (await database.readDb.execute(sql`show transaction_read_only`)) as unknown as {
        rows: { transaction_read_only: string }[];
      }
    ).rows.map((r) => ({ ro: r.transaction_read_only }));
    expect(ro).toBe('on');
    await database.db.execute(sql`insert into rate_counters values ('main', now(), 1)`);
  });

  it('analytics, the export and the explanation answer from it', async () => {
    const admin = await loginAdmin({ app, database });
    const agentId = await createAgent(database.db, { quota: 1, states: ['FL'] });
    // a lead through the app (a write: the main pool), then read back through the replica's
    const sourceRes = await admin.client.post('/api/admin/sources', {
      name: 'Replica',
      costPerLeadCents: 100,
    });
    const key = (await admin.client.post(`/api/admin/sources/${sourceRes.json().id}/keys`)).json()
      .key as string;
    const posted = await app.inject({
      method: 'POST',
      url: '/api/v1/leads',
      headers: { authorization: `Bearer ${key}` },
      payload: {
        firstName: 'Ann',
        lastName: 'Lee',
        phone: uniquePhone(),
        email: uniqueEmail('replica'),
        city: 'Austin',
        state: 'TX',
        zip: '78701',
        age: 67,
        category: 'MEDICARE',
      },
    });
    expect(posted.statusCode, posted.body).toBe(201);
    const leadId = posted.json().id as number;

    // each of those reads takes a connection of the read pool
    let readConnections = 0;
    database.readPool!.on('acquire', () => readConnections++);
    const get = async (url: string) => {
      const taken = readConnections;
      const res = await admin.client.get(url);
      expect(readConnections, `${url} read through the replica`).toBeGreaterThan(taken);
      return res;
    };
    for (const url of [
      '/api/admin/analytics',
      '/api/admin/analytics/speed-to-lead?from=2026-01-01&to=2026-01-31',
      '/api/admin/analytics/sources?from=2026-01-01&to=2026-01-31',
      `/api/admin/leads/${leadId}/explain`,
      `/api/admin/leads/${leadId}/fit/${agentId}`,
      '/api/admin/leads/unfit-reasons',
    ]) {
      const res = await get(url);
      expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
    }
    const explained = (await get(`/api/admin/leads/${leadId}/explain`)).json();
    expect(JSON.stringify(explained)).toContain(String(leadId));
    const csv = await get('/api/admin/leads/export');
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.body).toContain('Austin');
    // and the app writes as before
    expect((await new Client(app).get('/api/health/ready')).statusCode).toBe(200);
  });
});
