import type {
  ImportListQuery,
  ImportRecord,
  ImportResult,
  ImportRowError,
} from '../../../shared/contracts/leads';
import type { Database, Db } from '../../db/client';
import { AppError, notFound } from '../../lib/app-error';
import {
  type ConsentConfig,
  type ImportConsentCheck,
  importConsentCheck,
} from '../consent/consent.service';
import {
  LeadGroupWriter,
  recordImportRefusals,
  type StoredGroup,
} from '../leads/lead-life.service';
import { requireActiveSource } from '../sources/sources.service';
import { type ImportConnection, withImportConnection } from './import-connection';
import { endProgress, type ImportProgress, startProgress } from './import-progress';
import {
  failAbandonedImports,
  findImport,
  listImports,
  markImportDone,
  markImportFailed,
  saveImportFigures,
} from './imports.repository';
import { type CsvBatch, parseLeadCsv } from './lead-csv';

/** Row errors kept on the import record and sent back; the count covers them all. */
export const MAX_REPORTED_ERRORS = 1000;

/**
 * Rows per group: one COPY and one savepoint each. Enough that a million rows take 50 savepoints
 * (PostgreSQL keeps 64 subtransactions per transaction in shared memory; beyond that every reader
 * of the rows in flight pays a lookup); small enough that memory holds little: the open group's
 * columns (each row's COPY text line and what the check reads of it) and the group in flight's
 * COPY text (~2 MB). The check statement costs per row, not per group (decision 042). The
 * parser's batches (IMPORT_PARSE_BATCH_ROWS rows) stream into the open group and die young.
 */
export const IMPORT_GROUP_ROWS = 20_000;

/**
 * Rows the parser hands over at a time. A batch's parsed rows live until the group writer takes
 * them; 500 rows are a few hundred kilobytes of allocation, so they die in V8's young generation
 * instead of being copied into the old one (docs/decisions/049).
 */
export const IMPORT_PARSE_BATCH_ROWS = 500;

/**
 * Rows per group on PGlite. The engine lives in the server's own WASM heap, which never gives
 * memory back: a group's COPY text, its copy in the engine's file system and the insert
 * trigger's transition table all raise that heap's high-water mark. Smaller groups keep a
 * million-row import's memory growth down (PGlite has no other sessions, so more
 * subtransactions cost nothing there).
 */
export const PGLITE_IMPORT_GROUP_ROWS = 10_000;

/** How often the running figures are written to the imports row (PostgreSQL). */
const PROGRESS_WRITE_MS = 1000;

/**
 * An upload that sends nothing for this long is abandoned: its open transaction would otherwise
 * hold the import lock (and, on PGlite, the only connection) for as long as the client likes.
 */
export const UPLOAD_IDLE_MS = 120_000;

/**
 * Called once an import is committed, with its id; answers how many leads it assigned (null when
 * nothing ran). The assignment engine hooks in here (ASSIGN_ON_IMPORT).
 */
export type OnImported = (importId: number) => Promise<number | null>;
export const noAssignmentAfterImport: OnImported = async () => null;

export interface ImportInput {
  file: AsyncIterable<Buffer> | NodeJS.ReadableStream;
  filename: string;
  actorId: number;
  /** the source the upload names (multipart field sourceId): every lead keeps it */
  sourceId: number | null;
  /** true once the whole upload was read, if it was cut at the size limit */
  wasTruncated: () => boolean;
  maxBytes: number;
  /** DUPLICATE_WINDOW_DAYS (config); 30 when not given */
  duplicateWindowDays?: number;
  /** TrustedForm's key and SELLER_NAME (config): the consent rules the rows are checked by */
  consent?: ConsentConfig;
}

const DEFAULT_DUPLICATE_WINDOW_DAYS = 30;

export interface ImportHooks {
  /** runs after the import committed (the assignment engine) */
  onImported: OnImported;
  /** runs after the import committed, before onImported (the search indexer's kick) */
  afterCommit?: () => void;
}

/**
 * Streams a CSV into the leads table. The file is parsed batch by batch (memory stays flat) and
 * the rows sent with COPY as they come, all in one transaction: good rows are kept
 * whatever bad rows hold, a file that turns out unusable (too large, binary data, an unclosed
 * quote) stores nothing, and a crash leaves the whole import or none of it. The import is
 * recorded with its counts and first row errors either way.
 */
export async function importLeads(
  database: Database,
  input: ImportInput,
  hooks: ImportHooks,
): Promise<ImportResult> {
  // a process that died mid-import left its record RUNNING: settle it before this one starts
  await failAbandonedImports(database).catch(() => {});
  const record = {
    userId: input.actorId,
    filename: input.filename.slice(0, 255),
    sourceId: input.sourceId,
  };
  // read before the import's connection is taken (PGlite has only the one)
  const consentCheck = await importConsentCheck(database.db, input.consent ?? {}, input.sourceId);
  const result = await withImportConnection(database, record, (connection) =>
    runImport(database, connection, input, consentCheck),
  );
  hooks.afterCommit?.();
  const assigned = await hooks.onImported(result.importId);
  return { ...result, assigned };
}

async function runImport(
  database: Database,
  connection: ImportConnection,
  input: ImportInput,
  consentCheck: ImportConsentCheck | null,
): Promise<Omit<ImportResult, 'assigned'>> {
  const { importId } = connection;
  const progress = startProgress(importId);
  const errors: ImportRowError[] = [];
  /** duplicates, do-not-call and consent refusals, by line (capped like the errors) */
  const refusedLines: ImportRowError[] = [];
  const saver = new ProgressSaver(database, importId, progress);
  const groupRows = database.pglite ? PGLITE_IMPORT_GROUP_ROWS : IMPORT_GROUP_ROWS;

  try {
    await connection.transaction(async (session) => {
      // The rows stream into the open COPY while the parser reads on: the database and this
      // process work side by side, and memory holds one group of COPY text at most.
      const writer = new LeadGroupWriter(session, {
        importId,
        sourceId: input.sourceId,
        duplicateWindowDays: input.duplicateWindowDays ?? DEFAULT_DUPLICATE_WINDOW_DAYS,
      });
      /** the batch's rows whose consent holds; the others counted and reported by line */
      const checkBatchConsent = async (check: ImportConsentCheck, batch: CsvBatch, id: number) => {
        const { keep, refused } = await check(batch.leads, id);
        progress.consent += refused.length;
        for (const line of refused) {
          if (refusedLines.length >= MAX_REPORTED_ERRORS) break;
          refusedLines.push(line);
        }
        return keep;
      };
      const count = (stored: StoredGroup) => {
        progress.imported += stored.imported;
        progress.duplicates += stored.duplicates;
        progress.dnc += stored.dnc;
        progress.suppressed += stored.suppressed;
        for (const line of stored.refusedLines) {
          if (refusedLines.length >= MAX_REPORTED_ERRORS) break;
          refusedLines.push(line);
        }
      };
      const file = withIdleTimeout(input.file, UPLOAD_IDLE_MS);
      try {
        for await (const batch of parseLeadCsv(file, { batchSize: IMPORT_PARSE_BATCH_ROWS })) {
          countBatch(batch, progress, errors);
          saver.maybeSave();
          writer.add(
            consentCheck ? await checkBatchConsent(consentCheck, batch, importId) : batch.leads,
          );
          if (writer.size >= groupRows) count(await writer.endGroup());
        }
        count(await writer.finish());
      } catch (err) {
        await writer.abort(); // a COPY left open would hold the connection
        throw err;
      }
      if (input.wasTruncated()) throw tooLarge(input.maxBytes);
      await saver.flush();
      await markImportDone(session, importId, progress, errors, refusedLines);
      await recordImportRefusals(session, {
        importId,
        sourceId: input.sourceId,
        invalid: progress.errorCount,
        duplicates: progress.duplicates,
        dnc: progress.dnc,
        suppressed: progress.suppressed,
        consent: progress.consent,
      });
    });
  } catch (err) {
    const failure = input.wasTruncated() ? tooLarge(input.maxBytes) : err;
    await saver.flush();
    await markImportFailed(
      database.db,
      importId,
      progress.rowsSeen,
      failure instanceof AppError ? failure.message : 'Internal error',
    );
    endProgress(importId);
    throw failure;
  }
  endProgress(importId);
  return {
    imported: progress.imported,
    duplicates: progress.duplicates,
    dnc: progress.dnc,
    suppressed: progress.suppressed,
    consent: progress.consent,
    duplicateLines: refusedLines,
    errors,
    errorCount: progress.errorCount,
    importId,
  };
}

function countBatch(batch: CsvBatch, progress: ImportProgress, errors: ImportRowError[]): void {
  progress.rowsSeen = batch.rowsSeen;
  progress.bytesSeen = batch.bytesSeen;
  progress.errorCount += batch.errors.length;
  for (const e of batch.errors) {
    if (errors.length >= MAX_REPORTED_ERRORS) break;
    errors.push({ line: e.line, reason: e.reason });
  }
}

/**
 * Copies the running figures into the imports row about once a second, over the pool (outside
 * the import's transaction), for app processes other than this one. PGlite has one connection,
 * held by the import: there the in-memory figures are all there is.
 */
class ProgressSaver {
  private lastSave = Date.now();
  private pending: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly database: Database,
    private readonly importId: number,
    private readonly progress: ImportProgress,
  ) {}

  maybeSave(): void {
    if (!this.database.pool || Date.now() - this.lastSave < PROGRESS_WRITE_MS) return;
    this.lastSave = Date.now();
    const figures = { ...this.progress };
    const db = this.database.db;
    this.pending = this.pending
      .then(() => saveImportFigures(db, this.importId, figures))
      .catch(() => {
        /* progress is a courtesy: the import goes on */
      });
  }

  /** Waits for the last write, so that it cannot land after the final figures. */
  flush(): Promise<unknown> {
    return this.pending;
  }
}

/** The upload's chunks, failing when none arrives for `ms` (the time this side works is not counted). */
async function* withIdleTimeout(
  source: AsyncIterable<Buffer> | NodeJS.ReadableStream,
  ms: number,
): AsyncGenerator<Buffer> {
  const chunks = (source as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
  let finished = false;
  try {
    for (;;) {
      let timer: NodeJS.Timeout | undefined;
      const stalled = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(uploadStalled(ms)), ms);
      });
      let next: IteratorResult<Buffer>;
      try {
        next = await Promise.race([chunks.next(), stalled]);
      } finally {
        clearTimeout(timer);
      }
      if (next.done) {
        finished = true;
        return;
      }
      yield next.value;
    }
  } finally {
    // ends the upload stream if it is still open (not awaited: a stalled one may never answer)
    if (!finished) chunks.return?.()?.catch(() => {});
  }
}

function uploadStalled(ms: number): AppError {
  return new AppError(
    'BAD_REQUEST',
    `The upload stopped sending data for ${Math.round(ms / 1000)} seconds; the import was cancelled`,
  );
}

export function tooLarge(maxBytes: number): AppError {
  return new AppError(
    'PAYLOAD_TOO_LARGE',
    `The file is larger than the upload limit of ${formatBytes(maxBytes)}`,
  );
}

function formatBytes(n: number): string {
  if (n >= 1024 * 1024) return `${Math.round((n / (1024 * 1024)) * 10) / 10} MB`;
  if (n >= 1024) return `${Math.round((n / 1024) * 10) / 10} KB`;
  return `${n} bytes`;
}

/**
 * The source an upload names, as the multipart field gives it: null for none, else an existing,
 * active source's id (400 otherwise, before a row is read).
 */
export async function importSource(db: Db, field: string | undefined): Promise<number | null> {
  const raw = field?.trim() ?? '';
  if (raw === '') return null;
  const id = /^\d{1,9}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(id) || id <= 0) {
    throw new AppError(
      'BAD_REQUEST',
      `sourceId must be a source's id (a positive integer), not '${raw.slice(0, 40)}'`,
    );
  }
  await requireActiveSource(db, id);
  return id;
}

/** The most recent imports, newest first (the import screen polls this while one runs). */
export function listRecentImports(db: Db, query: ImportListQuery): Promise<ImportRecord[]> {
  return listImports(db, query);
}

export async function getImport(db: Db, id: number): Promise<ImportRecord> {
  const record = await findImport(db, id);
  if (!record) throw notFound('Import');
  return record;
}

/** Marks FAILED the imports a dead process left RUNNING; answers their ids. */
export function settleAbandonedImports(database: Database): Promise<number[]> {
  return failAbandonedImports(database);
}
