import { QueryClient, type QueryFunction, type QueryKey } from '@tanstack/react-query';
import { ApiError, throwIfResNotOk } from './api-client';

export type UnauthorizedBehavior = 'returnNull' | 'throw';

/**
 * The URL for a query key: the first element is the path; a later plain object adds its
 * defined, non-empty values as the query string, e.g. ['/api/agent/leads', { status: 'NEW' }].
 */
export function queryKeyToUrl(queryKey: QueryKey): string {
  const [path, ...rest] = queryKey;
  const params = new URLSearchParams();
  for (const part of rest) {
    if (part && typeof part === 'object') {
      for (const [key, value] of Object.entries(part)) {
        if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
      }
    }
  }
  const search = params.toString();
  return search ? `${String(path)}?${search}` : String(path);
}

/** Default data loading (docs/domain.md, Screens): GET the key's URL and parse JSON. */
export function getQueryFn<T>(options: { on401: 'returnNull' }): QueryFunction<T | null>;
export function getQueryFn<T>(options: { on401: 'throw' }): QueryFunction<T>;
export function getQueryFn<T>({ on401 }: { on401: UnauthorizedBehavior }): QueryFunction<T | null> {
  return async ({ queryKey, signal }) => {
    const res = await fetch(queryKeyToUrl(queryKey), { credentials: 'include', signal });
    if (on401 === 'returnNull' && res.status === 401) return null;
    await throwIfResNotOk(res);
    return (await res.json()) as T;
  };
}

export function isUnauthorized(error: unknown): boolean {
  return error instanceof ApiError && error.status === 401;
}

export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        queryFn: getQueryFn({ on401: 'throw' }),
        refetchInterval: false,
        refetchOnWindowFocus: false,
        staleTime: Number.POSITIVE_INFINITY,
        retry: false,
      },
      mutations: {
        retry: false,
      },
    },
  });
}

export const queryClient = createQueryClient();
