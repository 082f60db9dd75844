import { type MyAgency, RECLAIM_MINUTES_MAX, RECLAIM_MINUTES_MIN } from '@shared/contracts/agency';
import { useQueryClient } from '@tanstack/react-query';
import { Button } from '@web/components/ui/button';
import { Checkbox } from '@web/components/ui/checkbox';
import { FormField } from '@web/components/ui/form-field';
import { Label } from '@web/components/ui/label';
import { Spinner } from '@web/components/ui/spinner';
import { toast } from '@web/components/ui/use-toast';
import { meQuery } from '@web/features/auth/api';
import { errorMessage, formFieldErrors } from '@web/lib/api-client';
import { type FormEvent, useState } from 'react';
import { numberText, optionalNumber } from '../agency-display';
import { useUpdateAgency } from '../api';

const FIELDS = ['name', 'dailyCap', 'reclaimAfterMinutes'] as const;
type Field = (typeof FIELDS)[number];

/**
 * The owner's settings: the name, the agency's leads a day across all members (empty: no cap)
 * and the minutes a member has to work a lead before it is taken back (empty: off). The server
 * checks the numbers; its messages show under their fields. The owner may require two-factor
 * authentication of every member (themself included): a member without it can then only set it up.
 */
export function AgencySettingsForm({ mine }: { mine: MyAgency }) {
  const update = useUpdateAgency();
  const queryClient = useQueryClient();
  const [values, setValues] = useState<Record<Field, string>>({
    name: mine.agency.name,
    dailyCap: numberText(mine.agency.dailyCap),
    reclaimAfterMinutes: numberText(mine.agency.reclaimAfterMinutes),
  });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [requireTwoFactor, setRequireTwoFactor] = useState(mine.agency.requireTwoFactor);

  const bind = (field: Field) => ({
    value: values[field],
    error: errors[field],
    disabled: update.isPending,
    onChange: (event: { target: { value: string } }) => {
      setValues((current) => ({ ...current, [field]: event.target.value }));
      setErrors(({ [field]: _changed, ...rest }) => rest);
    },
  });

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    update.mutate(
      {
        name: values.name,
        dailyCap: optionalNumber(values.dailyCap),
        reclaimAfterMinutes: optionalNumber(values.reclaimAfterMinutes),
        requireTwoFactor,
      },
      {
        onSuccess: () => {
          setErrors({});
          toast({ title: 'Settings saved' });
          // requiring two factors may require them of the owner too: the guard asks again
          void queryClient.invalidateQueries({ queryKey: meQuery.queryKey });
        },
        onError: (error) => {
          setErrors(formFieldErrors(error, FIELDS));
          toast({
            variant: 'destructive',
            title: 'Save failed',
            description: errorMessage(error, 'Failed to save the settings'),
          });
        },
      },
    );
  }

  return (
    <form
      className="grid max-w-xl gap-4"
      onSubmit={handleSubmit}
      aria-busy={update.isPending}
      data-testid="agency-settings"
    >
      <FormField
        id="settings-name"
        label="Agency name"
        required
        maxLength={100}
        {...bind('name')}
      />
      <FormField
        id="settings-daily-cap"
        label="Daily cap"
        type="number"
        step="any"
        inputMode="numeric"
        placeholder="No cap"
        hint="Leads a day across all members. Empty: no cap."
        {...bind('dailyCap')}
      />
      <FormField
        id="settings-reclaim"
        label="Reclaim after (minutes)"
        type="number"
        step="any"
        inputMode="numeric"
        placeholder="Off"
        hint={`A lead nobody works within ${RECLAIM_MINUTES_MIN} to ${RECLAIM_MINUTES_MAX} minutes (inside its calling window) goes to another member. Empty: off.`}
        {...bind('reclaimAfterMinutes')}
      />
      <div className="flex items-start gap-2">
        <Checkbox
          id="settings-require-2fa"
          checked={requireTwoFactor}
          disabled={update.isPending}
          onCheckedChange={(v) => setRequireTwoFactor(v === true)}
          aria-describedby="settings-require-2fa-hint"
        />
        <div className="grid gap-1">
          <Label htmlFor="settings-require-2fa" className="font-normal">
            Require two-factor authentication for members
          </Label>
          <p id="settings-require-2fa-hint" className="text-muted-foreground text-xs">
            Members without it (you included) can only set it up on their Account screen.
          </p>
        </div>
      </div>
      <Button type="submit" className="w-full sm:w-fit" disabled={update.isPending}>
        {update.isPending && <Spinner />}
        Save settings
      </Button>
    </form>
  );
}
