/**
 * Races and crashes against the real PostgreSQL (PGlite has one connection, so nothing there
 * overlaps): concurrent manual assignments of one lead, the same CSV imported twice at once, and
 * a server killed with SIGKILL in the middle of an import.
 */

import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq, gt, inArray, sql } from 'drizzle-orm';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, queryRows } from '../src/server/db/client';
import { imports, leadHistory, leads } from '../src/server/db/schema';
import { IMPORT_LOCK_KEY } from '../src/server/modules/imports/import-connection';
import { ABANDONED_IMPORT_MESSAGE } from '../src/server/modules/imports/imports.repository';
import { insertLeads } from './support/agent-fixtures';
import { createAgent } from './support/assignment-fixtures';
import { phoneAt, reservePhones } from './support/lead-contact';
import { login, SERVER_ADMIN, sleep, startServer, uploadCsv } from './support/server-process';
import { type Client, loginAdmin, setupTestApp } from './support/test-app';
import { createTestDatabase, TEST_DB } from './support/test-db';

const CATEGORIES = ['MEDICARE', 'ACA', 'FINAL_EXPENSE'] as const;
const STATES = ['TX', 'FL', 'CA', 'NY', 'OK', 'AZ'] as const;

/** A lead CSV with `rows` rows whose externalIds are `${prefix}-0` ... */
function csvText(prefix: string, rows: number, from = 0): string {
  const lines = ['externalId,firstName,lastName,phone,email,city,state,age,category'];
  for (let i = from; i < from + rows; i++) lines.push(csvLine(prefix, i));
  return `${lines.join('\n')}\n`;
}

/** Each prefix's own phone numbers (docs/domain.md, Lead quality, refuses a phone or email seen in 30 days). */
const phoneBlocks = new Map<string, number>();

function csvLine(prefix: string, i: number): string {
  let block = phoneBlocks.get(prefix);
  if (block === undefined) {
    block = reservePhones(250_000);
    phoneBlocks.set(prefix, block);
  }
  return `${prefix}-${i},First${i},Last${i},${phoneAt(block + i)},${prefix}-${i}@example.com,City ${i % 97},${STATES[i % STATES.length]},${18 + (i % 90)},${CATEGORIES[i % 3]}`;
}

/** Writes a large CSV to disk, streamed (never whole in memory). */
async function writeCsvFile(path: string, prefix: string, rows: number): Promise<void> {
  const out = createWriteStream(path);
  const header = 'externalId,firstName,lastName,phone,email,city,state,age,category\n';
  if (!out.write(header)) await once(out, 'drain');
  const CHUNK = 5_000;
  for (let start = 0; start < rows; start += CHUNK) {
    let chunk = '';
    for (let i = start; i < Math.min(rows, start + CHUNK); i++) chunk += `${csvLine(prefix, i)}\n`;
    if (!out.write(chunk)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

function upload(client: Client, csv: string, filename: string) {
  const form = new FormData();
  form.append('file', new Blob([csv], { type: 'text/csv' }), filename);
  return client.request('POST', '/api/admin/leads/import', form);
}

/**
 * Leads from a file (by its externalIds), distinct ids among them, and how many of them carry
 * more than one IMPORTED history row (the import may keep such rows or not; never two).
 */
async function countLeadsWithPrefix(db: Database['db'], prefix: string) {
  const pattern = `${prefix}-%`;
  const [row] = await queryRows<{ leads: number; distinct_ids: number; imported_twice: number }>(
    db,
    sql`select count(*)::int as leads, count(distinct l.external_id)::int as distinct_ids,
          (select count(*)::int from (
             select h.lead_id from lead_history h join leads x on x.id = h.lead_id
             where x.external_id like ${pattern} and h.kind = 'IMPORTED'
             group by h.lead_id having count(*) > 1) twice) as imported_twice
        from leads l where l.external_id like ${pattern}`,
  );
  return row;
}

/** Leads that an import stored (they carry its id). */
async function leadsOfImport(db: Database['db'], importId: number): Promise<number> {
  return db.$count(leads, eq(leads.importId, importId));
}

describe.runIf(TEST_DB === 'postgres')('races and crashes on PostgreSQL', () => {
  const ctx = setupTestApp();
  const db = () => ctx.database.db;
  const figures: string[] = [];

  afterAll(() => {
    if (figures.length > 0) console.log(`Races and crashes (PostgreSQL):\n${figures.join('\n')}`);
  });

  it('50 simultaneous manual assignments of one lead: exactly one agent gets it', async () => {
    const pool = ctx.database.pool;
    expect(pool?.options.max).toBeGreaterThan(1);
    const admin = await loginAdmin(ctx);
    const agents: number[] = [];
    for (let i = 0; i < 50; i++) agents.push(await createAgent(db(), { quota: 1 }));

    const BURSTS = 5;
    let ok = 0;
    let conflicts = 0;
    let busiest = 0;
    for (let burst = 0; burst < BURSTS; burst++) {
      const [lead] = await insertLeads(db(), [{ category: 'ACA', state: 'AK', city: 'Nome' }]);
      const answers = await Promise.all(
        agents.map((userId) =>
          admin.client.post('/api/admin/leads/assign', { leadId: lead.id, userId }),
        ),
      );
      busiest = Math.max(busiest, pool?.totalCount ?? 0);
      const statuses = answers.map((a) => a.statusCode);
      const winners = answers.filter((a) => a.statusCode === 200);
      expect(winners, statuses.join(',')).toHaveLength(1);
      expect(statuses.filter((s) => s === 409)).toHaveLength(49);
      const winner = winners[0].json() as { agentId: number; status: string };
      expect(winner.status).toBe('ASSIGNED');
      expect(agents).toContain(winner.agentId);

      // the lead row and its history tell the same story: one assignment, to the winner
      const [row] = await db().select().from(leads).where(eq(leads.id, lead.id));
      expect(row).toMatchObject({ status: 'ASSIGNED', agentId: winner.agentId });
      const history = await db()
        .select()
        .from(leadHistory)
        .where(
          and(
            eq(leadHistory.leadId, lead.id),
            inArray(leadHistory.kind, ['MANUAL_ASSIGNED', 'AUTO_ASSIGNED']),
          ),
        );
      expect(history).toHaveLength(1);
      expect(history[0]).toMatchObject({ agentId: winner.agentId, toStatus: 'ASSIGNED' });
      ok += 1;
      conflicts += statuses.filter((s) => s === 409).length;
    }
    // the requests really ran side by side, on several connections
    expect(busiest).toBeGreaterThan(1);
    figures.push(
      `  manual assignment: ${BURSTS} bursts x 50 requests: ${ok} x 200 (one per lead), ` +
        `${conflicts} x 409, up to ${busiest} connections at once`,
    );
  });

  it('the same CSV imported twice at once stores each lead once', async () => {
    const admin = await loginAdmin(ctx);
    const ROUNDS = 3;
    const ROWS = 12_000; // several batches, so the two transactions interleave
    for (let round = 0; round < ROUNDS; round++) {
      const prefix = `twice-${process.pid}-${Date.now().toString(36)}-${round}`;
      // a few of the ids exist already: both imports must skip those too
      const existing = 100;
      const seed = await upload(admin.client, csvText(prefix, existing), 'seed.csv');
      expect(seed.json()).toMatchObject({ imported: existing });
      const csv = csvText(prefix, ROWS);
      // Imports take one advisory lock, one at a time. Holding it here until both are recorded
      // RUNNING makes the two truly concurrent whatever the machine's load: then they race.
      const [{ lastId }] = await queryRows<{ lastId: number }>(
        db(),
        sql`select coalesce(max(id), 0)::int as "lastId" from imports`,
      );
      const holder = await (ctx.database.pool as pg.Pool).connect();
      await holder.query('begin');
      await holder.query('select pg_advisory_xact_lock($1)', [IMPORT_LOCK_KEY]);
      const both = Promise.all([
        upload(admin.client, csv, 'twice.csv'),
        upload(admin.client, csv, 'twice.csv'),
      ]);
      try {
        for (let waited = 0; ; waited += 20) {
          const [{ running }] = await queryRows<{ running: number }>(
            db(),
            sql`select count(*)::int as running from imports
                where id > ${lastId} and status = 'RUNNING'`,
          );
          if (running === 2) break;
          if (waited > 60_000) throw new Error('the two imports did not both start');
          await sleep(20);
        }
      } finally {
        await holder.query('commit');
        holder.release();
      }
      const [a, b] = await both;
      expect(a.statusCode, a.body).toBe(200);
      expect(b.statusCode, b.body).toBe(200);
      const ra = a.json() as {
        imported: number;
        duplicates: number;
        errorCount: number;
        importId: number;
      };
      const rb = b.json() as typeof ra;
      for (const r of [ra, rb]) {
        expect(r.errorCount).toBe(0);
        expect(r.imported + r.duplicates).toBe(ROWS);
      }
      expect(ra.imported + rb.imported).toBe(ROWS - existing);
      // what each answer says it stored is what carries its import id
      expect(await leadsOfImport(db(), ra.importId)).toBe(ra.imported);
      expect(await leadsOfImport(db(), rb.importId)).toBe(rb.imported);

      const counts = await countLeadsWithPrefix(db(), prefix);
      expect(counts).toEqual({ leads: ROWS, distinct_ids: ROWS, imported_twice: 0 });
      const records = await db()
        .select()
        .from(imports)
        .where(inArray(imports.id, [ra.importId, rb.importId]));
      expect(records.map((r) => r.status)).toEqual(['DONE', 'DONE']);
      figures.push(
        `  concurrent import, round ${round + 1}: 2 x ${ROWS} rows (${existing} already stored): ` +
          `imported ${ra.imported} + ${rb.imported}, duplicates ${ra.duplicates} + ${rb.duplicates}; ` +
          `${counts.leads} leads stored, ${counts.distinct_ids} distinct ids`,
      );
    }
  }, 300_000);

  describe('a server killed with SIGKILL in the middle of an import', () => {
    let database: Database & { url?: string };
    let dir: string;
    const ROWS = Number(process.env.KILL_IMPORT_ROWS ?? 200_000);

    beforeAll(async () => {
      database = await createTestDatabase();
      dir = await mkdtemp(join(tmpdir(), 'lf-races-'));
    });
    afterAll(async () => {
      await database?.close();
      if (dir) await rm(dir, { recursive: true, force: true });
    });

    it('keeps all of the import or none of it, and the import runs again', async () => {
      const url = database.url;
      if (!url) throw new Error('the PostgreSQL test database has no url');
      const prefix = `kill-${process.pid}-${Date.now().toString(36)}`;
      const file = join(dir, 'big-import.csv');
      await writeCsvFile(file, prefix, ROWS);

      // kill at different moments: right after the import starts, and later
      const delays = [250, 1_500];
      let killedMidImport = 0;
      const abandoned: number[] = [];
      for (const delay of delays) {
        const server = await startServer(url);
        const cookie = await login(server.url, SERVER_ADMIN.email, SERVER_ADMIN.password);
        const [{ lastId }] = await queryRows<{ lastId: number }>(
          database.db,
          sql`select coalesce(max(id), 0)::int as "lastId" from imports`,
        );
        const answer = uploadCsv(server.url, cookie, file).catch((err: Error) => ({
          status: 0,
          body: String(err.cause ?? err),
        }));
        // wait until the server has recorded the import as RUNNING, then a little more
        const started = Date.now();
        for (;;) {
          const running = await database.db
            .select({ id: imports.id })
            .from(imports)
            .where(and(eq(imports.status, 'RUNNING'), gt(imports.id, lastId)));
          if (running.length > 0) break;
          if (Date.now() - started > 60_000)
            throw new Error(`no RUNNING import:\n${server.output()}`);
          await sleep(20);
        }
        await sleep(delay);
        server.child.kill('SIGKILL');
        expect(await server.exited).toBe('SIGKILL');
        const reply = await answer;

        const counts = await countLeadsWithPrefix(database.db, prefix);
        const [record] = await database.db.select().from(imports).where(gt(imports.id, lastId));
        // all or nothing: the leads arrive together with a DONE record, or not at all
        if (record.status === 'DONE') {
          expect(counts).toEqual({ leads: ROWS, distinct_ids: ROWS, imported_twice: 0 });
        } else {
          expect(record.status).toBe('RUNNING'); // the process died before it could say more
          expect(counts).toEqual({ leads: 0, distinct_ids: 0, imported_twice: 0 });
          killedMidImport++;
          abandoned.push(record.id);
        }
        const importRows = await database.db.$count(imports);
        figures.push(
          `  SIGKILL ${delay} ms after the import was RUNNING: client saw ${reply.status || 'a dropped connection'}; ` +
            `import record ${record.status}; ${counts.leads} of ${ROWS} leads stored; ${importRows} import records`,
        );
      }
      // the kill landed inside an import at least once (else the file is too small to test this)
      expect(killedMidImport).toBeGreaterThan(0);

      // restart on the same database and import the same file again: every row exactly once
      const server = await startServer(url);
      try {
        // at start, the imports the kills interrupted no longer say RUNNING: they stored nothing
        const settled = await database.db
          .select({ status: imports.status, message: imports.message })
          .from(imports)
          .where(inArray(imports.id, abandoned));
        expect(settled).toEqual(
          abandoned.map(() => ({ status: 'FAILED', message: ABANDONED_IMPORT_MESSAGE })),
        );
        const cookie = await login(server.url, SERVER_ADMIN.email, SERVER_ADMIN.password);
        const t0 = Date.now();
        const again = await uploadCsv(server.url, cookie, file);
        const seconds = (Date.now() - t0) / 1000;
        expect(again.status, again.body.slice(0, 500)).toBe(200);
        const result = JSON.parse(again.body) as {
          imported: number;
          duplicates: number;
          errorCount: number;
          importId: number;
        };
        expect(result.errorCount).toBe(0);
        expect(result.imported + result.duplicates).toBe(ROWS);
        expect(await leadsOfImport(database.db, result.importId)).toBe(result.imported);
        const counts = await countLeadsWithPrefix(database.db, prefix);
        expect(counts).toEqual({ leads: ROWS, distinct_ids: ROWS, imported_twice: 0 });

        figures.push(
          `  after restart: the same file imported again in ${seconds.toFixed(1)} s: imported ` +
            `${result.imported}, duplicates ${result.duplicates}; ${counts.leads} leads stored once each`,
        );
      } finally {
        await server.stop();
      }
    }, 600_000);
  });
});
