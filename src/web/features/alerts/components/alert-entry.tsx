import type { ActivityEntry } from '@shared/contracts/delivery';
import { formatPhone } from '@shared/phone';
import { Badge, type BadgeProps } from '@web/components/ui/badge';
import { BellRing, MessageSquareText } from 'lucide-react';

type AlertActivity = Extract<ActivityEntry, { type: 'alert' }>;

const VARIANT: Record<AlertActivity['status'], BadgeProps['variant']> = {
  SENT: 'default',
  RETRY: 'secondary',
  FAILED: 'destructive',
  GONE: 'destructive',
  SKIPPED: 'outline',
};

const LABEL: Record<AlertActivity['status'], string> = {
  SENT: 'Sent',
  RETRY: 'Will retry',
  FAILED: 'Failed',
  GONE: 'Device removed',
  SKIPPED: 'Not sent',
};

export const alertIcon = (entry: AlertActivity) =>
  entry.channel === 'PUSH' ? BellRing : MessageSquareText;

/** An alert of the lead to its agent on the lead's timeline: a push to one device, or an SMS. */
export function AlertEntry({ entry }: { entry: AlertActivity }) {
  const to = entry.to === null ? null : entry.channel === 'SMS' ? formatPhone(entry.to) : entry.to;
  const details = [
    to ? `to ${to}` : null,
    entry.attempt > 1 ? `attempt ${entry.attempt}` : null,
    entry.responseCode !== null ? `code ${entry.responseCode}` : null,
    entry.error,
  ].filter(Boolean);
  return (
    <>
      <p className="flex flex-wrap items-center gap-2 font-medium">
        {entry.channel === 'PUSH' ? 'Push alert to you' : 'SMS alert to you'}
        <Badge
          variant={VARIANT[entry.status]}
          data-testid="alert-status"
          data-status={entry.status}
        >
          {LABEL[entry.status]}
        </Badge>
      </p>
      {details.length > 0 && (
        <p className="text-muted-foreground text-xs wrap-anywhere">{details.join(' · ')}</p>
      )}
    </>
  );
}
