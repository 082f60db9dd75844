/** An agent's licensed states (docs/domain.md, Licensed states): PUT /api/admin/agents/{id}/licenses. */
import type { AdminAgent } from '@shared/contracts/admin';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@web/lib/api-client';
import { adminAgentsQuery } from '../admin/api';

export function useSetLicensedStates() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ agentId, states }: { agentId: number; states: string[] }) =>
      apiJson<AdminAgent>('PUT', `/api/admin/agents/${agentId}/licenses`, { states }),
    onSuccess: (agent) =>
      queryClient.setQueryData(adminAgentsQuery.queryKey, (agents) =>
        agents?.map((a) => (a.id === agent.id ? agent : a)),
      ),
  });
}
