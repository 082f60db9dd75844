import type { Analytics } from '@shared/contracts/admin';
import { queryOptions } from '@tanstack/react-query';
import { getQueryFn } from '@web/lib/query-client';

export const analyticsQuery = queryOptions({
  queryKey: ['/api/admin/analytics'] as const,
  queryFn: getQueryFn<Analytics>({ on401: 'throw' }),
});
