import type { Package, PackageBody } from '@shared/contracts/packages';
import { LEAD_CATEGORIES, PACKAGE_PRICINGS, type PackagePricing } from '@shared/domain';
import { categoryLabel } from '@shared/format';
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
import { errorMessage, formFieldErrors } from '@web/lib/api-client';
import { useId, useState } from 'react';
import {
  type Control,
  Controller,
  type FieldPathByValue,
  useController,
  useForm,
} from 'react-hook-form';
import { useSavePackage } from '../admin-api';
import {
  formValuesOf,
  NEW_PACKAGE_DEFAULTS,
  type PackageFormValues,
  packageFormResolver,
  slugify,
} from '../package-form';

/** The fields the server may refuse one by one, as the form names them. */
const SERVER_FIELDS = ['name', 'slug', 'price', 'perLead', 'leadsPerDay', 'commissionPct'] as const;

/** The two pricings, in the admin's words. */
const PRICING_LABELS: Record<PackagePricing, string> = {
  SUBSCRIPTION: 'Monthly subscription',
  PER_LEAD: 'Pay per lead',
};

/** Create Package (package null) or Edit Package: the slug is fixed once the package exists. */
export function PackageFormDialog({
  open,
  pkg,
  onClose,
}: {
  open: boolean;
  pkg: Package | null;
  onClose: () => void;
}) {
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) onClose();
      }}
    >
      <DialogContent className="sm:max-w-xl" data-testid="package-dialog">
        {open && <PackageForm key={pkg?.id ?? 'new'} pkg={pkg} onDone={onClose} />}
      </DialogContent>
    </Dialog>
  );
}

function PackageForm({ pkg, onDone }: { pkg: Package | null; onDone: () => void }) {
  const editing = pkg !== null;
  const {
    control,
    formState: { errors },
    handleSubmit,
    register,
    setError,
    setFocus,
    setValue,
    watch,
  } = useForm({
    resolver: packageFormResolver,
    defaultValues: pkg ? formValuesOf(pkg) : NEW_PACKAGE_DEFAULTS,
  });
  // while creating, the slug follows the name until someone edits the slug itself
  const [slugTouched, setSlugTouched] = useState(editing);
  const perLead = watch('pricing') === 'PER_LEAD';
  const save = useSavePackage();
  const busy = save.isPending;
  const whenIdle = useWhenIdle(busy);

  const submit = handleSubmit((body) =>
    save.mutate(
      { id: pkg?.id ?? null, body },
      {
        onSuccess: () => {
          toast({ title: editing ? 'Package updated' : 'Package created' });
          onDone();
        },
        onError: (error) => {
          // what the server refused goes under its field (the body's priceMonthlyCents and
          // perLeadCents are the form's price and perLead), the first of them focused
          const refused = formFieldErrors(error, SERVER_FIELDS, {
            priceMonthlyCents: 'price',
            perLeadCents: 'perLead',
          });
          const fields = SERVER_FIELDS.filter((field) => refused[field]);
          for (const field of fields) {
            setError(field, { type: 'server', message: refused[field] });
          }
          const [first] = fields;
          if (first) whenIdle(() => setFocus(first));
          toast({
            variant: 'destructive',
            title: 'Save failed',
            description: errorMessage(error, 'Failed to save package'),
          });
        },
      },
    ),
  );

  return (
    <form onSubmit={submit} noValidate className="grid gap-4">
      <DialogHeader>
        <DialogTitle>{editing ? 'Edit Package' : 'Create Package'}</DialogTitle>
        <DialogDescription>
          {editing
            ? 'Change the package. Its slug stays as it is.'
            : 'A package is what agents subscribe to.'}
        </DialogDescription>
      </DialogHeader>

      <div className="grid gap-4 sm:grid-cols-2">
        <FormField
          label="Name"
          error={errors.name?.message}
          disabled={busy}
          placeholder="Medicare Pro"
          {...register('name', {
            onChange: (event) => {
              if (!slugTouched) setValue('slug', slugify(event.target.value));
            },
          })}
        />
        <FormField
          label="Slug"
          error={errors.slug?.message}
          disabled={busy || editing}
          placeholder="medicare-pro"
          hint={editing ? 'The slug cannot be changed once the package exists' : undefined}
          {...register('slug', { onChange: () => setSlugTouched(true) })}
        />
        <div className="grid content-start gap-2">
          <Label htmlFor="package-category">Category</Label>
          <Controller
            control={control}
            name="category"
            render={({ field }) => (
              <Select value={field.value} onValueChange={field.onChange} disabled={busy}>
                <SelectTrigger id="package-category" className="w-full" onBlur={field.onBlur}>
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  {LEAD_CATEGORIES.map((category) => (
                    <SelectItem key={category} value={category}>
                      {categoryLabel(category)}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            )}
          />
        </div>
        <div className="grid content-start gap-2">
          <Label htmlFor="package-pricing">Pricing</Label>
          <Controller
            control={control}
            name="pricing"
            render={({ field }) => (
              <Select value={field.value} onValueChange={field.onChange} disabled={busy}>
                <SelectTrigger id="package-pricing" className="w-full" onBlur={field.onBlur}>
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  {PACKAGE_PRICINGS.map((pricing) => (
                    <SelectItem key={pricing} value={pricing}>
                      {PRICING_LABELS[pricing]}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            )}
          />
        </div>
        {perLead ? (
          <FormField
            key="perLead"
            label="Price per lead ($)"
            error={errors.perLead?.message}
            type="number"
            inputMode="decimal"
            min={0.01}
            step={0.01}
            disabled={busy}
            placeholder="25.00"
            hint="Paid from the agent's wallet for each lead; the price list may set others"
            {...register('perLead')}
          />
        ) : (
          <FormField
            key="price"
            label="Price ($/month)"
            error={errors.price?.message}
            type="number"
            inputMode="decimal"
            min={0}
            step={0.01}
            disabled={busy}
            placeholder="299.99"
            {...register('price')}
          />
        )}
        <FormField
          label="Leads per Day"
          error={errors.leadsPerDay?.message}
          type="number"
          inputMode="numeric"
          min={1}
          step={1}
          disabled={busy}
          placeholder="10"
          hint={perLead ? 'The most leads an agent receives a day' : undefined}
          {...register('leadsPerDay')}
        />
        <FormField
          label="Commission (%)"
          error={errors.commissionPct?.message}
          type="number"
          inputMode="numeric"
          min={0}
          max={100}
          step={1}
          disabled={busy}
          placeholder="15"
          {...register('commissionPct')}
        />
      </div>

      <fieldset className="grid gap-3 sm:grid-cols-2" disabled={busy}>
        <legend className="mb-2 font-medium text-sm">Options</legend>
        <Toggle control={control} name="enrollmentOnly" label="Enrollment Only" />
        <Toggle control={control} name="active" label="Active" />
        <Toggle control={control} name="services.crm" label="CRM Integration" />
        <Toggle control={control} name="services.callRecording" label="Call Recording" />
        <Toggle control={control} name="services.followUpMessage" label="Follow-up Messages" />
      </fieldset>

      <DialogFooter>
        <Button type="button" variant="outline" onClick={onDone} disabled={busy}>
          Cancel
        </Button>
        <Button type="submit" disabled={busy}>
          {busy && <Spinner />}
          {editing ? 'Save Changes' : 'Create Package'}
        </Button>
      </DialogFooter>
    </form>
  );
}

function Toggle({
  control,
  name,
  label,
}: {
  control: Control<PackageFormValues, unknown, PackageBody>;
  name: FieldPathByValue<PackageFormValues, boolean>;
  label: string;
}) {
  const id = useId();
  const { field } = useController({ control, name });
  return (
    <div className="flex items-center gap-2">
      <Checkbox
        id={id}
        ref={field.ref}
        checked={field.value}
        onCheckedChange={(v) => field.onChange(v === true)}
        onBlur={field.onBlur}
      />
      <Label htmlFor={id} className="font-normal">
        {label}
      </Label>
    </div>
  );
}
