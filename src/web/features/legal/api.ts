import type { LegalPage, LegalPageName } from '@shared/contracts/legal';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@web/lib/api-client';
import { getQueryFn } from '@web/lib/query-client';

/** A legal page's text (docs/domain.md, Legal pages): public. */
export function legalPageQuery(page: LegalPageName) {
  return queryOptions({
    queryKey: [`/api/legal/${page}`] as const,
    queryFn: getQueryFn<LegalPage>({ on401: 'throw' }),
  });
}

export function useSaveLegalPage(page: LegalPageName) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: string) => apiJson<LegalPage>('PUT', `/api/admin/legal/${page}`, { body }),
    onSuccess: (saved) => queryClient.setQueryData(legalPageQuery(page).queryKey, saved),
  });
}
