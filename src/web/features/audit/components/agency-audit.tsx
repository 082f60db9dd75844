import { useQuery } from '@tanstack/react-query';
import { Pager } from '@web/components/ui/pager';
import { useBusinessTimeZone } from '@web/features/admin/api';
import { listView } from '@web/lib/list-view';
import { useState } from 'react';
import { agencyAuditQuery } from '../api';
import { AuditTable } from './audit-table';

const PAGE_SIZE = 25;

/** The owner's Audit tab (docs/domain.md, Audit log): the events of their agency's members. */
export function AgencyAudit() {
  const timeZone = useBusinessTimeZone();
  const [page, setPage] = useState(1);
  const list = useQuery(agencyAuditQuery({ page, pageSize: PAGE_SIZE }));
  const data = list.data;
  const rows = data?.events ?? [];
  const first = data && data.total > 0 ? (data.page - 1) * data.pageSize + 1 : 0;
  const last = data ? Math.min(data.page * data.pageSize, data.total) : 0;
  return (
    <div className="space-y-3">
      <p className="text-muted-foreground text-sm">
        What the agency's owner and managers changed, and its members' sign-ins and security events,
        newest first.
      </p>
      <AuditTable
        rows={rows}
        timeZone={timeZone}
        view={listView(list, rows.length)}
        error={{
          message: 'The audit log could not be loaded.',
          onRetry: () => list.refetch(),
          retrying: list.isFetching,
        }}
      />
      {data && data.total > 0 && (
        <Pager
          range={`Showing ${first}–${last} of ${data.total}`}
          offset={(page - 1) * PAGE_SIZE}
          pageSize={PAGE_SIZE}
          isLast={last >= data.total}
          fetching={list.isFetching}
          onOffset={(offset) => setPage(Math.floor(offset / PAGE_SIZE) + 1)}
        />
      )}
    </div>
  );
}
