import type { ImportRecord, ImportResult } from '@shared/contracts/leads';
import { formatBusinessTime } from '@shared/format';
import { useQuery } from '@tanstack/react-query';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@web/components/ui/card';
import { useState } from 'react';
import { recentImportsQuery } from '../api';
import { ImportReport } from './import-report';

const number = (n: number) => n.toLocaleString('en-US');

const STATUS_LABEL: Record<ImportRecord['status'], string> = {
  RUNNING: 'Running',
  DONE: 'Done',
  FAILED: 'Failed',
};

/** A recorded import as the report reads it. */
function asResult(record: ImportRecord): ImportResult {
  return {
    imported: record.imported,
    duplicates: record.duplicates,
    dnc: record.dnc,
    suppressed: record.suppressed,
    consent: record.consent,
    duplicateLines: record.duplicateLines,
    errors: record.errors,
    errorCount: record.errorCount,
    importId: record.id,
    assigned: null,
  };
}

/**
 * The recent imports with their figures, each report a click away: what was imported and what
 * was refused stays after the admin leaves the page (the imports' records keep it).
 */
export function ImportHistory() {
  const imports = useQuery(recentImportsQuery);
  const [open, setOpen] = useState<ImportRecord | null>(null);
  const rows = imports.data ?? [];
  return (
    <Card data-testid="import-history">
      <CardHeader>
        <CardTitle asChild>
          <h2>Import history</h2>
        </CardTitle>
        <CardDescription>
          The last 20 files, newest first, with what each one brought.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        {open && (
          <ImportReport
            title={`Import of ${open.filename}`}
            result={asResult(open)}
            onDismiss={() => setOpen(null)}
          />
        )}
        {imports.isPending ? (
          <p className="text-muted-foreground text-sm">Loading imports…</p>
        ) : rows.length === 0 ? (
          <p className="text-muted-foreground text-sm">No file has been imported yet.</p>
        ) : (
          <ul className="divide-y rounded-md border text-sm">
            {rows.map((record) => (
              <li
                key={record.id}
                className="flex flex-col gap-2 p-3 sm:flex-row sm:items-center sm:justify-between"
                data-testid="import-history-row"
              >
                <div className="min-w-0">
                  <p className="truncate font-medium">{record.filename}</p>
                  <p className="text-muted-foreground text-xs">
                    {formatBusinessTime(record.startedAt)} · {STATUS_LABEL[record.status]}
                    {record.message ? ` · ${record.message}` : ''}
                  </p>
                </div>
                <div className="flex items-center gap-3">
                  <span className="text-muted-foreground">
                    {number(record.imported)} imported ·{' '}
                    {number(record.duplicates + record.dnc + record.suppressed + record.consent)}{' '}
                    skipped · {number(record.errorCount)} errors
                  </span>
                  <Button
                    variant="outline"
                    size="sm"
                    onClick={() => setOpen(record)}
                    aria-label={`Report of ${record.filename}`}
                  >
                    Report
                  </Button>
                </div>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
