import type {
  PrivacyDeletion,
  PrivacyDeletionBody,
  PrivacyDeletionList,
  PrivacyDeletionsQuery,
} from '@shared/contracts/privacy';
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@web/lib/api-client';
import { getQueryFn } from '@web/lib/query-client';

const deletionsKey = ['/api/admin/privacy/deletions'] as const;

/** A page of consumers' deletion requests, refreshed while tasks are pending. */
export function deletionsQuery(params: Partial<PrivacyDeletionsQuery>) {
  return queryOptions({
    queryKey: [...deletionsKey, params] as const,
    queryFn: getQueryFn<PrivacyDeletionList>({ on401: 'throw' }),
    placeholderData: keepPreviousData,
    refetchInterval: (query) =>
      query.state.data?.items.some((d) => d.webhooks.pending + d.recordings.pending > 0)
        ? 3000
        : false,
  });
}

export function useDeleteConsumer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: PrivacyDeletionBody) =>
      apiJson<PrivacyDeletion>('POST', '/api/admin/privacy/deletions', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: deletionsKey }),
  });
}
