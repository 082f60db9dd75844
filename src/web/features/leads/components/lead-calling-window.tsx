import { callingWindow } from '@shared/calling-window';
import type { Lead } from '@shared/contracts/leads';
import { cn } from '@web/lib/utils';
import { PhoneCall, PhoneOff } from 'lucide-react';
import { useEffect, useState } from 'react';

/** The current time, refreshed every minute so a window opening or closing shows at once. */
function useMinuteClock(): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), 60_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/**
 * When the lead may be called, in its own time zone (docs/domain.md, Calling window):
 * "Callable now until 9 PM CT" in green, "Call after 8 AM ET" muted. `compact` is the one-line
 * form for table rows and cards.
 */
export function LeadCallingWindow({
  lead,
  compact = false,
}: {
  lead: Pick<Lead, 'timeZone' | 'state'>;
  compact?: boolean;
}) {
  const now = useMinuteClock();
  const calling = callingWindow(lead.timeZone, lead.state, now);
  const Icon = calling.callableNow ? PhoneCall : PhoneOff;
  return (
    <p
      className={cn(
        'flex items-center gap-1.5',
        compact ? 'text-xs' : 'text-sm',
        calling.callableNow ? 'text-green-700 dark:text-green-400' : 'text-muted-foreground',
      )}
      data-testid="lead-calling-window"
      data-callable={calling.callableNow ? 'true' : 'false'}
    >
      <Icon className={cn('shrink-0', compact ? 'size-3' : 'size-4')} aria-hidden="true" />
      <span>{calling.label}</span>
    </p>
  );
}
