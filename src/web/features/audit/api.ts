import type { AdminAuditQuery, AuditPage } from '@shared/contracts/audit';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { getQueryFn } from '@web/lib/query-client';

/** A page of the audit log for admins (docs/domain.md, Audit log), filtered. */
export function adminAuditQuery(params: Partial<AdminAuditQuery>) {
  return queryOptions({
    queryKey: ['/api/admin/audit', params] as const,
    queryFn: getQueryFn<AuditPage>({ on401: 'throw' }),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

/** A page of the agency's audit log (its owner only). */
export function agencyAuditQuery(params: { page: number; pageSize: number }) {
  return queryOptions({
    queryKey: ['/api/agency/audit', params] as const,
    queryFn: getQueryFn<AuditPage>({ on401: 'throw' }),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}
