import type { DncUploadResult } from '@shared/contracts/dnc';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@web/components/ui/card';
import { X } from 'lucide-react';

/** The last upload's counts and its bad lines (line and reason). */
export function DncUploadReport({
  filename,
  result,
  onDismiss,
}: {
  filename: string;
  result: DncUploadResult;
  onDismiss: () => void;
}) {
  const more = result.errorCount - result.errors.length;
  return (
    <Card className="gap-3" data-testid="dnc-upload-report">
      <CardHeader className="flex flex-row items-start justify-between gap-2">
        <div className="min-w-0 space-y-1">
          <CardTitle asChild>
            <h2 className="wrap-anywhere">Uploaded {filename}</h2>
          </CardTitle>
          <p className="text-muted-foreground text-sm" data-testid="dnc-upload-counts">
            {result.added.toLocaleString('en-US')} added ·{' '}
            {result.alreadyListed.toLocaleString('en-US')} already listed ·{' '}
            {result.errorCount.toLocaleString('en-US')} not valid
          </p>
        </div>
        <Button variant="ghost" size="icon" onClick={onDismiss} aria-label="Dismiss upload report">
          <X aria-hidden="true" />
        </Button>
      </CardHeader>
      {result.errors.length > 0 && (
        <CardContent>
          <details className="rounded-md border">
            <summary className="cursor-pointer select-none px-3 py-2 font-medium text-sm">
              Show the {result.errorCount} lines that were not added
            </summary>
            <ul
              className="max-h-64 divide-y overflow-y-auto border-t text-sm"
              data-testid="dnc-upload-errors"
            >
              {result.errors.map((error) => (
                <li key={`${error.line}:${error.reason}`} className="flex gap-3 px-3 py-1.5">
                  <span className="w-20 shrink-0 text-muted-foreground">Line {error.line}</span>
                  <span className="wrap-anywhere">{error.reason}</span>
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
