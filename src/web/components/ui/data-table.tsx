import { useIsMobile } from '@web/hooks/use-is-mobile';
import type { ListView } from '@web/lib/list-view';
import { cn } from '@web/lib/utils';
import type { ReactNode } from 'react';
import { LoadError } from './load-error';
import { Skeleton } from './skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from './table';

export interface DataColumn<T> {
  /** The column's header, and the label of its value in a phone's card. */
  header: string;
  cell: (row: T) => ReactNode;
  /**
   * How the column shows on a phone, where each row is a card: its title, a badge beside the
   * title, or a labelled line (the default).
   */
  phone?: 'title' | 'badge' | 'line';
  /**
   * Keeps the cell on one line (numbers, badges, buttons). Text cells wrap instead, so the
   * table fits its card at 1280 px rather than pushing its last columns out of sight.
   */
  nowrap?: boolean;
  /**
   * A text cell's least width (a Tailwind min-w class). Text wraps at spaces (and after an
   * email's @) first, and breaks inside a word only as a last resort, so that an unbroken name
   * or address cannot push the table past its container; this width keeps ordinary words whole.
   */
  minWidth?: string;
  align?: 'right';
}

export interface DataTableProps<T> {
  /** The accessible name of the table (and of the card list on phones). */
  label: string;
  columns: DataColumn<T>[];
  rows: T[];
  rowKey: (row: T) => string | number;
  /** data-testid of each row (or card); its loading placeholders get `${rowTestId}-skeleton`. */
  rowTestId: string;
  /** The row's own controls: the last column on a desktop, the foot of the card on a phone. */
  actions?: { header: string; cell: (row: T) => ReactNode };
  view: ListView;
  /** What an empty list says (and offers). */
  empty: ReactNode;
  error: { message: string; onRetry: () => void; retrying: boolean };
  skeletonRows?: number;
}

/**
 * A list of records as a table on a desktop and as cards on a phone (under 768 px), showing
 * one state at a time: placeholders while loading, the error with Retry, the empty message, or
 * the rows. Each row (or card) carries `data-focus-row`, where the focus returns when a
 * dialog opened from it closes after its button is gone.
 */
export function DataTable<T>(props: DataTableProps<T>) {
  const phone = useIsMobile();
  const { view, error, empty } = props;
  if (view === 'error') return <LoadError {...error} />;
  if (view === 'empty') {
    return (
      <div className="px-6 py-12 text-center text-muted-foreground" data-testid="list-empty">
        {empty}
      </div>
    );
  }
  return phone ? <CardList {...props} /> : <DesktopTable {...props} />;
}

const cellClass = <T,>(column: DataColumn<T>) =>
  cn(
    column.nowrap ? 'whitespace-nowrap' : 'whitespace-normal',
    column.align === 'right' && 'text-right',
  );

/** A cell's content: text cells break as a last resort, above their least width. */
function CellContent<T>({ column, row }: { column: DataColumn<T>; row: T }) {
  if (column.nowrap) return column.cell(row);
  return <div className={cn('wrap-anywhere', column.minWidth)}>{column.cell(row)}</div>;
}

function DesktopTable<T>({
  label,
  columns,
  rows,
  rowKey,
  rowTestId,
  actions,
  view,
  skeletonRows = 3,
}: DataTableProps<T>) {
  const loading = view === 'loading';
  const width = columns.length + (actions ? 1 : 0);
  return (
    <Table aria-label={label} aria-busy={loading}>
      <TableHeader>
        <TableRow>
          {columns.map((column) => (
            <TableHead
              key={column.header}
              className={cn('whitespace-normal', column.align === 'right' && 'text-right')}
            >
              {column.header}
            </TableHead>
          ))}
          {actions && (
            <TableHead className="whitespace-normal text-right">{actions.header}</TableHead>
          )}
        </TableRow>
      </TableHeader>
      <TableBody>
        {loading &&
          Array.from({ length: skeletonRows }, (_, row) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity.
            <TableRow key={row} data-testid={`${rowTestId}-skeleton`}>
              {Array.from({ length: width }, (_, cell) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity.
                <TableCell key={cell}>
                  <Skeleton className="h-5 w-full min-w-12" />
                </TableCell>
              ))}
            </TableRow>
          ))}
        {!loading &&
          rows.map((row) => (
            <TableRow key={rowKey(row)} data-testid={rowTestId} data-focus-row="">
              {columns.map((column, index) => (
                <TableCell
                  key={column.header}
                  className={cn(cellClass(column), index === 0 && 'font-medium')}
                >
                  <CellContent column={column} row={row} />
                </TableCell>
              ))}
              {actions && (
                <TableCell className="whitespace-nowrap text-right">
                  <div className="flex justify-end gap-2">{actions.cell(row)}</div>
                </TableCell>
              )}
            </TableRow>
          ))}
      </TableBody>
    </Table>
  );
}

function CardList<T>({
  label,
  columns,
  rows,
  rowKey,
  rowTestId,
  actions,
  view,
  skeletonRows = 3,
}: DataTableProps<T>) {
  const title = columns.find((column) => column.phone === 'title');
  const badges = columns.filter((column) => column.phone === 'badge');
  const lines = columns.filter((column) => !column.phone || column.phone === 'line');
  if (view === 'loading') {
    return (
      <ul aria-label={label} aria-busy="true" className="space-y-3">
        {Array.from({ length: skeletonRows }, (_, row) => (
          <li
            // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity.
            key={row}
            data-testid={`${rowTestId}-skeleton`}
            className="space-y-3 rounded-lg border p-4"
          >
            <Skeleton className="h-5 w-40" />
            <Skeleton className="h-4 w-full" />
            <Skeleton className="h-4 w-2/3" />
          </li>
        ))}
      </ul>
    );
  }
  return (
    <ul aria-label={label} className="space-y-3">
      {rows.map((row) => (
        <li
          key={rowKey(row)}
          data-testid={rowTestId}
          data-focus-row=""
          className="space-y-3 rounded-lg border p-4 text-sm outline-none focus-visible:ring-[3px] focus-visible:ring-ring"
        >
          {(title || badges.length > 0) && (
            <div className="flex items-start justify-between gap-3">
              {title && (
                <div className="min-w-0 font-medium text-base wrap-anywhere">{title.cell(row)}</div>
              )}
              {badges.length > 0 && (
                <div className="flex shrink-0 flex-col items-end gap-1">
                  {badges.map((column) => (
                    <span key={column.header}>{column.cell(row)}</span>
                  ))}
                </div>
              )}
            </div>
          )}
          <dl className="grid grid-cols-[minmax(5rem,auto)_1fr] gap-x-4 gap-y-1.5">
            {lines.map((column) => (
              <div key={column.header} className="contents">
                <dt className="text-muted-foreground">{column.header}</dt>
                <dd className="min-w-0 wrap-anywhere">{column.cell(row)}</dd>
              </div>
            ))}
          </dl>
          {actions && <div className="flex flex-wrap gap-2 *:flex-1">{actions.cell(row)}</div>}
        </li>
      ))}
    </ul>
  );
}
