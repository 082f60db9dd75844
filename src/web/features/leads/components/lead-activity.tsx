import type { ActivityEntry } from '@shared/contracts/delivery';
import { leadStatusLabel } from '@shared/format';
import { useQuery } from '@tanstack/react-query';
import { LoadError } from '@web/components/ui/load-error';
import { Skeleton } from '@web/components/ui/skeleton';
import { useBusinessTimeZone } from '@web/features/admin/api';
import { AlertEntry, alertIcon } from '@web/features/alerts/components/alert-entry';
import {
  CallOrMessageEntry,
  callOrMessageIcon,
} from '@web/features/calls/components/call-or-message-entry';
import { leadActivityQuery } from '@web/features/delivery/api';
import {
  channelLabel,
  DeliveryStatusBadge,
} from '@web/features/delivery/components/delivery-status-badge';
import { WhenText } from '@web/features/delivery/components/when-text';
import { cn } from '@web/lib/utils';
import { ArrowRightLeft, Mail, Webhook } from 'lucide-react';

/**
 * History rows said in words of their own: the steps of a return (docs/domain.md, Returns and
 * credits) and a reassignment by an admin.
 */
const RETURN_STEPS: Record<string, string> = {
  RETURN_REQUESTED: 'Return requested',
  RETURN_APPROVED: 'Return approved: lead invalid',
  RETURN_DENIED: 'Return denied',
  REASSIGNED: 'Reassigned to a new agent',
};

function StatusEntry({ entry }: { entry: Extract<ActivityEntry, { type: 'status' }> }) {
  return (
    <>
      <p className="font-medium">
        {RETURN_STEPS[entry.kind] ??
          (entry.fromStatus
            ? `${leadStatusLabel(entry.fromStatus)} → ${leadStatusLabel(entry.toStatus)}`
            : leadStatusLabel(entry.toStatus))}
      </p>
      <p className="text-muted-foreground text-xs">
        {entry.actor ? `by ${entry.actor}` : 'by LeadFlow'}
      </p>
    </>
  );
}

function DeliveryEntry({ entry }: { entry: Extract<ActivityEntry, { type: 'delivery' }> }) {
  const details = [
    entry.attempt > 1 ? `attempt ${entry.attempt}` : null,
    entry.responseCode !== null ? `code ${entry.responseCode}` : null,
    entry.error,
  ].filter(Boolean);
  return (
    <>
      <p className="flex flex-wrap items-center gap-2 font-medium">
        {channelLabel(entry.channel)}
        <DeliveryStatusBadge status={entry.status} />
      </p>
      {details.length > 0 && (
        <p className="text-muted-foreground text-xs wrap-anywhere">{details.join(' · ')}</p>
      )}
    </>
  );
}

function EntryIcon({ entry }: { entry: ActivityEntry }) {
  const Icon =
    entry.type === 'message' || entry.type === 'call'
      ? callOrMessageIcon(entry)
      : entry.type === 'alert'
        ? alertIcon(entry)
        : entry.type === 'status'
          ? ArrowRightLeft
          : entry.channel === 'EMAIL'
            ? Mail
            : Webhook;
  return (
    <span
      className={cn(
        'flex size-6 shrink-0 items-center justify-center rounded-full border bg-background',
        entry.type !== 'status' &&
          (entry.status === 'FAILED' || entry.status === 'BLOCKED' || entry.status === 'GONE') &&
          'border-destructive text-destructive',
      )}
      aria-hidden="true"
    >
      <Icon className="size-3" />
    </span>
  );
}

/**
 * The lead's timeline in its drawer: status changes (who, when), each delivery attempt (channel,
 * sent or failed, the receiver's code), follow-ups, calls and the alerts to the agent's phone,
 * oldest first as the server sends them.
 */
export function LeadActivity({ leadId }: { leadId: number }) {
  const activity = useQuery(leadActivityQuery(leadId));
  const timeZone = useBusinessTimeZone();
  const items = activity.data?.items ?? [];
  return (
    <section
      aria-labelledby="lead-activity-title"
      className="space-y-2"
      data-testid="lead-activity"
    >
      <h3 id="lead-activity-title" className="font-medium text-sm">
        Activity
      </h3>
      {activity.isError ? (
        <LoadError
          message="The activity could not be loaded."
          onRetry={() => activity.refetch()}
          retrying={activity.isFetching}
        />
      ) : !activity.data ? (
        <div className="space-y-2" aria-busy="true">
          <Skeleton className="h-8 w-full" />
          <Skeleton className="h-8 w-2/3" />
        </div>
      ) : items.length === 0 ? (
        <p className="text-muted-foreground text-sm">No activity yet</p>
      ) : (
        <ol className="space-y-3 rounded-lg border p-3 text-sm" aria-label="Lead activity">
          {items.map((entry, index) => (
            <li
              // biome-ignore lint/suspicious/noArrayIndexKey: entries have no id; the list is append-only, oldest first.
              key={index}
              className="flex gap-3"
              data-testid="activity-entry"
              data-type={entry.type}
            >
              <EntryIcon entry={entry} />
              <div className="min-w-0 flex-1 space-y-0.5">
                {entry.type === 'status' ? (
                  <StatusEntry entry={entry} />
                ) : entry.type === 'message' || entry.type === 'call' ? (
                  <CallOrMessageEntry entry={entry} />
                ) : entry.type === 'alert' ? (
                  <AlertEntry entry={entry} />
                ) : (
                  <DeliveryEntry entry={entry} />
                )}
                <p className="text-muted-foreground text-xs">
                  <WhenText iso={entry.at} timeZone={timeZone} />
                </p>
              </div>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
