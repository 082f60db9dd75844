import type { Analytics } from '@shared/contracts/admin';
import type { SourceStats, SpeedToLead } from '@shared/contracts/analytics';
import { queryOptions } from '@tanstack/react-query';
import { getQueryFn } from '@web/lib/query-client';

export const analyticsQuery = queryOptions({
  queryKey: ['/api/admin/analytics'] as const,
  queryFn: getQueryFn<Analytics>({ on401: 'throw' }),
});

/** A period of business dates, both ends included. */
export interface Period {
  from: string;
  to: string;
}

/** Speed to lead for a period: overall, trend, per agent (docs/domain.md, Analytics that explain). */
export function speedToLeadQuery(period: Period) {
  return queryOptions({
    queryKey: ['/api/admin/analytics/speed-to-lead', period] as const,
    queryFn: getQueryFn<SpeedToLead>({ on401: 'throw' }),
  });
}

/** Each source's figures for a period (docs/domain.md, Analytics that explain). */
export function sourceStatsQuery(period: Period) {
  return queryOptions({
    queryKey: ['/api/admin/analytics/sources', period] as const,
    queryFn: getQueryFn<SourceStats>({ on401: 'throw' }),
  });
}
