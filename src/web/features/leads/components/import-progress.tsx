import { Card, CardContent, CardHeader, CardTitle } from '@web/components/ui/card';
import { Progress } from '@web/components/ui/progress';
import type { CsvImportState } from '../use-csv-import';

const number = (n: number) => n.toLocaleString('en-US');

function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** Upload progress of the running import and, once the server reports it, the rows done. */
export function ImportProgress({ state }: { state: CsvImportState }) {
  const { fileName, upload, record } = state;
  const percent = upload.total > 0 ? Math.round((upload.loaded / upload.total) * 100) : 0;
  const sent = upload.total > 0 && upload.loaded >= upload.total;
  return (
    <Card className="gap-3" data-testid="import-progress">
      <CardHeader>
        <CardTitle asChild>
          <h2>Importing {fileName}</h2>
        </CardTitle>
      </CardHeader>
      <CardContent className="space-y-2">
        <Progress value={percent} aria-label="Upload progress" />
        <div
          className="flex flex-wrap justify-between gap-2 text-muted-foreground text-sm"
          role="status"
          aria-live="polite"
        >
          <span data-testid="upload-progress">
            {sent
              ? 'Upload complete, storing the leads...'
              : `Uploading: ${percent}% (${megabytes(upload.loaded)} of ${megabytes(upload.total)})`}
          </span>
          {record && (
            <span data-testid="rows-processed">
              {number(record.rowsSeen)} rows read · {number(record.imported)} stored
              {record.duplicates > 0 && ` · ${number(record.duplicates)} duplicates`}
              {record.dnc > 0 && ` · ${number(record.dnc)} on the do-not-call list`}
              {record.suppressed > 0 && ` · ${number(record.suppressed)} deleted consumers`}
              {record.consent > 0 && ` · ${number(record.consent)} refused for consent`}
              {record.errorCount > 0 && ` · ${number(record.errorCount)} errors`}
            </span>
          )}
        </div>
      </CardContent>
    </Card>
  );
}
