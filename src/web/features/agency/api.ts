import type {
  AdminAgency,
  AgencyInvite,
  AgencyLead,
  AgencyLeadPage,
  AgencyLeadsQuery,
  AgencyMember,
  CreateInviteBody,
  InviteCreated,
  InviteLookup,
  MyAgency,
  UpdateAgencyBody,
  UpdateMemberBody,
} from '@shared/contracts/agency';
import type { AgencyStatus } from '@shared/domain';
import { type QueryClient, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError, apiJson, throwIfResNotOk } from '@web/lib/api-client';
import { getQueryFn, queryKeyToUrl } from '@web/lib/query-client';

/** A GET whose 404 means "none" (no agency, an unusable invite code): null instead of an error. */
async function getOrNull<T>({
  queryKey,
  signal,
}: {
  queryKey: readonly unknown[];
  signal: AbortSignal;
}): Promise<T | null> {
  const res = await fetch(queryKeyToUrl(queryKey), { credentials: 'include', signal });
  if (res.status === 404) return null;
  await throwIfResNotOk(res);
  return (await res.json()) as T;
}

/** The caller's agency, role, manager and owner; null when they belong to none. */
export const myAgencyQuery = queryOptions({
  queryKey: ['/api/agency'] as const,
  queryFn: getOrNull<MyAgency>,
});

/** The members the caller may see (OWNER: all; MANAGER: their team and themself). */
export const agencyMembersQuery = queryOptions({
  queryKey: ['/api/agency/members'] as const,
  queryFn: getQueryFn<AgencyMember[]>({ on401: 'throw' }),
});

export const agencyInvitesQuery = queryOptions({
  queryKey: ['/api/agency/invites'] as const,
  queryFn: getQueryFn<AgencyInvite[]>({ on401: 'throw' }),
});

const agencyLeadsKey = ['/api/agency/leads'] as const;

/** One page of the agency's book, filtered and searched by the server. */
export function agencyLeadsQuery(params: Partial<AgencyLeadsQuery>) {
  return queryOptions({
    queryKey: [...agencyLeadsKey, params] as const,
    queryFn: getQueryFn<AgencyLeadPage>({ on401: 'throw' }),
  });
}

/** The join page's look-up of an invite code (public); null: unknown, expired or used up. */
export function inviteLookupQuery(code: string) {
  return queryOptions({
    queryKey: ['/api/agency/invites/lookup', { code }] as const,
    queryFn: getOrNull<InviteLookup>,
    retry: false,
  });
}

export const adminAgenciesQuery = queryOptions({
  queryKey: ['/api/admin/agencies'] as const,
  queryFn: getQueryFn<AdminAgency[]>({ on401: 'throw' }),
});

/** Everything an agency's screens read: a change to the agency or its members refreshes them. */
function invalidateAgency(queryClient: QueryClient) {
  return Promise.all(
    [
      myAgencyQuery.queryKey,
      agencyMembersQuery.queryKey,
      agencyInvitesQuery.queryKey,
      agencyLeadsKey,
      // the member's own package and quota follow what the agency pays
      ['/api/agent/stats'],
    ].map((queryKey) => queryClient.invalidateQueries({ queryKey })),
  );
}

export function useCreateAgency() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => apiJson<MyAgency>('POST', '/api/agency', { name }),
    onSuccess: (agency) => {
      queryClient.setQueryData(myAgencyQuery.queryKey, agency);
      return invalidateAgency(queryClient);
    },
  });
}

export function useUpdateAgency() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateAgencyBody) => apiJson<MyAgency>('PATCH', '/api/agency', body),
    onSuccess: (agency) => queryClient.setQueryData(myAgencyQuery.queryKey, agency),
  });
}

/** Leaves the agency: the caller's agency is none from now on. */
export function useLeaveAgency() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiJson<void>('DELETE', '/api/agency/membership'),
    onSuccess: () => {
      queryClient.setQueryData(myAgencyQuery.queryKey, null);
      for (const queryKey of [agencyMembersQuery.queryKey, agencyInvitesQuery.queryKey]) {
        queryClient.removeQueries({ queryKey });
      }
      queryClient.removeQueries({ queryKey: agencyLeadsKey });
      return queryClient.invalidateQueries({ queryKey: ['/api/agent/stats'] });
    },
  });
}

export function useCreateInvite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateInviteBody) =>
      apiJson<InviteCreated>('POST', '/api/agency/invites', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: agencyInvitesQuery.queryKey }),
  });
}

export function useDeleteInvite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiJson<void>('DELETE', `/api/agency/invites/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: agencyInvitesQuery.queryKey }),
  });
}

/** A signed-in agent joins with a code; their agency is the answer. */
export function useJoinAgency() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (code: string) => apiJson<MyAgency>('POST', '/api/agency/join', { code }),
    onSuccess: (agency) => {
      queryClient.setQueryData(myAgencyQuery.queryKey, agency);
      return invalidateAgency(queryClient);
    },
  });
}

/** Role and manager (OWNER); making another member OWNER hands the agency over. */
export function useUpdateMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, ...body }: UpdateMemberBody & { userId: number }) =>
      apiJson<AgencyMember>('PATCH', `/api/agency/members/${userId}`, body),
    onSuccess: () => invalidateAgency(queryClient),
  });
}

export function useRemoveMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: number) => apiJson<void>('DELETE', `/api/agency/members/${userId}`),
    onSuccess: () => invalidateAgency(queryClient),
  });
}

/** The agency pays the member's package; with Stripe it may answer where the owner pays first. */
export function usePayMemberPackage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, packageId }: { userId: number; packageId: number }) =>
      apiJson<AgencyMember | { checkoutUrl: string }>(
        'PUT',
        `/api/agency/members/${userId}/subscription`,
        { packageId },
      ),
    onSuccess: () => invalidateAgency(queryClient),
  });
}

export function useEndMemberPackage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: number) =>
      apiJson<AgencyMember>('DELETE', `/api/agency/members/${userId}/subscription`),
    onSuccess: () => invalidateAgency(queryClient),
  });
}

export function useReassignAgencyLead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ leadId, userId }: { leadId: number; userId: number }) =>
      apiJson<AgencyLead>('POST', `/api/agency/leads/${leadId}/reassign`, { userId }),
    onSuccess: () => invalidateAgency(queryClient),
  });
}

/** A platform admin suspends or restores an agency. */
export function useSetAgencyStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, status }: { id: number; status: AgencyStatus }) =>
      apiJson<AdminAgency>('PATCH', `/api/admin/agencies/${id}`, { status }),
    onSuccess: (agency) =>
      queryClient.setQueryData(adminAgenciesQuery.queryKey, (list) =>
        list?.map((a) => (a.id === agency.id ? agency : a)),
      ),
  });
}

/** Whether a failed call was the server's 404 (an invite code no longer usable at join). */
export function isNotFound(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404;
}
