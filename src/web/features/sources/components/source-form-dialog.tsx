import type { Source } from '@shared/contracts/sources';
import { CONSENT_VERIFICATIONS } from '@shared/domain';
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
import { FormField } from '@web/components/ui/form-field';
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
import { useWhenIdle } from '@web/hooks/use-when-idle';
import { ApiError, errorMessage, formFieldErrors } from '@web/lib/api-client';
import { useId } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useSaveSource } from '../api';
import {
  CONSENT_VERIFICATION_LABELS,
  NEW_SOURCE_DEFAULTS,
  sourceFormResolver,
  sourceFormValuesOf,
} from '../source-form';

/** Create Source (source null) or Edit Source. */
export function SourceFormDialog({
  open,
  source,
  onClose,
}: {
  open: boolean;
  source: Source | null;
  onClose: () => void;
}) {
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) onClose();
      }}
    >
      <DialogContent className="sm:max-w-lg" data-testid="source-dialog">
        {open && <SourceForm key={source?.id ?? 'new'} source={source} onDone={onClose} />}
      </DialogContent>
    </Dialog>
  );
}

function SourceForm({ source, onDone }: { source: Source | null; onDone: () => void }) {
  const editing = source !== null;
  const {
    control,
    formState: { errors },
    handleSubmit,
    register,
    setError,
    setFocus,
  } = useForm({
    resolver: sourceFormResolver,
    defaultValues: source ? sourceFormValuesOf(source) : NEW_SOURCE_DEFAULTS,
  });
  const save = useSaveSource();
  const busy = save.isPending;
  const whenIdle = useWhenIdle(busy);
  const activeId = useId();
  const consentId = useId();

  const submit = handleSubmit((body) =>
    save.mutate(
      { id: source?.id ?? null, body },
      {
        onSuccess: () => {
          toast({ title: editing ? 'Source updated' : 'Source created' });
          onDone();
        },
        onError: (error) => {
          const refused = formFieldErrors(error, ['name', 'cost'] as const, {
            costPerLeadCents: 'cost',
          });
          // a 409 is the name taken, or TrustedForm not configured (which names no field)
          if (
            error instanceof ApiError &&
            error.status === 409 &&
            !/TrustedForm/.test(error.message)
          ) {
            refused.name = errorMessage(error, 'This name is taken');
          }
          const fields = (['name', 'cost'] as const).filter((f) => refused[f]);
          for (const field of fields) setError(field, { type: 'server', message: refused[field] });
          const [first] = fields;
          if (first) whenIdle(() => setFocus(first));
          toast({
            variant: 'destructive',
            title: 'Save failed',
            description: errorMessage(error, 'Failed to save the source'),
          });
        },
      },
    ),
  );

  return (
    <form onSubmit={submit} noValidate className="grid gap-4">
      <DialogHeader>
        <DialogTitle>{editing ? 'Edit Source' : 'Create Source'}</DialogTitle>
        <DialogDescription>
          A source is where leads come from: a vendor or a landing page.
        </DialogDescription>
      </DialogHeader>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField
          label="Name"
          error={errors.name?.message}
          disabled={busy}
          placeholder="Acme Leads"
          {...register('name')}
        />
        <FormField
          label="Cost per Lead ($)"
          error={errors.cost?.message}
          type="number"
          inputMode="decimal"
          min={0}
          step={0.01}
          disabled={busy}
          placeholder="12.50"
          {...register('cost')}
        />
      </div>
      <div className="grid gap-2">
        <Label htmlFor={consentId}>Consent verification</Label>
        <Controller
          control={control}
          name="consentVerification"
          render={({ field }) => (
            <Select value={field.value} onValueChange={field.onChange} disabled={busy}>
              <SelectTrigger id={consentId} className="w-full" onBlur={field.onBlur}>
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {CONSENT_VERIFICATIONS.map((choice) => (
                  <SelectItem key={choice} value={choice}>
                    {CONSENT_VERIFICATION_LABELS[choice]}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          )}
        />
      </div>
      <Controller
        control={control}
        name="active"
        render={({ field }) => (
          <div className="flex items-center gap-2">
            <Checkbox
              id={activeId}
              ref={field.ref}
              checked={field.value}
              disabled={busy}
              onCheckedChange={(v) => field.onChange(v === true)}
              onBlur={field.onBlur}
            />
            <Label htmlFor={activeId} className="font-normal">
              Active (its keys may send leads, imports may name it)
            </Label>
          </div>
        )}
      />
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onDone} disabled={busy}>
          Cancel
        </Button>
        <Button type="submit" disabled={busy}>
          {busy && <Spinner />}
          {editing ? 'Save Changes' : 'Create Source'}
        </Button>
      </DialogFooter>
    </form>
  );
}
