import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Badge } from '@web/components/ui/badge';
import { LoadError } from '@web/components/ui/load-error';
import { useBusinessTimeZone } from '@web/features/admin/api';
import { WhenText } from '@web/features/delivery/components/when-text';
import { useEffect, useRef } from 'react';
import { leadCallsQuery } from '../api';
import { CALL_LABEL, callLength } from './call-or-message-entry';

/**
 * The lead's call log in its drawer (docs/domain.md, Follow-up messages and calls): when, outcome, length, and each recording played
 * through the portal (GET /api/recordings/{id}: the lead's agent and admins only).
 */
export function LeadCallLog({ leadId, leadStatus }: { leadId: number; leadStatus?: string }) {
  const calls = useQuery(leadCallsQuery(leadId));
  const timeZone = useBusinessTimeZone();
  const items = calls.data?.items ?? [];
  // a call just connected moved the lead to CONTACTED on the server: the list and timeline follow
  const queryClient = useQueryClient();
  const connected = items.filter((c) => c.connectedAt !== null).length;
  const seen = useRef<number | null>(null);
  useEffect(() => {
    if (!calls.data) return;
    // (or the list still shows the lead ASSIGNED after a connected call made elsewhere)
    const stale = seen.current === null && leadStatus === 'ASSIGNED' && connected > 0;
    if ((seen.current !== null && connected > seen.current) || stale) {
      void queryClient.invalidateQueries({ queryKey: ['/api/agent/leads'] });
      void queryClient.invalidateQueries({ queryKey: [`/api/agent/leads/${leadId}/activity`] });
    }
    seen.current = connected;
  }, [calls.data, connected, leadId, leadStatus, queryClient]);
  if (calls.isError)
    return (
      <LoadError
        message="The call log could not be loaded."
        onRetry={() => calls.refetch()}
        retrying={calls.isFetching}
      />
    );
  if (items.length === 0) return null;
  return (
    <section aria-labelledby="lead-calls-title" className="space-y-2" data-testid="lead-call-log">
      <h3 id="lead-calls-title" className="font-medium text-sm">
        Calls
      </h3>
      <ol className="space-y-3 rounded-lg border p-3 text-sm">
        {items.map((call) => {
          const length = call.connectedAt ? callLength(call.durationSeconds) : null;
          return (
            <li key={call.id} className="space-y-1.5" data-testid="call-log-entry">
              <p className="flex flex-wrap items-center gap-2">
                <Badge
                  variant={
                    call.status === 'FAILED'
                      ? 'destructive'
                      : call.connectedAt
                        ? 'default'
                        : 'secondary'
                  }
                  data-testid="call-status"
                  data-status={call.status}
                >
                  {CALL_LABEL[call.status]}
                </Badge>
                {length && <span data-testid="call-duration">{length}</span>}
                <span className="text-muted-foreground text-xs">
                  <WhenText iso={call.createdAt} timeZone={timeZone} />
                </span>
              </p>
              {call.error && <p className="text-destructive text-xs wrap-anywhere">{call.error}</p>}
              {call.recordingUrl && (
                // biome-ignore lint/a11y/useMediaCaption: a phone call's recording has no captions
                <audio
                  controls
                  preload="metadata"
                  src={call.recordingUrl}
                  className="h-9 w-full"
                  data-testid="call-recording"
                  aria-label={`Recording of the call (${length ?? 'unknown length'})`}
                />
              )}
            </li>
          );
        })}
      </ol>
    </section>
  );
}
