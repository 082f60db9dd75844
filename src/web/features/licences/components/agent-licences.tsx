import type { AdminAgent } from '@shared/contracts/admin';
import { STATE_CODES, US_STATES } from '@shared/domain';
import { formatPhone } from '@shared/phone';
import { Badge } from '@web/components/ui/badge';
import { Button } from '@web/components/ui/button';
import { Checkbox } from '@web/components/ui/checkbox';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@web/components/ui/dialog';
import { Spinner } from '@web/components/ui/spinner';
import { toast } from '@web/components/ui/use-toast';
import { errorMessage } from '@web/lib/api-client';
import { Pencil } from 'lucide-react';
import { useState } from 'react';
import { useSetLicensedStates } from '../api';

const dayFormat = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  timeZone: 'UTC',
});
const pauseDay = (date: string) => dayFormat.format(new Date(`${date}T12:00:00Z`));

/** Under the agent's name: their phone and, while paused, until when (docs/domain.md, Follow-up messages and calls; Pause). */
export function AgentContactLine({ agent }: { agent: AdminAgent }) {
  return (
    <>
      {agent.phone && (
        <div className="font-normal text-muted-foreground text-xs">{formatPhone(agent.phone)}</div>
      )}
      {agent.pause && (
        <Badge
          variant="outline"
          className="mt-1 border-amber-400 text-amber-700 dark:text-amber-300"
          data-testid="agent-paused"
        >
          {agent.pause.until ? `Paused until ${pauseDay(agent.pause.until)}` : 'Paused'}
        </Badge>
      )}
    </>
  );
}

/**
 * Under the agent's name: the licensed states (or "All states") and the button that edits them.
 * In the Agent column, not a column of its own: the table must keep fitting 1280 px.
 */
export function LicencesCell({ agent }: { agent: AdminAgent }) {
  const [open, setOpen] = useState(false);
  const states = agent.licensedStates ?? [];
  return (
    <div className="flex items-center gap-1 font-normal" data-testid="agent-licences">
      <span className="max-w-44 text-xs">
        <span className="text-muted-foreground">Licensed: </span>
        {states.length === 0 ? 'All states' : states.join(', ')}
      </span>
      <Button
        variant="ghost"
        size="icon"
        className="size-6"
        aria-label={`Edit licensed states of ${agent.name}`}
        onClick={() => setOpen(true)}
      >
        <Pencil aria-hidden="true" />
      </Button>
      {open && <LicencesDialog agent={agent} onClose={() => setOpen(false)} />}
    </div>
  );
}

function LicencesDialog({ agent, onClose }: { agent: AdminAgent; onClose: () => void }) {
  const save = useSetLicensedStates();
  const [chosen, setChosen] = useState(() => new Set(agent.licensedStates ?? []));
  const toggle = (code: string, on: boolean) =>
    setChosen((prev) => {
      const next = new Set(prev);
      if (on) next.add(code);
      else next.delete(code);
      return next;
    });
  const submit = () =>
    save.mutate(
      { agentId: agent.id, states: [...chosen] },
      {
        onSuccess: () => {
          toast({
            title: 'Licensed states saved',
            description:
              chosen.size === 0
                ? `${agent.name}: not restricted`
                : `${agent.name}: ${chosen.size} ${chosen.size === 1 ? 'state' : 'states'}`,
          });
          onClose();
        },
        onError: (error) =>
          toast({
            variant: 'destructive',
            title: 'Not saved',
            description: errorMessage(error, 'The licensed states could not be saved'),
          }),
      },
    );
  return (
    <Dialog open onOpenChange={(o) => !o && onClose()}>
      <DialogContent className="sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>Licensed states of {agent.name}</DialogTitle>
          <DialogDescription>
            The agent gets leads of these states only, whatever their preferences say. None checked:
            not restricted.
          </DialogDescription>
        </DialogHeader>
        <div className="flex flex-wrap gap-2">
          <Button type="button" size="sm" variant="outline" onClick={() => setChosen(new Set())}>
            Clear all
          </Button>
          <span className="self-center text-muted-foreground text-sm" aria-live="polite">
            {chosen.size === 0 ? 'All states (not restricted)' : `${chosen.size} selected`}
          </span>
        </div>
        <fieldset className="grid grid-cols-2 gap-x-4 gap-y-2 sm:grid-cols-3 md:grid-cols-4">
          <legend className="sr-only">Licensed states</legend>
          {STATE_CODES.map((code) => (
            <div key={code} className="flex items-center gap-2 text-sm">
              <Checkbox
                id={`licence-${agent.id}-${code}`}
                checked={chosen.has(code)}
                onCheckedChange={(v) => toggle(code, v === true)}
              />
              <label htmlFor={`licence-${agent.id}-${code}`}>
                <span className="font-medium">{code}</span>{' '}
                <span className="text-muted-foreground text-xs">{US_STATES[code]}</span>
              </label>
            </div>
          ))}
        </fieldset>
        <DialogFooter>
          <Button type="button" variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button type="button" onClick={submit} disabled={save.isPending}>
            {save.isPending && <Spinner />}
            Save
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
