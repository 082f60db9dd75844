import { useQuery } from '@tanstack/react-query';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@web/components/ui/card';
import { FormField } from '@web/components/ui/form-field';
import { toast } from '@web/components/ui/use-toast';
import { errorMessage, fieldIssues } from '@web/lib/api-client';
import { useEffect, useState } from 'react';
import { capsQuery, scheduleQuery, useSaveCaps, useSaveSchedule } from '../api';
import {
  CAP_FIELDS,
  type CapField,
  capsBody,
  capsForm,
  type ScheduleForm,
  scheduleBody,
  scheduleForm,
  WEEKDAY_LABELS,
  WEEKDAYS,
} from '../schedule-form';

/** The browser's own time zone: the form's first guess for an agent who saved none. */
function browserZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

const CAP_LABELS: Record<CapField, string> = {
  daily: 'Leads a day at most',
  weekly: 'Leads a week at most',
  monthly: 'Leads a month at most',
  monthlyBudgetCents: 'Monthly budget ($)',
};

const CAP_HINTS: Record<CapField, string> = {
  daily: "Up to your package's leads per day",
  weekly: 'Weeks start on Monday',
  monthly: 'Months start on the 1st',
  monthlyBudgetCents: 'Pay per lead: the most your wallet spends on leads a month',
};

/**
 * When and how many leads the agent takes (docs/domain.md, Schedule and caps), on the agent's
 * dashboard: the hours of each weekday in their time zone, and daily, weekly and monthly caps.
 */
export function ScheduleCapsCard() {
  const schedule = useQuery(scheduleQuery);
  const caps = useQuery(capsQuery);
  const saveSchedule = useSaveSchedule();
  const saveCaps = useSaveCaps();
  const [form, setForm] = useState<ScheduleForm | null>(null);
  const [capValues, setCapValues] = useState<Record<CapField, string> | null>(null);
  const [scheduleErrors, setScheduleErrors] = useState<Record<string, string>>({});
  const [capErrors, setCapErrors] = useState<Partial<Record<CapField, string>>>({});

  useEffect(() => {
    if (schedule.data && form === null) setForm(scheduleForm(schedule.data, browserZone()));
  }, [schedule.data, form]);
  useEffect(() => {
    if (caps.data && capValues === null) setCapValues(capsForm(caps.data));
  }, [caps.data, capValues]);

  if (!form || !capValues) return null;

  const setDay = (day: (typeof WEEKDAYS)[number], change: Partial<ScheduleForm['days']['mon']>) =>
    setForm({ ...form, days: { ...form.days, [day]: { ...form.days[day], ...change } } });

  const submitSchedule = () => {
    setScheduleErrors({});
    saveSchedule.mutate(scheduleBody(form), {
      onSuccess: () => toast({ title: 'Schedule saved' }),
      onError: (e) => {
        setScheduleErrors(Object.fromEntries(fieldIssues(e).map((i) => [i.field, i.message])));
        toast({
          variant: 'destructive',
          title: 'Could not save the schedule',
          description: errorMessage(e, 'Please try again'),
        });
      },
    });
  };

  const submitCaps = () => {
    const result = capsBody(capValues);
    if ('errors' in result) {
      setCapErrors(result.errors);
      return;
    }
    setCapErrors({});
    saveCaps.mutate(result.body, {
      onSuccess: () => toast({ title: 'Caps saved' }),
      onError: (e) => {
        const found: Partial<Record<CapField, string>> = {};
        for (const issue of fieldIssues(e)) {
          const field = issue.field.split('.')[0] as CapField;
          if (CAP_FIELDS.includes(field)) found[field] ??= issue.message;
        }
        setCapErrors(found);
        toast({
          variant: 'destructive',
          title: 'Could not save the caps',
          description: errorMessage(e, 'Please try again'),
        });
      },
    });
  };

  return (
    <Card data-testid="schedule-caps-card">
      <CardHeader>
        <CardTitle asChild>
          <h2 className="text-base">Schedule and caps</h2>
        </CardTitle>
        <CardDescription>
          {schedule.data?.days
            ? 'You receive leads only within these hours, up to your caps.'
            : 'No schedule saved: you receive leads at any time. Save one to receive leads only within these hours.'}
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        <form
          className="grid gap-3"
          aria-label="Schedule"
          onSubmit={(e) => {
            e.preventDefault();
            submitSchedule();
          }}
        >
          <FormField
            label="Time zone"
            hint="An IANA name, such as America/Chicago"
            value={form.timeZone}
            onChange={(e) => setForm({ ...form, timeZone: e.target.value })}
            error={scheduleErrors.timeZone}
            className="max-w-xs"
          />
          <fieldset className="grid gap-2">
            <legend className="mb-1 font-medium text-sm">
              Hours (24 h; an end of 24:00 is midnight)
            </legend>
            {WEEKDAYS.map((day) => {
              const row = form.days[day];
              const error =
                scheduleErrors[`days.${day}.end`] ??
                scheduleErrors[`days.${day}.start`] ??
                scheduleErrors[`days.${day}`];
              return (
                <div key={day} className="flex flex-wrap items-center gap-2 text-sm">
                  <label className="flex w-32 items-center gap-2">
                    <input
                      type="checkbox"
                      checked={row.on}
                      onChange={(e) => setDay(day, { on: e.target.checked })}
                    />
                    {WEEKDAY_LABELS[day]}
                  </label>
                  <input
                    aria-label={`${WEEKDAY_LABELS[day]} from`}
                    value={row.start}
                    disabled={!row.on}
                    placeholder="09:00"
                    inputMode="numeric"
                    onChange={(e) => setDay(day, { start: e.target.value })}
                    aria-invalid={error ? true : undefined}
                    className="h-8 w-20 rounded-md border border-input bg-transparent px-2 disabled:opacity-50"
                  />
                  <span aria-hidden="true">to</span>
                  <input
                    aria-label={`${WEEKDAY_LABELS[day]} to`}
                    value={row.end}
                    disabled={!row.on}
                    placeholder="17:00"
                    inputMode="numeric"
                    onChange={(e) => setDay(day, { end: e.target.value })}
                    aria-invalid={error ? true : undefined}
                    className="h-8 w-20 rounded-md border border-input bg-transparent px-2 disabled:opacity-50"
                  />
                  {!row.on && <span className="text-muted-foreground">No leads</span>}
                  {error && <span className="text-destructive text-xs">{error}</span>}
                </div>
              );
            })}
          </fieldset>
          <div>
            <Button type="submit" variant="outline" disabled={saveSchedule.isPending}>
              Save schedule
            </Button>
          </div>
        </form>
        <form
          className="grid gap-3"
          aria-label="Caps"
          onSubmit={(e) => {
            e.preventDefault();
            submitCaps();
          }}
        >
          <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
            {CAP_FIELDS.map((field) => (
              <FormField
                key={field}
                label={CAP_LABELS[field]}
                hint={CAP_HINTS[field]}
                inputMode={field === 'monthlyBudgetCents' ? 'decimal' : 'numeric'}
                placeholder="No cap"
                value={capValues[field]}
                onChange={(e) => setCapValues({ ...capValues, [field]: e.target.value })}
                error={capErrors[field]}
              />
            ))}
          </div>
          <div>
            <Button type="submit" variant="outline" disabled={saveCaps.isPending}>
              Save caps
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
