/**
 * Import bench: a deterministic CSV of BENCH_ROWS leads (default 1,000,000) uploaded through
 * POST /api/admin/leads/import of the real server, into PostgreSQL and into PGlite; against raw
 * COPY of the same file into a bare table by psql, in the same run on the same machine.
 *
 * The file is the Lead quality workload (issue 16; docs/domain.md): every phone a valid US number, 1% of the rows
 * duplicates of an earlier row by phone (written another way) or by email (in other letter
 * case), each of a row up to 50,000 lines before. The import must refuse exactly those (the
 * count is asserted), at >= 0.9x of psql's `\copy` of the same file into a table shaped like
 * `leads` with the same indexes (leads_phone_idx and leads_email_idx among them).
 *
 * The import's time runs to its HTTP answer; the work the server defers past the answer (search
 * index catch-up) is timed until the server and the database are quiet, and given beside it.
 *
 * Also measured, to tell where the time goes: psql COPY into a table shaped like `leads` with
 * and without its indexes (no triggers), the CSV parser alone in this process, the server's CPU
 * time and what the database backend was doing while the upload ran (pg_stat_activity samples),
 * and unless BENCH_PROFILE=0 a CPU profile of the server during a 200,000-row upload.
 *
 * Env: BENCH_ROWS, BENCH_PG_URL (default postgres://postgres@127.0.0.1:5432), BENCH_PROFILE,
 * BENCH_PROFILE_ROWS (the profiled upload's rows, default 200,000),
 * BENCH_KEEP=1, BENCH_IMPORT_PGLITE=0 (PostgreSQL alone); the servers' settings and Node flags
 * by BENCH_SERVER_<NAME> and BENCH_NODE_FLAGS (bench/lib/server.ts).
 */

import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { parseLeadCsv } from '../src/server/modules/imports/lead-csv';
import { phoneE164 } from '../src/server/modules/leads/lead-row.service';
import { api, loginAdmin } from './lib/client';
import {
  describeProfile,
  mainThreadProfile,
  monotonicUs,
  summarizeProfile,
} from './lib/cpu-profile';
import { CSV_HEADER, type CsvFile, csvLine, LeadGenerator } from './lib/leads-data';
import {
  databaseUrl,
  dropDatabase,
  PgActivitySampler,
  psql,
  query,
  recreateDatabase,
  serverSettings,
  waitDatabaseQuiet,
} from './lib/pg';
import { cpuSeconds, RssSampler, toMb, waitProcessQuiet } from './lib/proc';
import { type BenchReport, figure, isMain, log, measure, runStandalone } from './lib/report';
import { type BenchServer, type ServerDatabase, startServer, WORK_DIR } from './lib/server';
import { uploadCsv } from './lib/upload';

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const DB_NAME = 'lf_bench_import';
const MEMORY_GOAL_MB = 250;
/** issue 16: the import with its duplicate and do-not-call checks against psql's own \copy */
const LEADS_SHAPED_GOAL = 0.9;

interface UploadFigures {
  /** rows / time until the answer */
  rowsPerS: number;
  ms: number;
  /** background work after the answer, until server and database were quiet */
  deferredMs: number;
  endToEndRowsPerS: number;
  /** peak RSS growth up to the answer (growthMb runs on through the deferred work) */
  growthAtAnswerMb: number;
  growthMb: number;
  restMb: number;
  serverCpuS: number;
  /** rows the import refused as duplicates */
  duplicates: number;
  body: unknown;
}

export function runImportBench(): Promise<BenchReport> {
  const workload = `${ROWS.toLocaleString('en-US')}-row deterministic CSV (9 columns, ~1% quoted fields, no bad rows, valid US phones, 1% duplicates of an earlier row by phone or email) uploaded by curl as multipart to POST /api/admin/leads/import (ASSIGN_ON_IMPORT=false), fresh database each time`;
  return measure('import', workload, async (figures, notes) => {
    log(`import: writing the ${ROWS}-row CSV`);
    const csv = await writeQualityCsv(join(WORK_DIR, `quality-leads-${ROWS}.csv`), ROWS);
    notes.push(
      `CSV ${toMb(csv.bytes)} MB, sha256 ${csv.sha256.slice(0, 16)}…, ${csv.duplicates} duplicate rows (${csv.byPhone} by phone, ${csv.byEmail} by email), written in ${csv.ms} ms`,
    );

    if (process.env.BENCH_NODE_FLAGS)
      notes.push(`servers' Node flags: ${process.env.BENCH_NODE_FLAGS}`);
    log('import: CSV parser alone (in this process)');
    const parse = await parseOnly(csv.path);
    if (parse.leads !== ROWS) throw new Error(`parser found ${parse.leads} leads, not ${ROWS}`);

    log('import: PostgreSQL');
    const pg = await postgresRun(csv, notes);
    const rawRate = pg.raw.rowsPerS;
    figures.push(
      figure('import into PostgreSQL', pg.upload.rowsPerS, 'rows/s', {
        baseline: { label: 'psql \\copy into a bare table', value: rawRate },
        goal: { text: '>= 0.5x raw COPY', met: pg.upload.rowsPerS >= 0.5 * rawRate },
        detail: `${(pg.upload.ms / 1000).toFixed(1)} s to the answer, server CPU ${pg.upload.serverCpuS} s; +${(pg.upload.deferredMs / 1000).toFixed(1)} s deferred work after it: ${pg.upload.endToEndRowsPerS.toLocaleString('en-US')} rows/s end to end`,
      }),
      figure(
        'import into PostgreSQL, against psql \\copy into a leads-shaped table',
        pg.upload.rowsPerS,
        'rows/s',
        {
          baseline: { label: 'psql \\copy into a leads-shaped table', value: pg.indexed.rowsPerS },
          goal: {
            text: `>= ${LEADS_SHAPED_GOAL}x`,
            met: pg.upload.rowsPerS >= LEADS_SHAPED_GOAL * pg.indexed.rowsPerS,
          },
          detail: `with the duplicate (phone, email, externalId) and do-not-call checks; ${pg.upload.duplicates} of ${csv.duplicates} duplicates found`,
        },
      ),
      figure('import into PostgreSQL: duplicates found', pg.upload.duplicates, 'rows', {
        baseline: { label: 'duplicate rows in the file', value: csv.duplicates },
        goal: { text: 'every one', met: pg.upload.duplicates === csv.duplicates },
      }),
      figure('import into PostgreSQL: server RSS growth', pg.upload.growthMb, 'MB', {
        baseline: { label: 'RSS before the upload', value: pg.upload.restMb },
        detail: `peak over the upload and its deferred work; ${pg.upload.growthAtAnswerMb} MB up to the answer`,
        goal: {
          text: `< ${MEMORY_GOAL_MB} MB`,
          met: pg.upload.growthMb < MEMORY_GOAL_MB,
        },
      }),
      figure(
        'psql \\copy into a leads-shaped table (same indexes)',
        pg.indexed.rowsPerS,
        'rows/s',
        {
          baseline: { label: 'psql \\copy into a bare table', value: rawRate },
          detail: `${(pg.indexed.ms / 1000).toFixed(1)} s`,
        },
      ),
      figure('psql \\copy into a leads-shaped table without indexes', pg.plain.rowsPerS, 'rows/s', {
        baseline: { label: 'psql \\copy into a bare table', value: rawRate },
        detail: `${(pg.plain.ms / 1000).toFixed(1)} s`,
      }),
      figure('CSV parse + validation alone (one core)', parse.rowsPerS, 'rows/s', {
        baseline: { label: 'psql \\copy into a bare table', value: rawRate },
      }),
    );

    if (process.env.BENCH_PROFILE !== '0') {
      const rows = Math.min(ROWS, Number(process.env.BENCH_PROFILE_ROWS ?? 200_000));
      log(`import: CPU profile of the server during a ${rows}-row upload into PostgreSQL`);
      notes.push(
        `server CPU profile, ${rows}-row upload into PostgreSQL: ${await profileImport(rows)}`,
      );
    }

    if (process.env.BENCH_IMPORT_PGLITE === '0') return;
    log('import: PGlite');
    const lite = await pgliteRun(csv);
    figures.push(
      figure('import into PGlite: duplicates found', lite.duplicates, 'rows', {
        baseline: { label: 'duplicate rows in the file', value: csv.duplicates },
        goal: { text: 'every one', met: lite.duplicates === csv.duplicates },
      }),
      figure('import into PGlite', lite.rowsPerS, 'rows/s', {
        baseline: { label: 'psql \\copy into a bare table', value: rawRate },
        detail: `${(lite.ms / 1000).toFixed(1)} s to the answer, server CPU ${lite.serverCpuS} s; +${(lite.deferredMs / 1000).toFixed(1)} s deferred work after it: ${lite.endToEndRowsPerS.toLocaleString('en-US')} rows/s end to end`,
      }),
      figure('import into PGlite: server RSS growth', lite.growthMb, 'MB', {
        baseline: { label: 'RSS before the upload', value: lite.restMb },
        detail: `peak over the upload and its deferred work; ${lite.growthAtAnswerMb} MB up to the answer`,
        goal: { text: `< ${MEMORY_GOAL_MB} MB`, met: lite.growthMb < MEMORY_GOAL_MB },
      }),
    );
    notes.push(`PGlite answer: ${JSON.stringify(summary(lite.body))}`);
  });
}

/** The parser over the file as a stream of 64 KiB chunks, as busboy hands it to the route. */
async function parseOnly(path: string): Promise<{ leads: number; rowsPerS: number }> {
  const started = performance.now();
  let leads = 0;
  for await (const batch of parseLeadCsv(createReadStream(path, { highWaterMark: 64 * 1024 }))) {
    leads += batch.leads.length;
  }
  const s = (performance.now() - started) / 1000;
  return { leads, rowsPerS: Math.round(leads / s) };
}

async function postgresRun(csv: QualityCsv, notes: string[]) {
  const url = await recreateDatabase(DB_NAME);
  try {
    notes.push(`PostgreSQL: ${await serverSettings(url)}`);
    const server = await startServer({
      database: { databaseUrl: url },
      env: { MAX_UPLOAD_BYTES: String(Math.max(512 * 1024 * 1024, csv.bytes * 2)) },
    });
    try {
      // Baselines first, with the server idle (it has only migrated the schema).
      const columns =
        'first_name, last_name, phone, email, city, state, age, category, external_id';
      const copyInto = async (table: string) => {
        await psql(url, 'checkpoint');
        const { ms } = await psql(
          url,
          `\\copy ${table} (${columns}) from '${csv.path}' csv header`,
        );
        const [{ n }] = await query<{ n: number }>(url, `select count(*)::int n from ${table}`);
        if (n !== csv.rows) throw new Error(`COPY into ${table} stored ${n} rows`);
        return { ms, rowsPerS: Math.round(csv.rows / (ms / 1000)) };
      };
      await psql(
        url,
        'create table bare (first_name text, last_name text, phone text, email text, city text, state text, age int, category text, external_id text)',
      );
      const raw = await copyInto('bare');
      await psql(url, 'drop table bare');

      await psql(url, 'create table leads_like (like leads including all)');
      const indexed = await copyInto('leads_like');
      await psql(url, 'drop table leads_like');

      await psql(
        url,
        'create table leads_plain (like leads including defaults including identity)',
      );
      const plain = await copyInto('leads_plain');
      await psql(url, 'drop table leads_plain');
      await psql(url, 'checkpoint');

      const upload = await uploadWithReadings(server, csv, {
        url: databaseUrl('postgres'),
        name: DB_NAME,
        notes,
      });
      const [{ leads, history }] = await query<{ leads: number; history: number }>(
        url,
        'select (select count(*) from leads)::int leads, (select count(*) from lead_history)::int history',
      );
      notes.push(
        `PostgreSQL answer: ${JSON.stringify(summary(upload.body))}; stored ${leads} leads, ${history} history rows`,
      );
      const unique = csv.rows - csv.duplicates;
      if (leads !== unique) throw new Error(`the import stored ${leads} leads, not ${unique}`);
      return { raw, indexed, plain, upload };
    } finally {
      await server.stop();
    }
  } finally {
    await dropDatabase(DB_NAME);
  }
}

async function pgliteRun(csv: QualityCsv): Promise<UploadFigures> {
  const dataDir = join(WORK_DIR, 'pglite-import');
  await rm(dataDir, { recursive: true, force: true });
  const database: ServerDatabase = { dataDir };
  const server = await startServer({
    database,
    env: { MAX_UPLOAD_BYTES: String(Math.max(512 * 1024 * 1024, csv.bytes * 2)) },
  });
  try {
    const upload = await uploadWithReadings(server, csv);
    const session = await loginAdmin(server.url);
    const page = await api(server.url, '/api/admin/leads?limit=1', { cookie: session.cookie });
    const total = Number(page.headers.get('x-total-count'));
    const unique = csv.rows - csv.duplicates;
    if (total !== unique) throw new Error(`PGlite holds ${total} leads, not ${unique}`);
    return upload;
  } finally {
    await server.stop();
    if (process.env.BENCH_KEEP !== '1') await rm(dataDir, { recursive: true, force: true });
  }
}

/** The upload, with the server's RSS sampled every 25 ms and its CPU time read around it. */
async function uploadWithReadings(
  server: BenchServer,
  csv: QualityCsv,
  pg?: { url: string; name: string; notes: string[] },
): Promise<UploadFigures> {
  const session = await loginAdmin(server.url);
  await api(server.url, '/api/admin/leads?limit=1', { cookie: session.cookie }); // warm the route
  const before = server.memory();
  const rss = new RssSampler(server.pid).start();
  const cpuBefore = cpuSeconds(server.pid);
  const activity = pg
    ? await new PgActivitySampler(pg.url, pg.name, 100, cpuSeconds).start()
    : null;
  const res = await uploadCsv(`${server.url}/api/admin/leads/import`, session.cookie, csv.path);
  const profile = await activity?.stop();
  const serverCpuS = Math.round((cpuSeconds(server.pid) - cpuBefore) * 10) / 10;
  const atAnswer = server.memory();
  const peakAtAnswer =
    atAnswer.hwm > before.hwm ? atAnswer.hwm : Math.max(rss.maxRss, atAnswer.rss);
  // Work the server defers past its answer (search index catch-up) is part of the import's cost.
  const deferredMs =
    (pg ? await waitDatabaseQuiet(pg.name, { quietMs: 1500 }) : 0) +
    (await waitProcessQuiet(server.pid, { quietMs: 1500 }));
  const after = rss.stop();
  if (res.status !== 200) {
    throw new Error(`import answered ${res.status}: ${JSON.stringify(res.body).slice(0, 500)}`);
  }
  const { imported, duplicates } = res.body as { imported?: number; duplicates?: number };
  if (imported !== csv.rows - csv.duplicates || duplicates !== csv.duplicates) {
    throw new Error(
      `import answered imported=${imported} duplicates=${duplicates}, not ${csv.rows - csv.duplicates} and ${csv.duplicates}`,
    );
  }
  // VmHWM is the peak since start: when it rose during the upload it is the upload's peak.
  const peak = after.hwm > before.hwm ? after.hwm : after.maxRss;
  if (profile && pg) {
    pg.notes.push(
      `PostgreSQL upload: server CPU ${serverCpuS} s and database backend CPU ${profile.backendCpuS} s over ${(res.ms / 1000).toFixed(1)} s wall; a statement was running in ${Math.round(profile.busyShare * 100)}% of ${profile.samples} samples; top: ${profile.top
        .map((t) => `${Math.round(t.share * 100)}% [${t.waits}] ${t.query.slice(0, 90)}`)
        .join(' | ')}`,
    );
  }
  return {
    rowsPerS: Math.round(csv.rows / (res.ms / 1000)),
    ms: Math.round(res.ms),
    deferredMs: Math.round(deferredMs),
    endToEndRowsPerS: Math.round(csv.rows / ((res.ms + deferredMs) / 1000)),
    growthMb: toMb(peak - before.rss),
    growthAtAnswerMb: toMb(peakAtAnswer - before.rss),
    restMb: toMb(before.rss),
    serverCpuS,
    duplicates,
    body: res.body,
  };
}

/** The same upload into a fresh database, with the server under --cpu-prof (it runs slower). */
async function profileImport(rows: number): Promise<string> {
  const csv = await writeQualityCsv(join(WORK_DIR, `quality-leads-${rows}.csv`), rows);
  const url = await recreateDatabase(DB_NAME);
  const dir = join(WORK_DIR, 'profiles', 'import-postgres');
  await rm(dir, { recursive: true, force: true });
  const window = { fromUs: 0, toUs: 0 };
  try {
    const server = await startServer({
      database: { databaseUrl: url },
      env: { MAX_UPLOAD_BYTES: String(Math.max(512 * 1024 * 1024, csv.bytes * 2)) },
      nodeFlags: ['--cpu-prof', '--cpu-prof-dir', dir],
    });
    try {
      const session = await loginAdmin(server.url);
      window.fromUs = monotonicUs();
      const res = await uploadCsv(`${server.url}/api/admin/leads/import`, session.cookie, csv.path);
      window.toUs = monotonicUs();
      if (res.status !== 200) throw new Error(`profiled import answered ${res.status}`);
    } finally {
      await server.stop();
    }
  } finally {
    await dropDatabase(DB_NAME);
  }
  return describeProfile(summarizeProfile(mainThreadProfile(dir), window, 8));
}

function summary(body: unknown) {
  const b = body as Record<string, unknown>;
  return {
    imported: b.imported,
    duplicates: b.duplicates,
    dnc: b.dnc,
    errorCount: b.errorCount,
    assigned: b.assigned,
  };
}

export interface QualityCsv extends CsvFile {
  /** rows that repeat an earlier row's phone or email: the import must refuse exactly these */
  duplicates: number;
  byPhone: number;
  byEmail: number;
}

/** Area codes the numbers are spread over (each NPA-NXX checked valid with libphonenumber). */
// biome-ignore format: a list
const AREA_CODES = [
  '201', '202', '203', '205', '206', '207', '208', '210', '212', '213', '214', '215', '216',
  '217', '218', '219', '224', '225', '228', '229', '231', '234', '239', '240', '248', '251',
  '252', '253', '254', '256', '260', '262', '267', '269', '270', '281', '301', '302', '303',
  '304', '305', '307', '308', '309', '310', '312', '313', '314', '315', '316',
];

/** Valid US numbers, each once: the k-th spreads k over area code, exchange and line. */
class PhoneSequence {
  private k = 0;
  next(): string {
    for (;;) {
      const k = this.k++;
      const npa = AREA_CODES[k % AREA_CODES.length] as string;
      const rest = Math.floor(k / AREA_CODES.length);
      const nxx = 200 + (rest % 800);
      const line = String(Math.floor(rest / 800) % 10_000).padStart(4, '0');
      const phone = `${npa}-${nxx}-${line}`;
      if (phoneE164(phone) !== null) return phone;
    }
  }
}

/** How far back a duplicate reaches, in rows (kept in a ring in this process). */
const DUPLICATE_REACH = 50_000;
const RING = 65_536;

/**
 * The bench's CSV: the seeded lead rows (lib/leads-data) with valid, distinct phones and
 * distinct emails, except every 100th row (1%), which repeats an earlier, stored row's phone
 * (written '(212) 345-0123') or email (upper-cased), alternately; deterministic.
 */
export async function writeQualityCsv(path: string, rows: number): Promise<QualityCsv> {
  const started = performance.now();
  await mkdir(dirname(path), { recursive: true });
  const out = createWriteStream(path);
  const hash = createHash('sha256');
  const gen = new LeadGenerator();
  const phones = new PhoneSequence();
  const ringPhone: string[] = new Array(RING);
  const ringEmail: (string | null)[] = new Array(RING);
  let bytes = 0;
  let byPhone = 0;
  let byEmail = 0;
  const write = async (chunk: string) => {
    hash.update(chunk);
    bytes += Buffer.byteLength(chunk);
    if (!out.write(chunk)) await once(out, 'drain');
  };
  await write(CSV_HEADER);
  let chunk = '';
  for (let i = 0; i < rows; i++) {
    const row = gen.next();
    if (i >= 100 && i % 100 === 99) {
      // an earlier row that is not itself a duplicate (so it was stored)
      let j = i - 1 - Math.floor(gen.rand() * Math.min(i - 1, DUPLICATE_REACH));
      if (j % 100 === 99) j--;
      const email = ringEmail[j % RING] ?? null;
      if ((i / 100) % 2 < 1 || email === null) {
        const p = ringPhone[j % RING] as string;
        row.phone = `(${p.slice(0, 3)}) ${p.slice(4)}`;
        row.email = `dup${i}@example.org`;
        byPhone++;
      } else {
        row.phone = phones.next();
        row.email = email.toUpperCase();
        byEmail++;
      }
    } else {
      row.phone = phones.next();
      ringPhone[i % RING] = row.phone;
      ringEmail[i % RING] = row.email;
    }
    chunk += csvLine(row);
    if (chunk.length > 256 * 1024) {
      await write(chunk);
      chunk = '';
    }
  }
  await write(chunk);
  out.end();
  await once(out, 'finish');
  return {
    path,
    rows,
    bytes,
    sha256: hash.digest('hex'),
    ms: Math.round(performance.now() - started),
    duplicates: byPhone + byEmail,
    byPhone,
    byEmail,
  };
}

if (isMain(import.meta.url)) runStandalone(runImportBench);
