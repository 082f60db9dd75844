import type { AdminAgent } from '@shared/contracts/admin';
import type { Lead } from '@shared/contracts/leads';
import { REASSIGNABLE_STATUSES } from '@shared/domain';
import { categoryLabel, leadName, leadPlace } from '@shared/format';
import { useQuery } from '@tanstack/react-query';
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
import { leadFitQuery } from '@web/features/explanation/api';
import { errorMessage } from '@web/lib/api-client';
import { TriangleAlert } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { useAssignLead } from '../api';
import { agentOptionDetail, assignWarnings } from '../assign-warnings';

/** A lead an agent holds and works: the dialog reassigns it (docs/domain.md, Assignment). */
export function isReassignable(lead: Lead): boolean {
  return (
    lead.agentId !== null && (REASSIGNABLE_STATUSES as readonly string[]).includes(lead.status)
  );
}

/**
 * Assign Lead: the admin picks an agent, seeing each one's category and quota use today, and is
 * warned (but may go on) of every condition of the fit rule the chosen agent fails. Reassign Lead
 * (a lead being worked): only another agent who fits it may take it, so the warnings stop it.
 */
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
  const reassigning = isReassignable(lead);
  const holder = agents.find((agent) => agent.id === lead.agentId);
  // a disabled account gets no lead; a lead being reassigned goes to someone else
  const offered = agents.filter((agent) => !agent.disabled && agent.id !== lead.agentId);
  const chosen = offered.find((agent) => String(agent.id) === agentId);
  const fit = useQuery({
    ...leadFitQuery(lead.id, chosen?.id ?? 0),
    enabled: chosen !== undefined,
  });
  const warnings = chosen && fit.data ? assignWarnings(chosen, lead, fit.data.reasons) : [];

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!agentId) return;
    assign.mutate(
      {
        leadId: lead.id,
        userId: Number(agentId),
        fromAgentId: reassigning ? lead.agentId : null,
      },
      {
        onSuccess: () => {
          toast({ title: reassigning ? 'Lead reassigned' : 'Lead assigned' });
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
    <form onSubmit={handleSubmit} className="grid min-w-0 gap-4">
      <DialogHeader>
        <DialogTitle>{reassigning ? 'Reassign Lead' : 'Assign Lead'}</DialogTitle>
        <DialogDescription>
          {leadName(lead)} · {leadPlace(lead)} · age {lead.age} · {categoryLabel(lead.category)}
          {reassigning && ` · now with ${holder?.name ?? `agent #${lead.agentId}`}`}
        </DialogDescription>
      </DialogHeader>
      <div className="grid gap-2">
        <Label htmlFor="assign-agent">Select Agent</Label>
        <Select value={agentId} onValueChange={setAgentId} disabled={assign.isPending}>
          <SelectTrigger
            id="assign-agent"
            className="h-auto min-h-9 w-full whitespace-normal text-left"
          >
            <SelectValue placeholder={agentsLoading ? 'Loading agents...' : 'Choose an agent'} />
          </SelectTrigger>
          <SelectContent className="max-w-(--radix-select-content-available-width)">
            {offered.map((agent) => (
              <SelectItem key={agent.id} value={String(agent.id)} data-testid="agent-option">
                <span className="flex min-w-0 flex-col items-start text-left wrap-anywhere">
                  <span className="font-medium">{agent.name}</span>
                  <span className="text-muted-foreground text-xs">
                    {agent.email} · {agentOptionDetail(agent)}
                  </span>
                </span>
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
        {!agentsLoading && offered.length === 0 && (
          <p className="text-muted-foreground text-sm">No agents have registered yet</p>
        )}
        <p className="text-muted-foreground text-xs">
          The quota shows leads assigned today against the agent's daily limit; you may go over it.
        </p>
        {/* polite: read when an agent is chosen, without stealing the focus from the list */}
        <div aria-live="polite" data-testid="assign-warnings">
          {warnings.length > 0 && (
            <div className="flex gap-2 rounded-md border border-amber-300 bg-amber-50 p-3 text-amber-900 text-sm dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100">
              <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
              <div className="space-y-1">
                {warnings.map((warning) => (
                  <p key={warning}>{warning}</p>
                ))}
                <p>
                  {reassigning
                    ? 'A lead being worked can only go to an agent who fits it.'
                    : 'The daily runs would not give this lead to this agent. You can still assign it.'}
                </p>
              </div>
            </div>
          )}
        </div>
      </div>
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onDone} disabled={assign.isPending}>
          Cancel
        </Button>
        <Button
          type="submit"
          disabled={!agentId || assign.isPending || (reassigning && warnings.length > 0)}
        >
          {assign.isPending && <Spinner />}
          {reassigning ? 'Reassign Lead' : 'Assign Lead'}
        </Button>
      </DialogFooter>
    </form>
  );
}
