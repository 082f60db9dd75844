import type { Package, PackageBody, PriceList } from '@shared/contracts/packages';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@web/lib/api-client';
import { getQueryFn } from '@web/lib/query-client';
import { packagesQuery } from './api';

/** Every package, active or not. */
export const adminPackagesQuery = queryOptions({
  queryKey: ['/api/admin/packages'] as const,
  queryFn: getQueryFn<Package[]>({ on401: 'throw' }),
});

/** A package change shows in the admin list and in the public (active) list. */
function useRefreshPackages() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: adminPackagesQuery.queryKey }),
      queryClient.invalidateQueries({ queryKey: packagesQuery.queryKey }),
    ]);
}

export function useSavePackage() {
  const refresh = useRefreshPackages();
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: PackageBody }) =>
      id === null
        ? apiJson<Package>('POST', '/api/admin/packages', body)
        : apiJson<Package>('PUT', `/api/admin/packages/${id}`, body),
    onSuccess: refresh,
  });
}

export function useSetPackageActive() {
  const refresh = useRefreshPackages();
  return useMutation({
    mutationFn: ({ id, active }: { id: number; active: boolean }) =>
      apiJson<Package>('PATCH', `/api/admin/packages/${id}`, { active }),
    onSuccess: refresh,
  });
}

/** A PER_LEAD package's price list: its rules in order, the first that matches a lead winning. */
export const priceListQuery = (packageId: number) =>
  queryOptions({
    queryKey: [`/api/admin/packages/${packageId}/prices`] as const,
    queryFn: getQueryFn<PriceList>({ on401: 'throw' }),
  });

/** Saving the list changes the package's least price ("from $X per lead") too. */
export function useSavePriceList() {
  const queryClient = useQueryClient();
  const refresh = useRefreshPackages();
  return useMutation({
    mutationFn: ({ packageId, body }: { packageId: number; body: PriceList }) =>
      apiJson<PriceList>('PUT', `/api/admin/packages/${packageId}/prices`, body),
    onSuccess: (saved, { packageId }) => {
      queryClient.setQueryData(priceListQuery(packageId).queryKey, saved);
      return refresh();
    },
  });
}
