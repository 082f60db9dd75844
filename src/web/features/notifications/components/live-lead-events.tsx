import { leadAssignedEvent } from '@shared/contracts/delivery';
import { useQueryClient } from '@tanstack/react-query';
import { toast } from '@web/components/ui/use-toast';
import { agentLeadsKey, agentStatsQuery } from '@web/features/agent/api';
import { useEffect } from 'react';
import { notificationsQuery } from '../api';
import { leadToastText } from '../lead-toast';

/** The agent's live stream (docs/domain.md, Delivery of assigned leads): served by any app process through LISTEN/NOTIFY. */
export const AGENT_EVENTS_URL = '/api/agent/events';

/**
 * Listens to the agent's event stream while the portal is open. A new lead refreshes My Leads,
 * the dashboard's figures and the bell, and a toast names it. No polling: the browser's
 * EventSource reconnects by itself, and after a reconnect the same queries are refreshed, since
 * what was assigned while the stream was down was not announced.
 */
export function LiveLeadEvents() {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (typeof EventSource === 'undefined') return;
    const refresh = () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: agentLeadsKey }),
        queryClient.invalidateQueries({ queryKey: agentStatsQuery.queryKey }),
        queryClient.invalidateQueries({ queryKey: notificationsQuery('AGENT').queryKey }),
      ]);
    const source = new EventSource(AGENT_EVENTS_URL);
    let openedBefore = false;
    source.onopen = () => {
      if (openedBefore) void refresh();
      openedBefore = true;
    };
    // the server's listener was disconnected a while: what came meanwhile was not announced
    source.addEventListener('resync', () => void refresh());
    source.addEventListener('lead.assigned', (message) => {
      let parsed: ReturnType<typeof leadAssignedEvent.safeParse>;
      try {
        parsed = leadAssignedEvent.safeParse(JSON.parse((message as MessageEvent<string>).data));
      } catch {
        return;
      }
      void refresh();
      if (parsed.success) toast(leadToastText(parsed.data));
    });
    return () => source.close();
  }, [queryClient]);
  return null;
}
