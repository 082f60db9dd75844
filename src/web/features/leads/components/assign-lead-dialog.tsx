import type { AdminAgent } from '@shared/contracts/admin';
import type { Lead } from '@shared/contracts/leads';
import { categoryLabel, leadName, leadPlace } from '@shared/format';
import { Button } from '@web/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@web/components/ui/dialog';
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
import { errorMessage } from '@web/lib/api-client';
import { type FormEvent, useState } from 'react';
import { useAssignLead } from '../api';

function quotaText(agent: AdminAgent): string {
  if (!agent.todayQuota) return 'no subscription';
  return `${agent.todayQuota.assigned} / ${agent.todayQuota.limit} today`;
}

/** Assign Lead: the admin picks an agent, seeing each one's quota use today. */
export function AssignLeadDialog({
  lead,
  agents,
  agentsLoading,
  onClose,
}: {
  lead: Lead | null;
  agents: AdminAgent[];
  agentsLoading: boolean;
  onClose: () => void;
}) {
  const [shown, setShown] = useState(lead);
  if (lead && lead !== shown) setShown(lead);
  return (
    <Dialog
      open={lead !== null}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
    >
      <DialogContent data-testid="assign-dialog">
        {shown && (
          <AssignForm
            key={shown.id}
            lead={shown}
            agents={agents}
            agentsLoading={agentsLoading}
            onDone={onClose}
          />
        )}
      </DialogContent>
    </Dialog>
  );
}

function AssignForm({
  lead,
  agents,
  agentsLoading,
  onDone,
}: {
  lead: Lead;
  agents: AdminAgent[];
  agentsLoading: boolean;
  onDone: () => void;
}) {
  const [agentId, setAgentId] = useState('');
  const assign = useAssignLead();

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!agentId) return;
    assign.mutate(
      { leadId: lead.id, userId: Number(agentId) },
      {
        onSuccess: () => {
          toast({ title: 'Lead assigned' });
          onDone();
        },
        onError: (error) =>
          toast({
            variant: 'destructive',
            title: 'Assignment failed',
            description: errorMessage(error, 'Failed to assign lead'),
          }),
      },
    );
  }

  return (
    <form onSubmit={handleSubmit} className="grid gap-4">
      <DialogHeader>
        <DialogTitle>Assign Lead</DialogTitle>
        <DialogDescription>
          {leadName(lead)} · {leadPlace(lead)} · age {lead.age} · {categoryLabel(lead.category)}
        </DialogDescription>
      </DialogHeader>
      <div className="grid gap-2">
        <Label htmlFor="assign-agent">Select Agent</Label>
        <Select value={agentId} onValueChange={setAgentId} disabled={assign.isPending}>
          <SelectTrigger id="assign-agent" className="h-auto min-h-9 w-full">
            <SelectValue placeholder={agentsLoading ? 'Loading agents...' : 'Choose an agent'} />
          </SelectTrigger>
          <SelectContent>
            {agents.map((agent) => (
              <SelectItem key={agent.id} value={String(agent.id)} data-testid="agent-option">
                <span className="flex flex-col items-start text-left">
                  <span className="font-medium">{agent.name}</span>
                  <span className="text-muted-foreground text-xs">
                    {agent.email} · {quotaText(agent)}
                  </span>
                </span>
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
        {!agentsLoading && agents.length === 0 && (
          <p className="text-muted-foreground text-sm">No agents have registered yet</p>
        )}
        <p className="text-muted-foreground text-xs">
          The quota shows leads assigned today against the agent's daily limit; you may go over it.
        </p>
      </div>
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onDone} disabled={assign.isPending}>
          Cancel
        </Button>
        <Button type="submit" disabled={!agentId || assign.isPending}>
          {assign.isPending && <Spinner />}
          Assign Lead
        </Button>
      </DialogFooter>
    </form>
  );
}
