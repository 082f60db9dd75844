import type { ImportRecord, ImportResult } from '@shared/contracts/leads';
import { useQuery } from '@tanstack/react-query';
import { useCurrentUser } from '@web/features/auth/api';
import { useEffect, useState } from 'react';
import { importQuery, runningImportsQuery, useImportLeads } from './api';
import type { UploadProgress } from './upload-with-progress';

/** How often the page asks how far a running import is. */
export const IMPORT_POLL_MS = 1000;
/** The server is asked only once the upload has run this long (a small file is done before). */
const ASK_AFTER_MS = 1500;

export interface CsvImportState {
  fileName: string;
  upload: UploadProgress;
  /** the server's figures for this import, once known */
  record: ImportRecord | null;
}

/**
 * One CSV import at a time: the upload with its progress and, for a long import, the rows the
 * server has processed so far. This is the one place the web app polls: only while its own
 * import runs, because nothing else could tell the admin how far a minutes-long import is.
 */
export function useCsvImport() {
  const mutation = useImportLeads();
  const me = useCurrentUser();
  const [fileName, setFileName] = useState<string | null>(null);
  const [upload, setUpload] = useState<UploadProgress>({ loaded: 0, total: 0 });
  const [importId, setImportId] = useState<number | null>(null);
  const [askServer, setAskServer] = useState(false);
  const running = mutation.isPending && fileName !== null;

  useEffect(() => {
    if (!running) return;
    const timer = setTimeout(() => setAskServer(true), ASK_AFTER_MS);
    return () => clearTimeout(timer);
  }, [running]);

  // first find this admin's running import of this file, then follow it by id
  const userId = me.data?.id;
  const found = useQuery({
    ...runningImportsQuery,
    enabled: running && askServer && importId === null,
    refetchInterval: IMPORT_POLL_MS,
    select: (records) =>
      records.find((r) => r.userId === userId && r.filename === fileName) ?? null,
  });
  useEffect(() => {
    if (running && found.data) setImportId(found.data.id);
  }, [running, found.data]);
  const followed = useQuery({
    ...importQuery(importId ?? 0),
    enabled: running && importId !== null,
    refetchInterval: IMPORT_POLL_MS,
  });

  function start(
    file: File,
    handlers: { onSuccess: (result: ImportResult) => void; onError: (error: unknown) => void },
    sourceId: number | null = null,
  ) {
    setFileName(file.name);
    setUpload({ loaded: 0, total: file.size });
    setImportId(null);
    setAskServer(false);
    mutation.mutate(
      { file, sourceId, onProgress: setUpload },
      {
        ...handlers,
        onSettled: () => setFileName(null),
      },
    );
  }

  const state: CsvImportState | null = running
    ? { fileName, upload, record: (importId !== null ? followed.data : found.data) ?? null }
    : null;
  return { start, isPending: mutation.isPending, state };
}
