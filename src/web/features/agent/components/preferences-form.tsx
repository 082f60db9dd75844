import type { Preferences } from '@shared/contracts/agent';
import {
  LEAD_CATEGORIES,
  MAX_LEAD_AGE,
  MIN_LEAD_AGE,
  STATE_CODES,
  US_STATES,
} from '@shared/domain';
import { categoryLabel } from '@shared/format';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@web/components/ui/card';
import { Checkbox } from '@web/components/ui/checkbox';
import { FormField } from '@web/components/ui/form-field';
import { Label } from '@web/components/ui/label';
import { Spinner } from '@web/components/ui/spinner';
import { toast } from '@web/components/ui/use-toast';
import { useWhenIdle } from '@web/hooks/use-when-idle';
import { errorMessage, formFieldErrors } from '@web/lib/api-client';
import { cn } from '@web/lib/utils';
import { type FormEvent, type ReactNode, useRef, useState } from 'react';
import { useSavePreferences } from '../api';
import { type PreferencesFormState, toFormState, toggle, toPreferences } from '../preferences-form';
import { PreferencesPreview } from './preferences-preview';

function Section({
  title,
  description,
  children,
}: {
  title: string;
  description: string;
  children: ReactNode;
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle asChild>
          <h2 className="text-lg">{title}</h2>
        </CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent>{children}</CardContent>
    </Card>
  );
}

const FIELDS = ['states', 'cities', 'ageMin', 'ageMax', 'categories'] as const;
type Field = (typeof FIELDS)[number];
const GROUPS = new Set<Field>(['states', 'categories']);

/** States, cities, age range and categories; the server validates the same rules on save. */
export function PreferencesForm({ initial }: { initial: Preferences }) {
  const [form, setForm] = useState<PreferencesFormState>(() => toFormState(initial));
  // what the server refused, field by field, until that field changes
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const formRef = useRef<HTMLFormElement>(null);
  const save = useSavePreferences();
  const busy = save.isPending;
  const whenIdle = useWhenIdle(busy);
  const set = <K extends keyof PreferencesFormState>(key: K, value: PreferencesFormState[K]) => {
    setForm((current) => ({ ...current, [key]: value }));
    setErrors(({ [key]: _changed, ...rest }) => rest);
  };

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setErrors({});
    save.mutate(toPreferences(form), {
      onSuccess: (stored) => {
        setForm(toFormState(stored));
        toast({ title: 'Preferences saved' });
      },
      onError: (error) => {
        const refused = formFieldErrors(error, FIELDS);
        setErrors(refused);
        // the first refused field in the form's order takes the focus (states and categories
        // are groups of buttons: their message is read from the group), its message read with it
        const first = FIELDS.find((field) => refused[field] && !GROUPS.has(field));
        whenIdle(() =>
          formRef.current?.querySelector<HTMLInputElement>(`input[name="${first}"]`)?.focus(),
        );
        toast({
          variant: 'destructive',
          title: 'Save failed',
          description: errorMessage(error, 'Failed to save preferences'),
        });
      },
    });
  }

  return (
    <form ref={formRef} onSubmit={handleSubmit} className="space-y-6" aria-busy={busy}>
      <Section
        title="States"
        description="Choose the states you want leads from. None selected means every state."
      >
        <fieldset
          disabled={busy}
          aria-invalid={errors.states ? true : undefined}
          aria-describedby={errors.states ? 'states-error' : undefined}
        >
          <legend className="sr-only">States</legend>
          <div className="grid grid-cols-5 gap-2 sm:grid-cols-8 lg:grid-cols-10">
            {STATE_CODES.map((code) => {
              const pressed = form.states.includes(code);
              return (
                <Button
                  key={code}
                  type="button"
                  size="sm"
                  variant={pressed ? 'default' : 'outline'}
                  aria-pressed={pressed}
                  title={US_STATES[code]}
                  onClick={() => set('states', toggle(form.states, code))}
                  className={cn('font-mono', pressed && 'shadow-sm')}
                >
                  {code}
                </Button>
              );
            })}
          </div>
          <p className="mt-3 text-muted-foreground text-sm" data-testid="selected-states">
            {form.states.length === 0
              ? 'All states'
              : `${form.states.length} selected: ${[...form.states].sort().join(', ')}`}
          </p>
          <FieldError id="states-error" message={errors.states} />
        </fieldset>
      </Section>

      <Section
        title="Cities"
        description="Separate cities with commas. Leave empty for all cities."
      >
        <FormField
          label="Cities"
          name="cities"
          placeholder="e.g. Miami, Dallas, Phoenix"
          disabled={busy}
          value={form.cities}
          error={errors.cities}
          onChange={(event) => set('cities', event.target.value)}
        />
      </Section>

      <Section title="Age Range" description="Leave a field empty for no limit on that side.">
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField
            label="Minimum Age"
            name="ageMin"
            type="number"
            inputMode="numeric"
            min={MIN_LEAD_AGE}
            max={MAX_LEAD_AGE}
            placeholder="18"
            disabled={busy}
            value={form.ageMin}
            error={errors.ageMin}
            onChange={(event) => set('ageMin', event.target.value)}
          />
          <FormField
            label="Maximum Age"
            name="ageMax"
            type="number"
            inputMode="numeric"
            min={MIN_LEAD_AGE}
            max={MAX_LEAD_AGE}
            placeholder="100"
            disabled={busy}
            value={form.ageMax}
            error={errors.ageMax}
            onChange={(event) => set('ageMax', event.target.value)}
          />
        </div>
      </Section>

      <Section
        title="Categories"
        description="Leads always match your package's category; narrow them further here."
      >
        <fieldset
          disabled={busy}
          className="flex flex-wrap gap-6"
          aria-invalid={errors.categories ? true : undefined}
          aria-describedby={errors.categories ? 'categories-error' : undefined}
        >
          <legend className="sr-only">Categories</legend>
          {LEAD_CATEGORIES.map((category) => {
            const id = `category-${category}`;
            return (
              <div key={category} className="flex items-center gap-2">
                <Checkbox
                  id={id}
                  checked={form.categories.includes(category)}
                  onCheckedChange={() => set('categories', toggle(form.categories, category))}
                />
                <Label htmlFor={id}>{categoryLabel(category)}</Label>
              </div>
            );
          })}
        </fieldset>
        <FieldError id="categories-error" message={errors.categories} />
      </Section>

      <PreferencesPreview prefs={toPreferences(form)} />

      <Button type="submit" disabled={busy}>
        {busy && <Spinner />}
        Save Preferences
      </Button>
    </form>
  );
}

/** A group's message from the server, under the group (the fields have theirs in FormField). */
function FieldError({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <p id={id} className="mt-2 text-destructive text-xs">
      {message}
    </p>
  );
}
