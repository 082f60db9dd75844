import { useQuery } from '@tanstack/react-query';
import { PageHeader } from '@web/components/layout/page-header';
import { Card, CardContent } from '@web/components/ui/card';
import { Input } from '@web/components/ui/input';
import { Label } from '@web/components/ui/label';
import { Pager } from '@web/components/ui/pager';
import { useBusinessTimeZone } from '@web/features/admin/api';
import { listView } from '@web/lib/list-view';
import { useEffect, useState } from 'react';
import { adminAuditQuery } from '../api';
import { AuditTable } from './audit-table';

const PAGE_SIZE = 50;

function useDebounced<T>(value: T, delay: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return debounced;
}

/**
 * The admins' Audit screen (docs/domain.md, Audit log): every write by an admin or an agency's
 * owner or manager and every security event, newest first, filtered by actor, action and days.
 */
export function AdminAuditPanel() {
  const timeZone = useBusinessTimeZone();
  const [actor, setActor] = useState('');
  const [action, setAction] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [page, setPage] = useState(1);
  const filters = useDebounced(
    {
      actorId: /^\d{1,9}$/.test(actor.trim()) ? Number(actor.trim()) : undefined,
      action: action.trim() || undefined,
      from: from || undefined,
      to: to || undefined,
    },
    300,
  );
  const key = JSON.stringify(filters);
  const [pagedKey, setPagedKey] = useState(key);
  if (key !== pagedKey) {
    setPagedKey(key);
    setPage(1);
  }
  const list = useQuery(adminAuditQuery({ ...filters, page, pageSize: PAGE_SIZE }));
  const data = list.data;
  const rows = data?.events ?? [];
  const first = data && data.total > 0 ? (data.page - 1) * data.pageSize + 1 : 0;
  const last = data ? Math.min(data.page * data.pageSize, data.total) : 0;

  return (
    <>
      <PageHeader
        title="Audit"
        description="Who changed what, from where: admins' and agency owners' writes, logins and other security events. Nothing here can be changed or deleted."
      />
      <Card>
        <CardContent className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          <div className="space-y-1.5">
            <Label htmlFor="audit-actor">Actor (user id)</Label>
            <Input
              id="audit-actor"
              inputMode="numeric"
              value={actor}
              maxLength={9}
              onChange={(e) => setActor(e.target.value)}
              placeholder="Any"
            />
          </div>
          <div className="space-y-1.5">
            <Label htmlFor="audit-action">Action</Label>
            <Input
              id="audit-action"
              value={action}
              maxLength={200}
              onChange={(e) => setAction(e.target.value)}
              placeholder="e.g. login, /api/admin/sources"
            />
          </div>
          <div className="space-y-1.5">
            <Label htmlFor="audit-from">From</Label>
            <Input
              id="audit-from"
              type="date"
              value={from}
              onChange={(e) => setFrom(e.target.value)}
            />
          </div>
          <div className="space-y-1.5">
            <Label htmlFor="audit-to">To</Label>
            <Input id="audit-to" type="date" value={to} onChange={(e) => setTo(e.target.value)} />
          </div>
        </CardContent>
      </Card>
      <Card className="py-0 max-md:border-0 max-md:bg-transparent max-md:shadow-none">
        <CardContent className="px-0 md:[&_td:first-child]:pl-6 md:[&_td:last-child]:pr-6 md:[&_th:first-child]:pl-6 md:[&_th:last-child]:pr-6">
          <AuditTable
            rows={rows}
            timeZone={timeZone}
            onActor={(id) => setActor(String(id))}
            view={listView(list, rows.length)}
            error={{
              message: 'The audit log could not be loaded.',
              onRetry: () => list.refetch(),
              retrying: list.isFetching,
            }}
          />
        </CardContent>
      </Card>
      {data && data.total > 0 && (
        <Pager
          range={`Showing ${first.toLocaleString('en-US')}–${last.toLocaleString('en-US')} of ${data.total.toLocaleString('en-US')}`}
          offset={(page - 1) * PAGE_SIZE}
          pageSize={PAGE_SIZE}
          isLast={last >= data.total}
          fetching={list.isFetching}
          onOffset={(offset) => setPage(Math.floor(offset / PAGE_SIZE) + 1)}
          rangeTestId="audit-range"
        />
      )}
    </>
  );
}
