import { DNC_UPLOAD_MAX_BYTES, type DncNumber, type DncUploadResult } from '@shared/contracts/dnc';
import { formatPhone, toE164 } from '@shared/phone';
import { useQuery } from '@tanstack/react-query';
import { PageHeader } from '@web/components/layout/page-header';
import { Button } from '@web/components/ui/button';
import { Card, CardContent } from '@web/components/ui/card';
import { ConfirmDialog } from '@web/components/ui/confirm-dialog';
import { Input } from '@web/components/ui/input';
import { Label } from '@web/components/ui/label';
import { Pager } from '@web/components/ui/pager';
import { Spinner } from '@web/components/ui/spinner';
import { toast } from '@web/components/ui/use-toast';
import { useBusinessTimeZone } from '@web/features/admin/api';
import { errorMessage } from '@web/lib/api-client';
import { listView } from '@web/lib/list-view';
import { PhoneOff, Plus, Search, Upload } from 'lucide-react';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { dncQuery, useAddDncNumber, useRemoveDncNumber, useUploadDnc } from '../api';
import { DncTable } from './dnc-table';
import { DncUploadReport } from './dnc-upload-report';

const PAGE_SIZE = 50;

function useDebounced<T>(value: T, delay: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return debounced;
}

const plural = (n: number) => `${n.toLocaleString('en-US')} ${n === 1 ? 'number' : 'numbers'}`;

/** Adds one number typed by the admin; says at once when it is not a phone number. */
function AddNumberForm() {
  const add = useAddDncNumber();
  const [value, setValue] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  function submit(event: FormEvent) {
    event.preventDefault();
    const phone = toE164(value);
    if (!phone) {
      setProblem('Enter a valid phone number, e.g. (305) 555-0123');
      return;
    }
    setProblem(null);
    add.mutate(phone, {
      onSuccess: (result) => {
        toast({
          title:
            result.added > 0
              ? `${formatPhone(phone)} added to the list`
              : `${formatPhone(phone)} was already on the list`,
        });
        setValue('');
      },
      onError: (error) =>
        toast({
          variant: 'destructive',
          title: 'Could not add the number',
          description: errorMessage(error, 'Failed to add the number'),
        }),
    });
  }

  return (
    <form onSubmit={submit} className="space-y-2" noValidate>
      <Label htmlFor="dnc-add-phone">Add a number</Label>
      <div className="flex flex-col gap-2 sm:flex-row">
        <Input
          id="dnc-add-phone"
          type="tel"
          inputMode="tel"
          autoComplete="off"
          placeholder="(305) 555-0123"
          value={value}
          maxLength={40}
          onChange={(event) => setValue(event.target.value)}
          aria-invalid={problem !== null}
          aria-describedby={problem ? 'dnc-add-phone-error' : undefined}
          className="sm:max-w-xs"
        />
        <Button type="submit" disabled={add.isPending}>
          {add.isPending ? <Spinner /> : <Plus aria-hidden="true" />}
          Add Number
        </Button>
      </div>
      {problem && (
        <p id="dnc-add-phone-error" className="text-destructive text-sm" role="alert">
          {problem}
        </p>
      )}
    </form>
  );
}

/** The Do Not Call screen (docs/domain.md, Do-not-call list and consent): count, upload, add, search, list, remove. */
export function AdminDncPanel() {
  const timeZone = useBusinessTimeZone();
  const [search, setSearch] = useState('');
  const [offset, setOffset] = useState(0);
  const q = useDebounced(search.replace(/\D/g, ''), 300);
  const [pagedQ, setPagedQ] = useState(q);
  if (q !== pagedQ) {
    setPagedQ(q);
    setOffset(0);
  }
  const list = useQuery(dncQuery({ q: q || undefined, limit: PAGE_SIZE, offset }));
  const upload = useUploadDnc();
  const remove = useRemoveDncNumber();
  const fileInput = useRef<HTMLInputElement>(null);
  const [report, setReport] = useState<{ filename: string; result: DncUploadResult } | null>(null);
  const [removing, setRemoving] = useState<DncNumber | null>(null);

  function uploadFile(file: File) {
    if (file.size > DNC_UPLOAD_MAX_BYTES) {
      toast({
        variant: 'destructive',
        title: 'File too large',
        description: `A do-not-call upload is at most ${DNC_UPLOAD_MAX_BYTES / 1024 / 1024} MB; split the file.`,
      });
      return;
    }
    upload.mutate(file, {
      onSuccess: (result) => setReport({ filename: file.name, result }),
      onError: (error) =>
        toast({
          variant: 'destructive',
          title: 'Upload failed',
          description: errorMessage(error, 'The file could not be uploaded'),
        }),
    });
  }

  function confirmRemove() {
    if (!removing) return;
    const phone = removing.phone;
    remove.mutate(phone, {
      onSuccess: () => {
        toast({ title: `${formatPhone(phone)} removed from the list` });
        setRemoving(null);
      },
      onError: (error) =>
        toast({
          variant: 'destructive',
          title: 'Could not remove the number',
          description: errorMessage(error, 'Failed to remove the number'),
        }),
    });
  }

  const data = list.data;
  const rows = data?.items ?? [];
  const searching = q !== '';
  return (
    <>
      <PageHeader
        title="Do Not Call"
        description="Numbers never called or messaged: leads with them are refused at import and intake"
        actions={
          <>
            <input
              ref={fileInput}
              type="file"
              accept=".csv,text/csv,text/plain"
              className="sr-only"
              tabIndex={-1}
              aria-label="CSV file of numbers"
              data-testid="dnc-file-input"
              onChange={(event) => {
                const file = event.target.files?.[0];
                event.target.value = '';
                if (file) uploadFile(file);
              }}
            />
            <Button onClick={() => fileInput.current?.click()} disabled={upload.isPending}>
              {upload.isPending ? <Spinner /> : <Upload aria-hidden="true" />}
              Upload CSV
            </Button>
          </>
        }
      />
      <Card>
        <CardContent className="grid gap-6 md:grid-cols-[auto_1fr] md:items-center">
          <div className="space-y-1 md:border-r md:pr-8">
            <p className="text-muted-foreground text-sm">On the list</p>
            <p className="font-bold text-3xl tabular-nums" data-testid="dnc-count">
              {data ? data.count.toLocaleString('en-US') : '—'}
            </p>
          </div>
          <div className="space-y-3">
            <AddNumberForm />
            <p className="text-muted-foreground text-xs">
              A CSV has one number per line, or a <code>phone</code> column; numbers are kept in
              E.164 (+13055550123), so any way of writing one matches.
            </p>
          </div>
        </CardContent>
      </Card>
      {report && (
        <DncUploadReport
          filename={report.filename}
          result={report.result}
          onDismiss={() => setReport(null)}
        />
      )}
      <div className="flex w-full flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div className="relative w-full sm:max-w-sm">
          <Search
            className="-translate-y-1/2 pointer-events-none absolute top-1/2 left-3 size-4 text-muted-foreground"
            aria-hidden="true"
          />
          <Input
            type="search"
            inputMode="tel"
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            placeholder="Search by number"
            aria-label="Search numbers"
            className="pl-9"
          />
        </div>
        <p className="text-muted-foreground text-sm" aria-live="polite" data-testid="dnc-matching">
          {data && searching ? `${plural(data.total)} found` : ''}
        </p>
      </div>
      <Card className="py-0 max-md:border-0 max-md:bg-transparent max-md:shadow-none">
        <CardContent className="px-0 md:[&_td:first-child]:pl-6 md:[&_td:last-child]:pr-6 md:[&_th:first-child]:pl-6 md:[&_th:last-child]:pr-6">
          <DncTable
            rows={rows}
            timeZone={timeZone}
            view={listView(list, rows.length)}
            error={{
              message: 'The do-not-call list could not be loaded.',
              onRetry: () => list.refetch(),
              retrying: list.isFetching,
            }}
            empty={
              <div className="flex flex-col items-center gap-3 py-4">
                <PhoneOff className="size-10" aria-hidden="true" />
                <p>{searching ? 'No number matches' : 'No numbers on the list yet'}</p>
              </div>
            }
            onRemove={setRemoving}
          />
        </CardContent>
      </Card>
      {data && data.total > PAGE_SIZE && (
        <Pager
          range={`Showing ${(offset + 1).toLocaleString('en-US')}–${Math.min(offset + PAGE_SIZE, data.total).toLocaleString('en-US')} of ${data.total.toLocaleString('en-US')}`}
          offset={offset}
          pageSize={PAGE_SIZE}
          isLast={offset + PAGE_SIZE >= data.total}
          fetching={list.isFetching}
          onOffset={setOffset}
        />
      )}
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(open) => {
          if (!open) setRemoving(null);
        }}
        title={`Remove ${removing ? formatPhone(removing.phone) : 'this number'} from the list?`}
        description="Leads with this number can be imported, called and messaged again."
        confirmLabel="Remove"
        cancelLabel="Cancel"
        onConfirm={confirmRemove}
        pending={remove.isPending}
        destructive
        testId="dnc-remove-dialog"
      />
    </>
  );
}
