import { AGENT_LEAD_SORTS, type AgentLeadSort, type LeadListQuery } from '@shared/contracts/leads';
import { LEAD_STATUSES, type LeadStatus } from '@shared/domain';
import { leadStatusLabel } from '@shared/format';
import { Input } from '@web/components/ui/input';
import { Pager } from '@web/components/ui/pager';
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '@web/components/ui/select';
import { Search } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'wouter';
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
  /** My Leads' order (the admin list has one order) */
  sort: AgentLeadSort;
  setSort: (value: AgentLeadSort) => void;
  offset: number;
  setOffset: (value: number) => void;
  /** the lead whose drawer is open (`?lead=ID`: a link from an email or the bell, or a row) */
  leadId: number | null;
  openLead: (id: number | null, options?: { replace?: boolean }) => void;
  /** what the server is asked for: the search once typing pauses, the filter, order and page */
  params: LeadListQuery & { sort?: AgentLeadSort };
}

export const DEFAULT_SORT: AgentLeadSort = 'uncontacted';

const SORT_LABELS: Record<AgentLeadSort, string> = {
  uncontacted: 'Uncontacted first',
  newest: 'Newest first',
  oldest: 'Oldest first',
};

const positive = (value: string | null) => {
  const n = Number(value);
  return Number.isSafeInteger(n) && n > 0 ? n : null;
};

/**
 * The search box, status filter, order, page and open lead of a leads list searched and paged by
 * the server, kept in the URL (`?q=&status=&sort=&page=&lead=`) so that a reload, the back button
 * and a shared link keep them. The page holds it and hands it to the list and to whatever else
 * follows the filter (the export). `sortable`: My Leads' order is asked of the server.
 */
export function useLeadsListState({ sortable = false } = {}): LeadsListState {
  const [url, setUrl] = useSearchParams();
  const urlQ = url.get('q') ?? '';
  const statusParam = url.get('status');
  const status = LEAD_STATUSES.find((s) => s === statusParam) ?? ALL;
  const sort = AGENT_LEAD_SORTS.find((s) => s === url.get('sort')) ?? DEFAULT_SORT;
  const offset = ((positive(url.get('page')) ?? 1) - 1) * PAGE_SIZE;
  const leadId = positive(url.get('lead'));

  /** Changes some of the list's parameters, keeping the others; null or '' removes one. */
  const update = (changes: Record<string, string | null>, options?: { replace?: boolean }) =>
    setUrl((prev) => {
      const next = new URLSearchParams(prev);
      for (const [key, value] of Object.entries(changes)) {
        if (value === null || value === '') next.delete(key);
        else next.set(key, value);
      }
      return next;
    }, options);

  // the box holds what is typed; the URL gets it once typing pauses (replacing the entry, so
  // back does not step through every word), and a new search starts at the first page
  const [search, setSearch] = useState(urlQ);
  const written = useRef(urlQ);
  if (urlQ !== written.current) {
    // the URL changed by itself (back, a link): the box follows
    written.current = urlQ;
    setSearch(urlQ);
  }
  const q = useDebounced(search.trim(), SEARCH_DELAY_MS);
  // biome-ignore lint/correctness/useExhaustiveDependencies: written only when the typed search settles
  useEffect(() => {
    if (q === written.current) return;
    written.current = q;
    update({ q, page: null }, { replace: true });
  }, [q]);

  return {
    search,
    setSearch,
    status,
    setStatus: (value) => update({ status: value === ALL ? null : value, page: null }),
    sort,
    setSort: (value) => update({ sort: value === DEFAULT_SORT ? null : value, page: null }),
    offset,
    setOffset: (value) =>
      update({ page: value <= 0 ? null : String(Math.floor(value / PAGE_SIZE) + 1) }),
    leadId,
    openLead: (id, options) => update({ lead: id === null ? null : String(id) }, options),
    params: {
      q: urlQ || undefined,
      status: status === ALL ? undefined : status,
      ...(sortable ? { sort } : {}),
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
  sortable = false,
}: {
  state: LeadsListState;
  page: LeadsPage | undefined;
  failed: boolean;
  /** My Leads: the order by received time */
  sortable?: boolean;
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
        {sortable && (
          <Select
            value={state.sort}
            onValueChange={(value) => state.setSort(value as AgentLeadSort)}
          >
            <SelectTrigger className="w-full sm:w-48" aria-label="Sort by received">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              {AGENT_LEAD_SORTS.map((s) => (
                <SelectItem key={s} value={s}>
                  {SORT_LABELS[s]}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        )}
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
    <Pager
      range={pageRange(offset, page.leads.length, page.total, page.exact)}
      rangeTestId="page-range"
      offset={offset}
      pageSize={PAGE_SIZE}
      isLast={lastPage}
      fetching={fetching}
      onOffset={setOffset}
    />
  );
}
