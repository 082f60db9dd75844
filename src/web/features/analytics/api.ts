import type { Analytics } from '@shared/contracts/admin';
import type { SourceStats, SpeedToLead } from '@shared/contracts/analytics';
import { queryOptions } from '@tanstack/react-query';
import { getQueryFn } from '@web/lib/query-client';

import type { Period } from './analytics-format';

export type { Period };

/** Every period's figures (what a new lead or an assignment makes stale). */
export const analyticsKey = ['/api/admin/analytics'] as const;

/** The Analytics page's tiles and charts for a period (docs/domain.md, Analytics that explain). */
export function analyticsQuery(period: Period) {
  return queryOptions({
    queryKey: [...analyticsKey, period] as const,
    queryFn: getQueryFn<Analytics>({ on401: 'throw' }),
  });
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
