import type { AdminAgent } from '@shared/contracts/admin';
import type { Lead } from '@shared/contracts/leads';
import { LEAD_STATUSES, type LeadStatus } from '@shared/domain';
import { leadStatusLabel } from '@shared/format';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardHeader } from '@web/components/ui/card';
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
import { adminLeadsQuery } from '../api';
import { leadCount, pageRange } from '../lead-display';
import { AdminLeadsTable } from './admin-leads-table';
import { AssignLeadDialog } from './assign-lead-dialog';

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

/**
 * All leads, searched, filtered and paged by the server (the list can hold millions), with the
 * Assign dialog.
 */
export function AdminLeadsPanel({
  agents,
  agentsLoading,
}: {
  agents: AdminAgent[];
  agentsLoading: boolean;
}) {
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState<LeadStatus | typeof ALL>(ALL);
  const [offset, setOffset] = useState(0);
  const [assigning, setAssigning] = useState<Lead | null>(null);
  const q = useDebounced(search.trim(), SEARCH_DELAY_MS);

  // a new search or filter starts again at the first page
  const [pagedQ, setPagedQ] = useState(q);
  if (q !== pagedQ) {
    setPagedQ(q);
    setOffset(0);
  }

  const page = useQuery({
    ...adminLeadsQuery({
      q: q || undefined,
      status: status === ALL ? undefined : status,
      limit: PAGE_SIZE,
      offset,
    }),
    placeholderData: keepPreviousData,
  });
  const leads = page.data?.leads ?? [];
  const total = page.data?.total ?? 0;
  const exact = page.data?.exact ?? true;
  // past a search's counted matches, there is a next page as long as this one is full
  const lastPage = exact ? offset + PAGE_SIZE >= total : leads.length < PAGE_SIZE;

  return (
    <Card className="gap-4">
      <CardHeader className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div className="flex w-full flex-col gap-3 sm:flex-row sm:items-center">
          <div className="relative w-full sm:max-w-sm">
            <Search
              className="-translate-y-1/2 pointer-events-none absolute top-1/2 left-3 size-4 text-muted-foreground"
              aria-hidden="true"
            />
            <Input
              type="search"
              value={search}
              onChange={(event) => setSearch(event.target.value)}
              placeholder="Search name, phone or email..."
              aria-label="Search leads"
              className="pl-9"
            />
          </div>
          <Select
            value={status}
            onValueChange={(value) => {
              setStatus(value as LeadStatus | typeof ALL);
              setOffset(0);
            }}
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
          {page.data ? leadCount(total, exact) : ''}
        </p>
      </CardHeader>
      <CardContent className="space-y-4">
        {page.isError && (
          <p role="alert" className="text-destructive text-sm">
            The leads could not be loaded. Please try again.
          </p>
        )}
        <AdminLeadsTable leads={leads} isLoading={page.isPending} onAssign={setAssigning} />
        {total > 0 && (
          <div className="flex flex-wrap items-center justify-between gap-2">
            <p className="text-muted-foreground text-sm" data-testid="page-range">
              {pageRange(offset, leads.length, total, exact)}
            </p>
            <div className="flex gap-2">
              <Button
                variant="outline"
                size="sm"
                disabled={offset === 0 || page.isFetching}
                onClick={() => setOffset(Math.max(0, offset - PAGE_SIZE))}
              >
                <ChevronLeft aria-hidden="true" />
                Previous
              </Button>
              <Button
                variant="outline"
                size="sm"
                disabled={lastPage || page.isFetching}
                onClick={() => setOffset(offset + PAGE_SIZE)}
              >
                Next
                <ChevronRight aria-hidden="true" />
              </Button>
            </div>
          </div>
        )}
      </CardContent>
      <AssignLeadDialog
        lead={assigning}
        agents={agents}
        agentsLoading={agentsLoading}
        onClose={() => setAssigning(null)}
      />
    </Card>
  );
}
