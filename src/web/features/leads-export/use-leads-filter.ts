import { LEAD_STATUSES, type LeadStatus } from '@shared/domain';
import { type QueryKey, useQueryClient } from '@tanstack/react-query';
import { useCallback, useSyncExternalStore } from 'react';
import type { LeadsExportFilter } from './export-url';

/**
 * The filter (status, search) of the leads list on screen, read from the query it observes: the
 * list's key is [path, { status, q, limit, offset }] and only the list on screen has an observer.
 * This keeps the leads panel unchanged; the search is the one applied to the table (after its
 * typing delay), so the export holds what the admin sees.
 */
export function useObservedLeadsFilter(listKey: QueryKey): LeadsExportFilter {
  const queryClient = useQueryClient();
  const cache = queryClient.getQueryCache();
  const subscribe = useCallback((onChange: () => void) => cache.subscribe(onChange), [cache]);
  // a string snapshot: stable between renders while the filter does not change
  const snapshot = useSyncExternalStore(subscribe, () => {
    const active = cache.findAll({ queryKey: listKey, type: 'active' });
    const latest = active.sort((a, b) => b.state.dataUpdatedAt - a.state.dataUpdatedAt)[0];
    const params = latest?.queryKey[listKey.length];
    if (!params || typeof params !== 'object') return '';
    const { status, q } = params as { status?: unknown; q?: unknown };
    return JSON.stringify([status ?? null, q ?? null]);
  });
  if (!snapshot) return {};
  const [status, q] = JSON.parse(snapshot) as [unknown, unknown];
  return {
    status: LEAD_STATUSES.includes(status as LeadStatus) ? (status as LeadStatus) : undefined,
    q: typeof q === 'string' && q !== '' ? q : undefined,
  };
}
