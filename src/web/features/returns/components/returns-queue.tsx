import type { AdminReturn } from '@shared/contracts/returns';
import { RETURN_STATUSES, type ReturnStatus } from '@shared/domain';
import { categoryLabel, leadStatusLabel, returnReasonLabel } from '@shared/format';
import { formatPhone } from '@shared/phone';
import { useQuery } from '@tanstack/react-query';
import { PageHeader } from '@web/components/layout/page-header';
import { Badge } from '@web/components/ui/badge';
import { Button } from '@web/components/ui/button';
import { Card, CardContent } from '@web/components/ui/card';
import { Label } from '@web/components/ui/label';
import { LoadError } from '@web/components/ui/load-error';
import { Skeleton } from '@web/components/ui/skeleton';
import { Spinner } from '@web/components/ui/spinner';
import { toast } from '@web/components/ui/use-toast';
import { errorMessage } from '@web/lib/api-client';
import { cn } from '@web/lib/utils';
import { Check, Undo2, X } from 'lucide-react';
import { useId, useState } from 'react';
import { adminReturnsQuery, useDecideReturn } from '../api';

const TAB_LABELS: Record<ReturnStatus, string> = {
  PENDING: 'Pending',
  APPROVED: 'Approved',
  DENIED: 'Denied',
};

/** "just now", "5 h ago", "3 days ago" */
export function ageLabel(hours: number): string {
  if (hours < 1) return 'just now';
  if (hours < 48) return `${hours} h ago`;
  return `${Math.floor(hours / 24)} days ago`;
}

function Decision({ item }: { item: AdminReturn }) {
  const decide = useDecideReturn();
  const [note, setNote] = useState('');
  const noteId = useId();
  const act = (approve: boolean) =>
    decide.mutate(
      { id: item.id, approve, note },
      {
        onSuccess: () =>
          toast({
            title: approve ? 'Return approved' : 'Return denied',
            description: approve
              ? `${item.lead.name} is now invalid; ${item.agent.name} gets a replacement if one fits.`
              : `${item.agent.name} keeps ${item.lead.name}.`,
          }),
        onError: (error) =>
          toast({
            variant: 'destructive',
            title: 'Decision not saved',
            description: errorMessage(error, 'Please try again'),
          }),
      },
    );
  return (
    <div className="grid gap-2 border-t pt-3">
      <Label htmlFor={noteId}>Note to the agent (optional)</Label>
      <textarea
        id={noteId}
        rows={2}
        maxLength={1000}
        value={note}
        onChange={(e) => setNote(e.target.value)}
        className="w-full rounded-md border border-input bg-transparent px-3 py-2 text-sm shadow-xs"
      />
      <div className="flex flex-wrap gap-2">
        <Button size="sm" onClick={() => act(true)} disabled={decide.isPending}>
          {decide.isPending ? <Spinner /> : <Check aria-hidden="true" />}
          Approve
        </Button>
        <Button size="sm" variant="outline" onClick={() => act(false)} disabled={decide.isPending}>
          <X aria-hidden="true" />
          Deny
        </Button>
      </div>
    </div>
  );
}

function ReturnCard({ item }: { item: AdminReturn }) {
  return (
    <Card className="gap-3 py-4" data-testid="return-item">
      <CardContent className="space-y-3 px-4">
        <div className="flex flex-wrap items-start justify-between gap-2">
          <div className="min-w-0">
            <h2 className="font-semibold">{item.lead.name}</h2>
            <p className="text-muted-foreground text-sm">
              {item.lead.phone ? `${formatPhone(item.lead.phone)} · ` : ''}
              {item.lead.city}, {item.lead.state} · {categoryLabel(item.lead.category)} ·{' '}
              {leadStatusLabel(item.lead.status)}
            </p>
          </div>
          <Badge variant="secondary">{returnReasonLabel(item.reason)}</Badge>
        </div>
        <dl className="grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
          <dt className="text-muted-foreground">Agent</dt>
          <dd className="min-w-0 wrap-anywhere">
            {item.agent.name} <span className="text-muted-foreground">({item.agent.email})</span>
          </dd>
          <dt className="text-muted-foreground">Requested</dt>
          <dd>{ageLabel(item.ageHours)}</dd>
          {item.note && (
            <>
              <dt className="text-muted-foreground">Agent's note</dt>
              <dd className="whitespace-pre-line">{item.note}</dd>
            </>
          )}
          {item.status !== 'PENDING' && (
            <>
              <dt className="text-muted-foreground">Decided</dt>
              <dd>
                {TAB_LABELS[item.status]}
                {item.decidedBy ? ` by ${item.decidedBy}` : ''}
                {item.decisionNote ? `: ${item.decisionNote}` : ''}
              </dd>
            </>
          )}
        </dl>
        {item.status === 'PENDING' && <Decision item={item} />}
      </CardContent>
    </Card>
  );
}

/** The admin's Returns queue (docs/domain.md, Returns and credits): pending returns oldest first, approve or deny with a note. */
export function ReturnsQueue() {
  const [status, setStatus] = useState<ReturnStatus>('PENDING');
  const { data, isPending, isError, refetch, isFetching } = useQuery(adminReturnsQuery(status));
  return (
    <div className="space-y-6">
      <PageHeader
        title="Returns"
        description="Leads agents sent back. Approving makes the lead invalid, credits the agent's quota and assigns a replacement at once."
      />
      <div role="tablist" aria-label="Return status" className="flex flex-wrap gap-2">
        {RETURN_STATUSES.map((s) => (
          <Button
            key={s}
            role="tab"
            aria-selected={status === s}
            size="sm"
            variant={status === s ? 'default' : 'outline'}
            onClick={() => setStatus(s)}
          >
            {TAB_LABELS[s]}
            {s === 'PENDING' && data ? ` (${data.pending})` : ''}
          </Button>
        ))}
      </div>
      {isError && (
        <LoadError
          message="The returns could not be loaded."
          onRetry={() => refetch()}
          retrying={isFetching}
        />
      )}
      {isPending && !isError && (
        <div className="space-y-3">
          <Skeleton className="h-32 w-full" />
          <Skeleton className="h-32 w-full" />
        </div>
      )}
      {data && data.items.length === 0 && (
        <Card>
          <CardContent className="flex flex-col items-center gap-2 py-8 text-center">
            <Undo2 aria-hidden="true" className="size-8 text-muted-foreground" />
            <p className="font-medium">
              {status === 'PENDING'
                ? 'No returns waiting'
                : `No ${TAB_LABELS[status].toLowerCase()} returns`}
            </p>
            <p className="text-muted-foreground text-sm">Returns agents request appear here.</p>
          </CardContent>
        </Card>
      )}
      {data && data.items.length > 0 && (
        <div className={cn('grid gap-3 lg:grid-cols-2')}>
          {data.items.map((item) => (
            <ReturnCard key={item.id} item={item} />
          ))}
        </div>
      )}
    </div>
  );
}
