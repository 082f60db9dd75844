import type { OfferedPackage } from '@shared/contracts/packages';
import { queryOptions } from '@tanstack/react-query';
import { getQueryFn } from '@web/lib/query-client';

/** Active packages for the public landing page and for agents choosing one. */
export const packagesQuery = queryOptions({
  queryKey: ['/api/packages'] as const,
  queryFn: getQueryFn<OfferedPackage[]>({ on401: 'throw' }),
});
