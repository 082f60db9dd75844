import type {
  ApiKey,
  CreatedApiKey,
  Source,
  SourceBody,
  SourcePatchBody,
} from '@shared/contracts/sources';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@web/lib/api-client';
import { getQueryFn } from '@web/lib/query-client';

/** Every source, active or not, with its lead and key counts. */
export const sourcesQuery = queryOptions({
  queryKey: ['/api/admin/sources'] as const,
  queryFn: getQueryFn<Source[]>({ on401: 'throw' }),
});

/** A source's keys, newest first, revoked ones last. */
export const sourceKeysQuery = (sourceId: number) =>
  queryOptions({
    queryKey: [`/api/admin/sources/${sourceId}/keys`] as const,
    queryFn: getQueryFn<ApiKey[]>({ on401: 'throw' }),
  });

export function useSaveSource() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: SourceBody }) =>
      id === null
        ? apiJson<Source>('POST', '/api/admin/sources', body)
        : apiJson<Source>('PATCH', `/api/admin/sources/${id}`, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sourcesQuery.queryKey }),
  });
}

export function usePatchSource() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: SourcePatchBody }) =>
      apiJson<Source>('PATCH', `/api/admin/sources/${id}`, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sourcesQuery.queryKey }),
  });
}

/** Creating or revoking a key changes the key list and the source's key count. */
function useRefreshKeys() {
  const queryClient = useQueryClient();
  return (sourceId: number) =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: sourceKeysQuery(sourceId).queryKey }),
      queryClient.invalidateQueries({ queryKey: sourcesQuery.queryKey }),
    ]);
}

export function useCreateApiKey() {
  const refresh = useRefreshKeys();
  return useMutation({
    mutationFn: (sourceId: number) =>
      apiJson<CreatedApiKey>('POST', `/api/admin/sources/${sourceId}/keys`),
    onSuccess: (_key, sourceId) => refresh(sourceId),
  });
}

export function useRevokeApiKey() {
  const refresh = useRefreshKeys();
  return useMutation({
    mutationFn: ({ sourceId, keyId }: { sourceId: number; keyId: number }) =>
      apiJson<ApiKey>('DELETE', `/api/admin/sources/${sourceId}/keys/${keyId}`),
    onSuccess: (_key, { sourceId }) => refresh(sourceId),
  });
}
