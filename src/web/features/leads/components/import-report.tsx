import type { ImportResult } from '@shared/contracts/leads';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@web/components/ui/card';
import { X } from 'lucide-react';

/** The last import's counts and its row errors (line and reason), for the admin to fix. */
export function ImportReport({
  result,
  onDismiss,
}: {
  result: ImportResult;
  onDismiss: () => void;
}) {
  const more = result.errorCount - result.errors.length;
  return (
    <Card className="gap-3" data-testid="import-report">
      <CardHeader className="flex flex-row items-start justify-between gap-2">
        <div className="space-y-1">
          <CardTitle asChild>
            <h2>Last import</h2>
          </CardTitle>
          <p className="text-muted-foreground text-sm" data-testid="import-counts">
            {result.imported} imported · {result.duplicates} duplicates skipped ·{' '}
            {result.errorCount} errors
            {result.assigned !== null && ` · ${result.assigned} assigned right away`}
          </p>
        </div>
        <Button variant="ghost" size="icon" onClick={onDismiss} aria-label="Dismiss import report">
          <X aria-hidden="true" />
        </Button>
      </CardHeader>
      {result.errors.length > 0 && (
        <CardContent>
          <details className="group rounded-md border">
            <summary className="cursor-pointer select-none px-3 py-2 font-medium text-sm">
              Show the {result.errorCount} rows that were not imported
            </summary>
            <ul
              className="max-h-64 divide-y overflow-y-auto border-t text-sm"
              data-testid="import-errors"
            >
              {result.errors.map((error) => (
                <li key={`${error.line}:${error.reason}`} className="flex gap-3 px-3 py-1.5">
                  <span className="w-20 shrink-0 text-muted-foreground">Line {error.line}</span>
                  <span className="break-words">{error.reason}</span>
                </li>
              ))}
            </ul>
            {more > 0 && (
              <p className="border-t px-3 py-2 text-muted-foreground text-xs">
                …and {more} more (only the first {result.errors.length} are listed)
              </p>
            )}
          </details>
        </CardContent>
      )}
    </Card>
  );
}
