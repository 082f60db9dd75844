import type { Lead } from '@shared/contracts/leads';
import { AGENT_SETTABLE_STATUSES, type AgentSettableStatus } from '@shared/domain';
import { leadName, leadPlace, leadStatusLabel } from '@shared/format';
import { formatPhone } from '@shared/phone';
import { Button } from '@web/components/ui/button';
import {
  Drawer,
  DrawerClose,
  DrawerContent,
  DrawerDescription,
  DrawerFooter,
  DrawerHeader,
  DrawerTitle,
} from '@web/components/ui/drawer';
import { Label } from '@web/components/ui/label';
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '@web/components/ui/select';
import { Spinner } from '@web/components/ui/spinner';
import { toast } from '@web/components/ui/use-toast';
import { LeadActivity } from '@web/features/leads/components/lead-activity';
import { LeadCallingWindow } from '@web/features/leads/components/lead-calling-window';
import { LeadConsent } from '@web/features/leads/components/lead-consent';
import { LeadStatusBadge } from '@web/features/leads/components/lead-status-badge';
import { errorMessage } from '@web/lib/api-client';
import { type FormEvent, useState } from 'react';
import { LeadCallSection } from '../../calls/components/lead-call-button';
import { LeadReturnAction } from '../../returns/components/lead-return-action';
import { useUpdateLeadStatus } from '../api';

/** The bottom drawer of My Leads: the lead's details and the four statuses an agent may set. */
export function UpdateLeadStatusDrawer({
  lead,
  onClose,
}: {
  lead: Lead | null;
  onClose: () => void;
}) {
  // The last lead stays rendered while the drawer slides out.
  const [shown, setShown] = useState(lead);
  if (lead && lead !== shown) setShown(lead);
  return (
    <Drawer
      open={lead !== null}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
    >
      <DrawerContent data-testid="update-status-drawer">
        {/* scrolls inside the drawer's 80vh once the lead's activity grows */}
        <div className="mx-auto w-full max-w-md overflow-y-auto">
          {shown && <StatusForm key={shown.id} lead={shown} onDone={onClose} />}
        </div>
      </DrawerContent>
    </Drawer>
  );
}

function StatusForm({ lead, onDone }: { lead: Lead; onDone: () => void }) {
  const [status, setStatus] = useState<AgentSettableStatus | ''>('');
  const update = useUpdateLeadStatus();

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!status) return;
    update.mutate(
      { leadId: lead.id, status },
      {
        onSuccess: () => {
          toast({ title: 'Status updated' });
          onDone();
        },
        onError: (error) => {
          toast({
            variant: 'destructive',
            title: 'Update failed',
            description: errorMessage(error, 'Failed to update status'),
          });
        },
      },
    );
  }

  const details: [string, string][] = [
    ['Name', leadName(lead)],
    ['Phone', lead.phone ? formatPhone(lead.phone) : '—'],
    ['Email', lead.email ?? '—'],
    ['Location', leadPlace(lead)],
  ];

  return (
    <form onSubmit={handleSubmit} aria-busy={update.isPending}>
      <DrawerHeader>
        <DrawerTitle>Update Lead Status</DrawerTitle>
        <DrawerDescription>Record where you are with {leadName(lead)}.</DrawerDescription>
      </DrawerHeader>
      <div className="space-y-4 px-4">
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 rounded-lg border p-4 text-sm">
          {details.map(([term, value]) => (
            <div key={term} className="contents">
              <dt className="text-muted-foreground">{term}</dt>
              <dd className="min-w-0 break-words font-medium">{value}</dd>
            </div>
          ))}
          <dt className="text-muted-foreground">Current Status</dt>
          <dd>
            <LeadStatusBadge status={lead.status} />
          </dd>
        </dl>
        <LeadCallingWindow lead={lead} />
        <LeadCallSection lead={lead} />
        <div className="grid gap-2">
          <Label htmlFor="new-lead-status">New Status</Label>
          <Select
            value={status}
            onValueChange={(value) => setStatus(value as AgentSettableStatus)}
            disabled={update.isPending}
          >
            <SelectTrigger id="new-lead-status" className="w-full">
              <SelectValue placeholder="Select a status" />
            </SelectTrigger>
            <SelectContent>
              {AGENT_SETTABLE_STATUSES.map((value) => (
                <SelectItem key={value} value={value}>
                  {leadStatusLabel(value)}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
      </div>
      <DrawerFooter>
        <Button type="submit" disabled={!status || update.isPending}>
          {update.isPending && <Spinner />}
          Update Status
        </Button>
        <DrawerClose asChild>
          <Button type="button" variant="outline" disabled={update.isPending}>
            Cancel
          </Button>
        </DrawerClose>
      </DrawerFooter>
      {/* under the buttons, so the status change stays in reach however long it grows */}
      <div className="space-y-4 px-4 pb-4">
        <LeadReturnAction lead={lead} />
        <LeadConsent lead={lead} />
        <LeadActivity leadId={lead.id} />
      </div>
    </form>
  );
}
