import { eq, sql } from 'drizzle-orm';
import type { ImportResult, ImportRowError } from '../../../shared/contracts/leads';
import type { Db } from '../../db/client';
import { imports } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { parseLeadCsv } from './lead-csv';
import { storeLeadBatch } from './store-leads';

/** Row errors kept on the import record and sent back; the count covers them all. */
export const MAX_REPORTED_ERRORS = 1000;

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
  /** true once the whole upload was read, if it was cut at the size limit */
  wasTruncated: () => boolean;
  maxBytes: number;
}

/**
 * Streams a CSV into the leads table. The file is parsed batch by batch (memory stays flat) and
 * every batch is stored set-based inside one transaction: good rows are kept whatever bad rows
 * hold, while a file that turns out unusable (too large, binary data, an unclosed quote) stores
 * nothing. The import is recorded with its counts and first row errors either way.
 */
export async function importLeads(
  db: Db,
  input: ImportInput,
  onImported: OnImported,
): Promise<ImportResult> {
  const [record] = await db
    .insert(imports)
    .values({ userId: input.actorId, filename: input.filename.slice(0, 255) })
    .returning({ id: imports.id });
  const importId = record.id;

  const errors: ImportRowError[] = [];
  let errorCount = 0;
  let rowsSeen = 0;
  let imported = 0;
  let duplicates = 0;

  try {
    await db.transaction(async (tx) => {
      for await (const batch of parseLeadCsv(input.file)) {
        const stored = await storeLeadBatch(tx, batch.leads, {
          importId,
          actorId: input.actorId,
        });
        imported += stored.imported;
        duplicates += stored.duplicates;
        errorCount += batch.errors.length;
        rowsSeen = batch.rowsSeen;
        for (const e of batch.errors) {
          if (errors.length >= MAX_REPORTED_ERRORS) break;
          errors.push({ line: e.line, reason: e.reason });
        }
      }
      if (input.wasTruncated()) throw tooLarge(input.maxBytes);
      await tx
        .update(imports)
        .set({
          status: 'DONE',
          rowsSeen,
          imported,
          duplicates,
          errorCount,
          errors,
          finishedAt: sql`now()`,
        })
        .where(eq(imports.id, importId));
    });
  } catch (err) {
    const failure = input.wasTruncated() ? tooLarge(input.maxBytes) : err;
    await db
      .update(imports)
      .set({
        status: 'FAILED',
        rowsSeen,
        message: failure instanceof AppError ? failure.message : 'Internal error',
        finishedAt: sql`now()`,
      })
      .where(eq(imports.id, importId));
    throw failure;
  }

  const assigned = await onImported(importId);
  return { imported, duplicates, errors, errorCount, importId, assigned };
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
