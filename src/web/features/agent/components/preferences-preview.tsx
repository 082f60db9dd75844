import type { Preferences } from '@shared/contracts/agent';
import { categoryLabel } from '@shared/format';
import { useQuery } from '@tanstack/react-query';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@web/components/ui/card';
import { useEffect, useState } from 'react';
import { preferencesPreviewQuery } from '../api';
import { previewSentence, withinLimitsSentence } from '../preview-words';

const PREVIEW_DELAY_MS = 400;

/** The text once it has not changed for `delay` ms: one query per pause, not per keystroke. */
function useSettled(value: string, delay: number): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return settled;
}

/**
 * Live, while the agent edits: how many leads these preferences would have matched over the
 * last 30 days and per day (docs/domain.md, Analytics that explain). Invalid ages wait for a valid value.
 */
export function PreferencesPreview({ prefs }: { prefs: Preferences }) {
  const agesOk =
    (prefs.ageMin === null || Number.isInteger(prefs.ageMin)) &&
    (prefs.ageMax === null || Number.isInteger(prefs.ageMax)) &&
    (prefs.ageMin === null || prefs.ageMax === null || prefs.ageMin <= prefs.ageMax);
  const settled = useSettled(JSON.stringify(prefs), PREVIEW_DELAY_MS);
  const { data, isError, isFetching } = useQuery({
    ...preferencesPreviewQuery(JSON.parse(settled) as Preferences),
    enabled: agesOk,
  });
  const max = data ? Math.max(1, ...data.daily.map((d) => d.count)) : 1;
  const short = data && data.packageLeadsPerDay !== null && data.perDay < data.packageLeadsPerDay;
  return (
    <Card data-testid="preferences-preview" aria-busy={isFetching}>
      <CardHeader>
        <CardTitle asChild>
          <h2 className="text-lg">Preview</h2>
        </CardTitle>
        <CardDescription>
          Leads these preferences would have matched over the last 30 days
          {data?.category ? ` (${categoryLabel(data.category)} leads, your package)` : ''}.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-3">
        {isError ? (
          <p role="alert" className="text-destructive text-sm">
            The preview could not be loaded.
          </p>
        ) : !data ? (
          <p className="text-muted-foreground text-sm" role="status">
            Counting...
          </p>
        ) : (
          <>
            <p aria-live="polite">
              <span className="font-semibold text-xl sm:text-2xl" data-testid="preview-per-day">
                {previewSentence(data.perDay, data.packageLeadsPerDay)}
              </span>
              <span className="ml-2 text-muted-foreground text-sm" data-testid="preview-matched">
                {data.matched.toLocaleString('en-US')} leads in {data.days} days
              </span>
            </p>
            {data.withinLimits && (
              <p className="text-sm" data-testid="preview-within-limits">
                {withinLimitsSentence(data.withinLimits.perDay, data.withinLimits.bounds)}.
              </p>
            )}
            {short && (
              <p className="text-muted-foreground text-sm">
                Fewer than your package's daily leads: wider preferences would fill it more often.
              </p>
            )}
            {data.licensedStates.length > 0 && (
              <p className="text-muted-foreground text-xs">
                Counted within your licensed states: {data.licensedStates.join(', ')}.
              </p>
            )}
            <div
              className="flex h-16 items-end gap-px"
              role="img"
              aria-label={`Leads matched per day over the last ${data.days} days`}
            >
              {data.daily.map((d) => (
                <div
                  key={d.date}
                  title={`${d.date}: ${d.count}`}
                  className="flex-1 rounded-t-sm bg-[var(--chart-1)]"
                  style={{ height: `${Math.max(2, (d.count / max) * 100)}%` }}
                />
              ))}
            </div>
          </>
        )}
      </CardContent>
    </Card>
  );
}
