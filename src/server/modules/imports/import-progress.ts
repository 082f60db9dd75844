/**
 * How far the imports running in this process are. The import's own transaction cannot show its
 * rows to anyone before it commits, so the figures live here (and, on PostgreSQL, are copied
 * into the imports row every second over another connection, for the other app processes).
 */
export interface ImportProgress {
  rowsSeen: number;
  imported: number;
  duplicates: number;
  /** rows refused because their phone is on the do-not-call list */
  dnc: number;
  suppressed: number;
  /** rows refused because their consent failed its check */
  consent: number;
  errorCount: number;
  bytesSeen: number;
}

const running = new Map<number, ImportProgress>();

export function startProgress(importId: number): ImportProgress {
  const progress = {
    rowsSeen: 0,
    imported: 0,
    duplicates: 0,
    dnc: 0,
    suppressed: 0,
    consent: 0,
    errorCount: 0,
    bytesSeen: 0,
  };
  running.set(importId, progress);
  return progress;
}

export function progressOf(importId: number): ImportProgress | undefined {
  return running.get(importId);
}

export function endProgress(importId: number): void {
  running.delete(importId);
}

/** The imports running in this process. */
export function runningImportIds(): number[] {
  return [...running.keys()];
}
