import type {
  AssignLeadBody,
  ImportRecord,
  ImportResult,
  Lead,
  LeadListQuery,
} from '@shared/contracts/leads';
import { type QueryKey, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { adminAgentsQuery, adminStatsQuery, healthQuery } from '@web/features/admin/api';
import { analyticsKey } from '@web/features/analytics/api';
import { unfitReasonsQuery } from '@web/features/explanation/api';
import { apiJson, throwIfResNotOk } from '@web/lib/api-client';
import { getQueryFn, queryKeyToUrl } from '@web/lib/query-client';
import { postFormWithProgress, type UploadProgress } from './upload-with-progress';

export interface LeadsPage {
  leads: Lead[];
  /** every lead matching the filter (X-Total-Count), not just this page */
  total: number;
  /** false when a search has more matches than the server counts: total is a lower bound */
  exact: boolean;
}

/** Every admin leads page, whatever its filter, starts with this key. */
export const adminLeadsKey = ['/api/admin/leads'] as const;

/** A page of a leads list with its total from X-Total-Count (and X-Total-Count-Exact). */
export async function fetchLeadsPage({
  queryKey,
  signal,
}: {
  queryKey: QueryKey;
  signal: AbortSignal;
}): Promise<LeadsPage> {
  const res = await fetch(queryKeyToUrl(queryKey), { credentials: 'include', signal });
  await throwIfResNotOk(res);
  const leads = (await res.json()) as Lead[];
  const total = Number(res.headers.get('X-Total-Count') ?? leads.length);
  const exact = res.headers.get('X-Total-Count-Exact') !== 'false';
  return { leads, total, exact };
}

/** One page of the admin list, searched and filtered by the server. */
export function adminLeadsQuery(params: LeadListQuery) {
  return queryOptions({ queryKey: [...adminLeadsKey, params] as const, queryFn: fetchLeadsPage });
}

/** Any lead by a link to it (`/admin/leads?lead=ID`). */
export function adminLeadQuery(leadId: number) {
  return queryOptions({
    queryKey: [`/api/admin/leads/${leadId}`] as const,
    queryFn: getQueryFn<Lead>({ on401: 'throw' }),
  });
}

/**
 * An assignment (or reassignment: `fromAgentId`, the agent the admin saw holding the lead)
 * changes the lists, the agents' quotas and totals, and the platform figures.
 */
export function useAssignLead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Required<AssignLeadBody>) =>
      apiJson<Lead>('POST', '/api/admin/leads/assign', body),
    onSuccess: () =>
      Promise.all(
        [
          adminLeadsKey,
          adminAgentsQuery.queryKey,
          adminStatsQuery.queryKey,
          analyticsKey,
          unfitReasonsQuery.queryKey,
        ].map((queryKey) => queryClient.invalidateQueries({ queryKey })),
      ),
  });
}

/** Imports still running, newest first (to find the one this page started). */
export const runningImportsQuery = queryOptions({
  queryKey: ['/api/admin/imports', { status: 'RUNNING' }] as const,
  queryFn: getQueryFn<ImportRecord[]>({ on401: 'throw' }),
});

/** The recent imports, newest first: the page's import history. */
export const recentImportsQuery = queryOptions({
  queryKey: ['/api/admin/imports'] as const,
  queryFn: getQueryFn<ImportRecord[]>({ on401: 'throw' }),
  staleTime: 0,
});

/** One import with the rows it has processed so far. */
export function importQuery(id: number) {
  return queryOptions({
    queryKey: [`/api/admin/imports/${id}`] as const,
    queryFn: getQueryFn<ImportRecord>({ on401: 'throw' }),
  });
}

/**
 * An import adds leads and may run an assignment (which the System Status reports). The file
 * goes up with XMLHttpRequest so that the page can show how much of it has been sent.
 */
export function useImportLeads() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({
      file,
      sourceId,
      onProgress,
    }: {
      file: File;
      /** the source the file came from, if the admin named one */
      sourceId?: number | null;
      onProgress: (progress: UploadProgress) => void;
    }) => {
      const form = new FormData();
      // before the file: the server reads the fields that precede it
      if (sourceId != null) form.append('sourceId', String(sourceId));
      form.append('file', file);
      return postFormWithProgress<ImportResult>('/api/admin/leads/import', form, onProgress);
    },
    // a refused file is recorded too: the history shows it either way
    onSettled: () =>
      Promise.all(
        [
          adminLeadsKey,
          adminAgentsQuery.queryKey,
          adminStatsQuery.queryKey,
          analyticsKey,
          healthQuery.queryKey,
          recentImportsQuery.queryKey,
        ].map((queryKey) => queryClient.invalidateQueries({ queryKey })),
      ),
  });
}
