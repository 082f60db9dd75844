import type { ImportResult, ImportRowError } from '@shared/contracts/leads';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@web/components/ui/card';
import { X } from 'lucide-react';

const number = (n: number) => n.toLocaleString('en-US');

/**
 * The last import's counts, its row errors and its refused rows (duplicates, do-not-call, consent), each
 * by line and reason, for the admin to fix or to understand (docs/domain.md, Lead quality).
 */
export function ImportReport({
  result,
  onDismiss,
  title = 'Last import',
}: {
  result: ImportResult;
  onDismiss: () => void;
  title?: string;
}) {
  const refused = result.duplicates + result.dnc + result.suppressed + result.consent;
  return (
    <Card className="gap-3" data-testid="import-report">
      <CardHeader className="flex flex-row items-start justify-between gap-2">
        <div className="space-y-1">
          <CardTitle asChild>
            <h2>{title}</h2>
          </CardTitle>
          <p className="text-muted-foreground text-sm" data-testid="import-counts">
            {number(result.imported)} imported · {number(result.duplicates)} duplicates skipped ·{' '}
            {number(result.dnc)} on the do-not-call list ·{' '}
            {result.suppressed > 0 && `${number(result.suppressed)} deleted consumers · `}
            {result.consent > 0 && `${number(result.consent)} refused for consent · `}
            {number(result.errorCount)} errors
            {result.assigned !== null && ` · ${number(result.assigned)} assigned right away`}
          </p>
        </div>
        <Button variant="ghost" size="icon" onClick={onDismiss} aria-label="Dismiss import report">
          <X aria-hidden="true" />
        </Button>
      </CardHeader>
      {(result.errors.length > 0 || result.duplicateLines.length > 0) && (
        <CardContent className="space-y-2">
          {result.errors.length > 0 && (
            <RowList
              summary={`Show the ${number(result.errorCount)} rows that were not imported`}
              rows={result.errors}
              total={result.errorCount}
              testId="import-errors"
            />
          )}
          {result.duplicateLines.length > 0 && (
            <RowList
              summary={
                result.consent > 0
                  ? `Show the ${number(refused)} duplicate, do-not-call and consent rows that were skipped`
                  : `Show the ${number(refused)} duplicate and do-not-call rows that were skipped`
              }
              rows={result.duplicateLines}
              total={refused}
              testId="import-duplicates"
            />
          )}
        </CardContent>
      )}
    </Card>
  );
}

/** Rows by line and reason, folded; says how many more there were than the list holds. */
function RowList({
  summary,
  rows,
  total,
  testId,
}: {
  summary: string;
  rows: ImportRowError[];
  total: number;
  testId: string;
}) {
  const more = total - rows.length;
  return (
    <details className="group rounded-md border">
      <summary className="cursor-pointer select-none px-3 py-2 font-medium text-sm">
        {summary}
      </summary>
      <ul className="max-h-64 divide-y overflow-y-auto border-t text-sm" data-testid={testId}>
        {rows.map((row) => (
          <li key={`${row.line}:${row.reason}`} className="flex gap-3 px-3 py-1.5">
            <span className="w-20 shrink-0 text-muted-foreground">Line {row.line}</span>
            <span className="break-words">{row.reason}</span>
          </li>
        ))}
      </ul>
      {more > 0 && (
        <p className="border-t px-3 py-2 text-muted-foreground text-xs">
          …and {number(more)} more (only the first {number(rows.length)} are listed)
        </p>
      )}
    </details>
  );
}
