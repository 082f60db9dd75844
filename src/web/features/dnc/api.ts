import type { DncList, DncListQuery, DncUploadResult } from '@shared/contracts/dnc';
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson, throwIfResNotOk } from '@web/lib/api-client';
import { getQueryFn } from '@web/lib/query-client';

const dncKey = ['/api/admin/dnc'] as const;

/** A page of the do-not-call list (the count of the whole list comes with it). */
export function dncQuery(params: Partial<DncListQuery>) {
  return queryOptions({
    queryKey: [...dncKey, params] as const,
    queryFn: getQueryFn<DncList>({ on401: 'throw' }),
    placeholderData: keepPreviousData,
  });
}

function useRefreshList() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: dncKey });
}

/** Uploads a CSV file as it is (a text/csv body: the list has nothing but numbers). */
export function useUploadDnc() {
  const refresh = useRefreshList();
  return useMutation({
    mutationFn: async (file: File) => {
      const res = await fetch('/api/admin/dnc', {
        method: 'POST',
        headers: { 'Content-Type': 'text/csv' },
        body: file,
        credentials: 'include',
      });
      await throwIfResNotOk(res);
      return (await res.json()) as DncUploadResult;
    },
    onSuccess: () => refresh(),
  });
}

export function useAddDncNumber() {
  const refresh = useRefreshList();
  return useMutation({
    mutationFn: (phone: string) =>
      apiJson<DncUploadResult>('POST', '/api/admin/dnc', { phones: [phone] }),
    onSuccess: () => refresh(),
  });
}

export function useRemoveDncNumber() {
  const refresh = useRefreshList();
  return useMutation({
    mutationFn: (phone: string) =>
      apiJson<{ phone: string }>('DELETE', `/api/admin/dnc/${encodeURIComponent(phone)}`),
    onSuccess: () => refresh(),
  });
}
