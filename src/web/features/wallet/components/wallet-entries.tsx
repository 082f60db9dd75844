import type { Wallet, WalletEntry } from '@shared/contracts/wallet';
import { formatBusinessTime, formatPriceExact } from '@shared/format';
import { paths } from '@web/app/paths';
import { Card, CardContent, CardHeader, CardTitle } from '@web/components/ui/card';
import { type DataColumn, DataTable } from '@web/components/ui/data-table';
import { Pager } from '@web/components/ui/pager';
import { useBusinessTimeZone } from '@web/features/admin/api';
import type { ListView } from '@web/lib/list-view';
import { cn } from '@web/lib/utils';
import { useMemo } from 'react';
import { Link } from 'wouter';
import { entryKindLabel, signedAmount } from '../wallet-form';

function columns(timeZone: string): DataColumn<WalletEntry>[] {
  return [
    {
      header: 'Date',
      phone: 'title',
      minWidth: 'min-w-28',
      cell: (entry) => formatBusinessTime(entry.createdAt, timeZone),
    },
    {
      header: 'Kind',
      minWidth: 'min-w-28',
      cell: (entry) => (
        <>
          <div className="font-medium">{entryKindLabel(entry.kind)}</div>
          {entry.note && <div className="text-muted-foreground text-xs">{entry.note}</div>}
        </>
      ),
    },
    {
      header: 'Lead',
      minWidth: 'min-w-28',
      cell: (entry) =>
        entry.leadId !== null && entry.leadName ? (
          <Link
            href={`${paths.agent.leads}?lead=${entry.leadId}`}
            className="text-primary underline underline-offset-4"
          >
            {entry.leadName}
          </Link>
        ) : (
          <span className="text-muted-foreground">—</span>
        ),
    },
    {
      header: 'Amount',
      nowrap: true,
      align: 'right',
      cell: (entry) => (
        <span
          className={cn(
            'font-medium tabular-nums',
            entry.amountCents > 0 && 'text-green-700 dark:text-green-400',
            entry.amountCents < 0 && 'text-destructive',
          )}
          data-testid="wallet-entry-amount"
        >
          {signedAmount(entry.amountCents)}
        </span>
      ),
    },
    {
      header: 'Balance after',
      nowrap: true,
      align: 'right',
      cell: (entry) => (
        <span className="tabular-nums">{formatPriceExact(entry.balanceAfterCents)}</span>
      ),
    },
  ];
}

/** The wallet's entries, newest first, a page at a time. */
export function WalletEntries({
  wallet,
  page,
  pageSize,
  fetching,
  error,
  onRetry,
  onPage,
}: {
  wallet: Wallet | undefined;
  page: number;
  pageSize: number;
  fetching: boolean;
  error: boolean;
  onRetry: () => void;
  onPage: (page: number) => void;
}) {
  const timeZone = useBusinessTimeZone();
  const cols = useMemo(() => columns(timeZone), [timeZone]);
  const entries = wallet?.entries ?? [];
  const total = wallet?.total ?? 0;
  const offset = (page - 1) * pageSize;
  const view: ListView = error
    ? 'error'
    : wallet === undefined
      ? 'loading'
      : entries.length === 0
        ? 'empty'
        : 'rows';
  return (
    <Card className="max-md:border-0 max-md:bg-transparent max-md:py-0 max-md:shadow-none">
      <CardHeader className="max-md:px-0">
        <CardTitle asChild>
          <h2 className="text-base">Entries</h2>
        </CardTitle>
      </CardHeader>
      <CardContent className="space-y-4 px-0 md:[&_td:first-child]:pl-6 md:[&_td:last-child]:pr-6 md:[&_th:first-child]:pl-6 md:[&_th:last-child]:pr-6">
        <DataTable
          label="Wallet entries"
          columns={cols}
          rows={entries}
          rowKey={(entry) => entry.id}
          rowTestId="wallet-entry"
          view={view}
          empty="No entries yet: top-ups, leads and credits show here."
          error={{ message: 'The entries could not be loaded.', onRetry, retrying: fetching }}
        />
        {total > pageSize && (
          <div className="md:px-6">
            <Pager
              range={`Showing ${(offset + 1).toLocaleString('en-US')}–${Math.min(offset + pageSize, total).toLocaleString('en-US')} of ${total.toLocaleString('en-US')}`}
              offset={offset}
              pageSize={pageSize}
              isLast={offset + pageSize >= total}
              fetching={fetching}
              onOffset={(next) => onPage(Math.floor(next / pageSize) + 1)}
            />
          </div>
        )}
      </CardContent>
    </Card>
  );
}
