import { DEFAULT_BUSINESS_TIME_ZONE } from '@shared/format';
import { useQuery } from '@tanstack/react-query';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@web/components/ui/card';
import { Label } from '@web/components/ui/label';
import { toast } from '@web/components/ui/use-toast';
import { errorMessage } from '@web/lib/api-client';
import { PauseCircle, PlayCircle } from 'lucide-react';
import { useId, useState } from 'react';
import { pauseQuery, usePauseDeliveries, useResumeDeliveries } from '../api';

const dayFormat = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  timeZone: 'UTC',
});

/** "2026-12-01" -> "Dec 1" (a business date: no time zone shift). */
export function formatPauseDate(date: string): string {
  const d = new Date(`${date}T12:00:00Z`);
  return Number.isNaN(d.getTime()) ? date : dayFormat.format(d);
}

/** Today's business date, the date picker's minimum. */
function todayInBusinessZone(): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: DEFAULT_BUSINESS_TIME_ZONE }).format(
    new Date(),
  );
}

/**
 * Pause / vacation on the agent's dashboard (docs/domain.md, Pause): while paused no trigger gives the agent
 * leads. Pause through a date (it ends by itself the next business day) or until resumed.
 */
export function PauseDeliveriesCard() {
  const { data } = useQuery(pauseQuery);
  const pause = usePauseDeliveries();
  const resume = useResumeDeliveries();
  const [mode, setMode] = useState<'date' | 'open'>('date');
  const [until, setUntil] = useState('');
  const [error, setError] = useState<string | null>(null);
  const dateId = useId();
  if (!data) return null;

  const fail = (title: string) => (e: unknown) =>
    toast({ variant: 'destructive', title, description: errorMessage(e, 'Please try again') });

  if (data.paused) {
    return (
      <Card data-testid="pause-card" className="border-amber-300 bg-amber-50 dark:bg-amber-950/30">
        <CardHeader>
          <CardTitle asChild>
            <h2 className="flex items-center gap-2 text-base">
              <PauseCircle aria-hidden="true" className="size-5 text-amber-600" />
              {data.until
                ? `Deliveries paused until ${formatPauseDate(data.until)}`
                : 'Deliveries paused until you resume'}
            </h2>
          </CardTitle>
          <CardDescription>
            No new leads are assigned to you while paused
            {data.until ? '; deliveries start again the next business day.' : '.'}
          </CardDescription>
        </CardHeader>
        <CardContent>
          <Button
            disabled={resume.isPending}
            onClick={() =>
              resume.mutate(undefined, {
                onSuccess: () => toast({ title: 'Deliveries resumed' }),
                onError: fail('Could not resume'),
              })
            }
          >
            <PlayCircle aria-hidden="true" />
            Resume deliveries
          </Button>
        </CardContent>
      </Card>
    );
  }

  const submit = () => {
    if (mode === 'date' && !until) {
      setError('Pick the last day of your pause');
      return;
    }
    setError(null);
    pause.mutate(mode === 'date' ? until : null, {
      onSuccess: () => toast({ title: 'Deliveries paused' }),
      onError: fail('Could not pause deliveries'),
    });
  };

  return (
    <Card data-testid="pause-card">
      <CardHeader>
        <CardTitle asChild>
          <h2 className="text-base">Pause deliveries</h2>
        </CardTitle>
        <CardDescription>
          Going on vacation? While paused, you receive no new leads from any assignment.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form
          className="flex flex-col gap-4 sm:flex-row sm:flex-wrap sm:items-end"
          onSubmit={(e) => {
            e.preventDefault();
            submit();
          }}
        >
          <fieldset className="grid gap-2">
            <legend className="sr-only">How long</legend>
            <label className="flex items-center gap-2 text-sm">
              <input
                type="radio"
                name="pause-mode"
                checked={mode === 'date'}
                onChange={() => setMode('date')}
              />
              Through a date
            </label>
            <label className="flex items-center gap-2 text-sm">
              <input
                type="radio"
                name="pause-mode"
                checked={mode === 'open'}
                onChange={() => setMode('open')}
              />
              Until I resume
            </label>
          </fieldset>
          {mode === 'date' && (
            <div className="grid gap-2">
              <Label htmlFor={dateId}>Last day paused</Label>
              <input
                id={dateId}
                type="date"
                min={todayInBusinessZone()}
                value={until}
                onChange={(e) => setUntil(e.target.value)}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? `${dateId}-error` : undefined}
                className="h-9 rounded-md border border-input bg-transparent px-3 text-sm shadow-xs"
              />
              {error && (
                <p id={`${dateId}-error`} className="text-destructive text-xs">
                  {error}
                </p>
              )}
            </div>
          )}
          <Button type="submit" variant="outline" disabled={pause.isPending}>
            <PauseCircle aria-hidden="true" />
            Pause deliveries
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
