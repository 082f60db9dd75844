import type { Lead } from '@shared/contracts/leads';
import type { LeadReturn } from '@shared/contracts/returns';
import { RETURN_REASONS, type ReturnReason } from '@shared/domain';
import { returnReasonLabel } from '@shared/format';
import { useQuery } from '@tanstack/react-query';
import { Badge } from '@web/components/ui/badge';
import { Button } from '@web/components/ui/button';
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
import { leadReturnQuery, useRequestReturn } from '@web/features/returns/api';
import { errorMessage } from '@web/lib/api-client';
import { Undo2 } from 'lucide-react';
import { useId, useState } from 'react';

function ReturnState({ ret }: { ret: LeadReturn }) {
  const tone =
    ret.status === 'APPROVED' ? 'default' : ret.status === 'DENIED' ? 'destructive' : 'secondary';
  const word =
    ret.status === 'PENDING'
      ? 'Return requested'
      : ret.status === 'APPROVED'
        ? 'Return approved'
        : 'Return denied';
  return (
    <div className="space-y-1 rounded-lg border p-3 text-sm" data-testid="lead-return-state">
      <p className="flex flex-wrap items-center gap-2 font-medium">
        <Badge variant={tone}>{word}</Badge>
        {returnReasonLabel(ret.reason)}
      </p>
      {ret.status === 'PENDING' && (
        <p className="text-muted-foreground text-xs">Waiting for an admin's decision.</p>
      )}
      {ret.status === 'APPROVED' && (
        <p className="text-muted-foreground text-xs">
          This lead no longer counts against your quota; a replacement is assigned when one fits.
        </p>
      )}
      {ret.decisionNote && <p className="text-xs">Admin's note: {ret.decisionNote}</p>}
    </div>
  );
}

/**
 * Return a bad lead (docs/domain.md, Returns and credits) from its drawer: a reason, a note, and the state of the request.
 * Not inside the status form's submit: its buttons are plain buttons. The server holds the rules
 * (window, CONVERTED, rate cap) and its refusal is shown in words.
 */
export function LeadReturnAction({ lead }: { lead: Lead }) {
  const { data } = useQuery(leadReturnQuery(lead.id));
  const request = useRequestReturn(lead.id);
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState<ReturnReason | ''>('');
  const [note, setNote] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const reasonId = useId();
  const noteId = useId();
  const current = data?.return ?? null;
  const canAsk =
    lead.status !== 'CONVERTED' &&
    lead.returnedAt === null &&
    (current === null || current.status === 'DENIED');

  const send = () => {
    if (!reason) {
      setProblem('Choose a reason');
      return;
    }
    setProblem(null);
    request.mutate(
      { reason, note },
      {
        onSuccess: () => {
          toast({ title: 'Return requested' });
          setOpen(false);
        },
        onError: (error) => setProblem(errorMessage(error, 'The return could not be requested')),
      },
    );
  };

  return (
    <section aria-labelledby="lead-return-title" className="space-y-2" data-testid="lead-return">
      <h3 id="lead-return-title" className="font-medium text-sm">
        Return
      </h3>
      {current && <ReturnState ret={current} />}
      {lead.status === 'CONVERTED' && !current && (
        <p className="text-muted-foreground text-sm">A converted lead cannot be returned.</p>
      )}
      {canAsk && !open && (
        <Button type="button" variant="outline" size="sm" onClick={() => setOpen(true)}>
          <Undo2 aria-hidden="true" />
          Return this lead
        </Button>
      )}
      {canAsk && open && (
        <div className="space-y-3 rounded-lg border p-3">
          <div className="grid gap-2">
            <Label htmlFor={reasonId}>Reason</Label>
            <Select value={reason} onValueChange={(v) => setReason(v as ReturnReason)}>
              <SelectTrigger id={reasonId} className="w-full">
                <SelectValue placeholder="Select a reason" />
              </SelectTrigger>
              <SelectContent>
                {RETURN_REASONS.map((value) => (
                  <SelectItem key={value} value={value}>
                    {returnReasonLabel(value)}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </div>
          <div className="grid gap-2">
            <Label htmlFor={noteId}>Note (optional)</Label>
            <textarea
              id={noteId}
              value={note}
              maxLength={1000}
              rows={2}
              onChange={(e) => setNote(e.target.value)}
              className="w-full rounded-md border border-input bg-transparent px-3 py-2 text-sm shadow-xs"
            />
          </div>
          {problem && (
            <p role="alert" className="text-destructive text-sm">
              {problem}
            </p>
          )}
          <div className="flex flex-wrap gap-2">
            <Button type="button" size="sm" onClick={send} disabled={request.isPending}>
              {request.isPending && <Spinner />}
              Request return
            </Button>
            <Button type="button" variant="outline" size="sm" onClick={() => setOpen(false)}>
              Cancel
            </Button>
          </div>
        </div>
      )}
    </section>
  );
}
