import type { LeadListQuery } from '@shared/contracts/leads';
import { LEAD_STATUSES, type LeadStatus } from '@shared/domain';
import { leadStatusLabel } from '@shared/format';
import { Button } from '@web/components/ui/button';
import { Input } from '@web/components/ui/input';
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '@web/components/ui/select';
import { ChevronLeft, ChevronRight, Search } from 'lucide-react';
import { useEffect, useState } from 'react';
import type { LeadsPage } from '../api';
import { leadCount, pageRange } from '../lead-display';

const ALL = 'ALL';
export const PAGE_SIZE = 50;
const SEARCH_DELAY_MS = 300;

/** Waits until typing pauses before the value changes, so each keystroke is not a query. */
function useDebounced<T>(value: T, delay: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return debounced;
}

export interface LeadsListState {
  search: string;
  setSearch: (value: string) => void;
  status: LeadStatus | typeof ALL;
  setStatus: (value: LeadStatus | typeof ALL) => void;
  offset: number;
  setOffset: (value: number) => void;
  /** what the server is asked for: the search once typing pauses, the filter and the page */
  params: LeadListQuery;
}

/**
 * The search box, status filter and page of a leads list searched and paged by the server. The
 * page holds it and hands it to the list and to whatever else follows the filter (the export).
 */
export function useLeadsListState(): LeadsListState {
  const [search, setSearch] = useState('');
  const [status, setStatusValue] = useState<LeadStatus | typeof ALL>(ALL);
  const [offset, setOffset] = useState(0);
  const q = useDebounced(search.trim(), SEARCH_DELAY_MS);

  // a new search starts again at the first page
  const [pagedQ, setPagedQ] = useState(q);
  if (q !== pagedQ) {
    setPagedQ(q);
    setOffset(0);
  }
  return {
    search,
    setSearch,
    status,
    setStatus: (value) => {
      setStatusValue(value);
      setOffset(0);
    },
    offset,
    setOffset,
    params: {
      q: q || undefined,
      status: status === ALL ? undefined : status,
      limit: PAGE_SIZE,
      offset,
    },
  };
}

/** The search box, the status filter and the count of matching leads (none while it failed). */
export function LeadsFilterBar({
  state,
  page,
  failed,
}: {
  state: LeadsListState;
  page: LeadsPage | undefined;
  failed: boolean;
}) {
  return (
    <>
      <div className="flex w-full flex-col gap-3 sm:flex-row sm:items-center">
        <div className="relative w-full sm:max-w-sm">
          <Search
            className="-translate-y-1/2 pointer-events-none absolute top-1/2 left-3 size-4 text-muted-foreground"
            aria-hidden="true"
          />
          <Input
            type="search"
            value={state.search}
            onChange={(event) => state.setSearch(event.target.value)}
            placeholder="Name, phone or email"
            aria-label="Search leads"
            className="pl-9"
          />
        </div>
        <Select
          value={state.status}
          onValueChange={(value) => state.setStatus(value as LeadStatus | typeof ALL)}
        >
          <SelectTrigger className="w-full sm:w-44" aria-label="Filter by status">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            <SelectItem value={ALL}>All Status</SelectItem>
            {LEAD_STATUSES.map((s) => (
              <SelectItem key={s} value={s}>
                {leadStatusLabel(s)}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </div>
      <p
        className="shrink-0 text-muted-foreground text-sm"
        data-testid="lead-count"
        aria-live="polite"
      >
        {failed ? '' : page ? leadCount(page.total, page.exact) : 'Loading leads...'}
      </p>
    </>
  );
}

/** "Showing 51–100 of 1,234" with Previous and Next, once there is anything to page. */
export function LeadsPager({
  state,
  page,
  fetching,
}: {
  state: LeadsListState;
  page: LeadsPage | undefined;
  fetching: boolean;
}) {
  if (!page || page.total === 0) return null;
  const { offset, setOffset } = state;
  // past a search's counted matches, there is a next page as long as this one is full
  const lastPage = page.exact ? offset + PAGE_SIZE >= page.total : page.leads.length < PAGE_SIZE;
  return (
    <div className="flex flex-wrap items-center justify-between gap-2">
      <p className="text-muted-foreground text-sm" data-testid="page-range">
        {pageRange(offset, page.leads.length, page.total, page.exact)}
      </p>
      <div className="flex gap-2">
        <Button
          variant="outline"
          size="sm"
          disabled={offset === 0 || fetching}
          onClick={() => setOffset(Math.max(0, offset - PAGE_SIZE))}
        >
          <ChevronLeft aria-hidden="true" />
          Previous
        </Button>
        <Button
          variant="outline"
          size="sm"
          disabled={lastPage || fetching}
          onClick={() => setOffset(offset + PAGE_SIZE)}
        >
          Next
          <ChevronRight aria-hidden="true" />
        </Button>
      </div>
    </div>
  );
}
