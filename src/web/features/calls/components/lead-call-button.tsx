import { callingWindow } from '@shared/calling-window';
import type { Lead } from '@shared/contracts/leads';
import { leadName } from '@shared/format';
import { formatPhone } from '@shared/phone';
import { useQuery } from '@tanstack/react-query';
import { Button } from '@web/components/ui/button';
import { Spinner } from '@web/components/ui/spinner';
import { toast } from '@web/components/ui/use-toast';
import { agentServicesQuery, useStartCall } from '@web/features/calls/api';
import { LeadCallLog } from '@web/features/calls/components/lead-call-log';
import { errorMessage } from '@web/lib/api-client';
import { cn } from '@web/lib/utils';
import { Phone } from 'lucide-react';

/** Why the lead cannot be called now, or null when it can (docs/domain.md, Follow-up messages and calls; Calling window). */
export function useCallBlocker(lead: Lead): string | null {
  const services = useQuery(agentServicesQuery);
  if (!services.data) return 'Checking…';
  if (!services.data.calls.available) return services.data.calls.reason;
  if (!lead.phone) return 'No phone number';
  if (lead.onDnc) return 'On the do-not-call list';
  const window = callingWindow(lead.timeZone, lead.state);
  return window.callableNow ? null : window.label;
}

/**
 * Click-to-call: the provider rings the agent's phone, announces the recording and bridges to the
 * lead. Enabled only when the lead is callable now, the agent has a phone, the package has Call
 * Recording and calling is configured; else disabled with the reason ("Call after 8 AM ET").
 */
export function LeadCallButton({
  lead,
  showReason = false,
  thumb = false,
}: {
  lead: Lead;
  showReason?: boolean;
  /** a phone's card: the first, largest button at the card's foot, where the thumb rests */
  thumb?: boolean;
}) {
  const blocker = useCallBlocker(lead);
  const services = useQuery(agentServicesQuery);
  const start = useStartCall(lead.id);
  const name = leadName(lead);
  function call() {
    start.mutate(undefined, {
      onSuccess: () =>
        toast({
          title: 'Calling your phone',
          description: `Answer ${services.data?.phone ? formatPhone(services.data.phone) : 'your phone'} to be connected to ${name}. The call is recorded.`,
        }),
      onError: (error) =>
        toast({
          variant: 'destructive',
          title: 'The call could not start',
          description: errorMessage(error, 'The call could not start'),
        }),
    });
  }
  const reasonId = `call-reason-${lead.id}`;
  return (
    <div className={cn('flex flex-col items-start gap-1', thumb && 'max-md:flex-1')}>
      <Button
        type="button"
        size="sm"
        variant={showReason ? 'default' : 'outline'}
        className={cn(thumb && 'max-md:h-11 max-md:w-full max-md:text-base')}
        disabled={blocker !== null || start.isPending}
        onClick={call}
        aria-label={`Call ${name}`}
        aria-describedby={blocker ? reasonId : undefined}
        title={blocker ?? `Call ${name}`}
        data-testid="lead-call-button"
      >
        {start.isPending ? <Spinner /> : <Phone aria-hidden="true" />}
        Call
      </Button>
      <span
        id={reasonId}
        className={showReason && blocker ? 'text-muted-foreground text-xs' : 'sr-only'}
        data-testid="lead-call-reason"
      >
        {blocker ?? ''}
      </span>
    </div>
  );
}

/** The drawer's part: the Call button with its reason, and the call log with recordings. */
export function LeadCallSection({ lead }: { lead: Lead }) {
  return (
    <div className="space-y-3" data-testid="lead-call-section">
      <LeadCallButton lead={lead} showReason />
      <LeadCallLog leadId={lead.id} leadStatus={lead.status} />
    </div>
  );
}
