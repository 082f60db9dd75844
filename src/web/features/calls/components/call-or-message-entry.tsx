import type { ActivityEntry } from '@shared/contracts/delivery';
import type { CallStatus, MessageStatus } from '@shared/domain';
import { Badge, type BadgeProps } from '@web/components/ui/badge';
import { useBusinessTimeZone } from '@web/features/admin/api';
import { WhenText } from '@web/features/delivery/components/when-text';
import { type LucideIcon, MessageSquare, MessageSquareReply, Phone } from 'lucide-react';

type MessageEntry = Extract<ActivityEntry, { type: 'message' }>;
type CallActivity = Extract<ActivityEntry, { type: 'call' }>;

const MESSAGE_LABEL: Record<MessageStatus, string> = {
  WAITING: 'Waiting',
  QUEUED: 'Queued',
  SENT: 'Sent',
  DELIVERED: 'Delivered',
  FAILED: 'Failed',
  BLOCKED: 'Blocked',
  RECEIVED: 'Received',
};
const MESSAGE_VARIANT: Record<MessageStatus, BadgeProps['variant']> = {
  WAITING: 'secondary',
  QUEUED: 'secondary',
  SENT: 'default',
  DELIVERED: 'default',
  FAILED: 'destructive',
  BLOCKED: 'outline',
  RECEIVED: 'secondary',
};

export const CALL_LABEL: Record<CallStatus, string> = {
  QUEUED: 'Calling you',
  RINGING: 'Ringing',
  IN_PROGRESS: 'In progress',
  COMPLETED: 'Connected',
  BUSY: 'Busy',
  NO_ANSWER: 'No answer',
  FAILED: 'Failed',
  CANCELED: 'Canceled',
};

/** 42 -> "0:42", 125 -> "2:05". */
export function callLength(seconds: number | null): string | null {
  if (seconds === null) return null;
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

export function callOrMessageIcon(entry: MessageEntry | CallActivity): LucideIcon {
  if (entry.type === 'call') return Phone;
  return entry.outbound ? MessageSquare : MessageSquareReply;
}

function MessageLine({ entry }: { entry: MessageEntry }) {
  const timeZone = useBusinessTimeZone();
  const title = entry.outbound
    ? `Follow-up ${entry.channel === 'SMS' ? 'SMS' : 'email'}`
    : 'SMS from the lead';
  return (
    <>
      <p className="flex flex-wrap items-center gap-2 font-medium">
        {title}
        <Badge
          variant={MESSAGE_VARIANT[entry.status]}
          data-testid="message-status"
          data-status={entry.status}
        >
          {MESSAGE_LABEL[entry.status]}
        </Badge>
      </p>
      <p className="text-muted-foreground text-xs wrap-anywhere">
        {entry.status === 'WAITING' && entry.sendAfter ? (
          <>
            Goes when the lead's calling window opens:{' '}
            <WhenText iso={entry.sendAfter} timeZone={timeZone} />
          </>
        ) : (
          (entry.error ??
          `“${entry.body.length > 120 ? `${entry.body.slice(0, 117)}…` : entry.body}”`)
        )}
      </p>
    </>
  );
}

function CallLine({ entry }: { entry: CallActivity }) {
  const length = entry.connectedAt ? callLength(entry.durationSeconds) : null;
  return (
    <>
      <p className="flex flex-wrap items-center gap-2 font-medium">
        Call
        <Badge
          variant={
            entry.status === 'FAILED' ? 'destructive' : entry.connectedAt ? 'default' : 'secondary'
          }
          data-testid="call-status"
          data-status={entry.status}
        >
          {CALL_LABEL[entry.status]}
        </Badge>
      </p>
      {(length || entry.recording) && (
        <p className="text-muted-foreground text-xs">
          {[length, entry.recording ? 'recorded' : null].filter(Boolean).join(' · ')}
        </p>
      )}
    </>
  );
}

/** A follow-up message or a call on the lead's timeline (docs/domain.md, Follow-up messages and calls). */
export function CallOrMessageEntry({ entry }: { entry: MessageEntry | CallActivity }) {
  return entry.type === 'call' ? <CallLine entry={entry} /> : <MessageLine entry={entry} />;
}
