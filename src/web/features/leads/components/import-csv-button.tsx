import type { ImportResult } from '@shared/contracts/leads';
import { Button } from '@web/components/ui/button';
import { Spinner } from '@web/components/ui/spinner';
import { toast } from '@web/components/ui/use-toast';
import { errorMessage } from '@web/lib/api-client';
import { Upload } from 'lucide-react';
import { type ChangeEvent, useRef } from 'react';
import { importSummary } from '../lead-display';
import type { useCsvImport } from '../use-csv-import';

/** Import CSV: picks one .csv file and uploads it as multipart (progress: ImportProgress). */
export function ImportCsvButton({
  csvImport,
  onImported,
  sourceId = null,
}: {
  csvImport: ReturnType<typeof useCsvImport>;
  onImported: (result: ImportResult) => void;
  /** the source the file comes from (every lead keeps it), or null for none */
  sourceId?: number | null;
}) {
  const input = useRef<HTMLInputElement>(null);

  function handleChange(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = ''; // the same file can be chosen again
    if (!file) return;
    if (!file.name.toLowerCase().endsWith('.csv')) {
      toast({
        variant: 'destructive',
        title: 'Import failed',
        description: 'Only .csv files can be imported',
      });
      return;
    }
    csvImport.start(
      file,
      {
        onSuccess: (result) => {
          if (result.errors.length > 0) console.log('Import errors:', result.errors);
          onImported(result);
          // "successful" only when something was imported: a file of refused rows says so
          if (result.imported > 0) {
            toast({ title: 'Import successful', description: importSummary(result) });
          } else {
            toast({
              variant: 'destructive',
              title: 'Nothing imported',
              description: `${importSummary(result)} See the report below.`,
            });
          }
        },
        onError: (error) => {
          toast({
            variant: 'destructive',
            title: 'Import failed',
            description: errorMessage(error, 'Upload failed'),
          });
        },
      },
      sourceId,
    );
  }

  return (
    <>
      <input
        ref={input}
        type="file"
        accept=".csv"
        className="sr-only"
        tabIndex={-1}
        aria-hidden="true"
        data-testid="csv-file-input"
        onChange={handleChange}
      />
      <Button onClick={() => input.current?.click()} disabled={csvImport.isPending}>
        {csvImport.isPending ? <Spinner /> : <Upload aria-hidden="true" />}
        {csvImport.isPending ? 'Importing...' : 'Import CSV'}
      </Button>
    </>
  );
}
