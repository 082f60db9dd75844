import type { Package } from '@shared/contracts/packages';
import { LEAD_CATEGORIES, type LeadCategory } from '@shared/domain';
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
import { Input } from '@web/components/ui/input';
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
import { errorMessage } from '@web/lib/api-client';
import { type ComponentProps, type FormEvent, useId, useState } from 'react';
import { useSavePackage } from '../admin-api';
import {
  formValuesOf,
  NEW_PACKAGE_DEFAULTS,
  type PackageFormErrors,
  type PackageFormValues,
  slugify,
  toPackageBody,
  validatePackageForm,
} from '../package-form';

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
  const [values, setValues] = useState<PackageFormValues>(() =>
    pkg ? formValuesOf(pkg) : NEW_PACKAGE_DEFAULTS,
  );
  const [slugTouched, setSlugTouched] = useState(editing);
  const [errors, setErrors] = useState<PackageFormErrors>({});
  const save = useSavePackage();
  const busy = save.isPending;

  const set = <K extends keyof PackageFormValues>(key: K, value: PackageFormValues[K]) =>
    setValues((v) => ({ ...v, [key]: value }));

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found = validatePackageForm(values);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    save.mutate(
      { id: pkg?.id ?? null, body: toPackageBody(values) },
      {
        onSuccess: () => {
          toast({ title: editing ? 'Package updated' : 'Package created' });
          onDone();
        },
        onError: (error) => {
          toast({
            variant: 'destructive',
            title: 'Save failed',
            description: errorMessage(error, 'Failed to save package'),
          });
        },
      },
    );
  }

  return (
    <form onSubmit={handleSubmit} noValidate className="grid gap-4">
      <DialogHeader>
        <DialogTitle>{editing ? 'Edit Package' : 'Create Package'}</DialogTitle>
        <DialogDescription>
          {editing
            ? 'Change the package. Its slug stays as it is.'
            : 'A package is what agents subscribe to.'}
        </DialogDescription>
      </DialogHeader>

      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          label="Name"
          error={errors.name}
          value={values.name}
          disabled={busy}
          placeholder="Medicare Pro"
          onChange={(e) => {
            const name = e.target.value;
            setValues((v) => ({ ...v, name, slug: slugTouched ? v.slug : slugify(name) }));
          }}
        />
        <Field
          label="Slug"
          error={errors.slug}
          value={values.slug}
          disabled={busy || editing}
          placeholder="medicare-pro"
          hint={editing ? 'The slug cannot be changed once the package exists' : undefined}
          onChange={(e) => {
            setSlugTouched(true);
            set('slug', e.target.value);
          }}
        />
        <div className="grid content-start gap-2">
          <Label htmlFor="package-category">Category</Label>
          <Select
            value={values.category}
            onValueChange={(value) => set('category', value as LeadCategory)}
            disabled={busy}
          >
            <SelectTrigger id="package-category" className="w-full">
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
        </div>
        <Field
          label="Price ($/month)"
          error={errors.price}
          type="number"
          inputMode="decimal"
          min={0}
          step={0.01}
          value={values.price}
          disabled={busy}
          placeholder="299.99"
          onChange={(e) => set('price', e.target.value)}
        />
        <Field
          label="Leads per Day"
          error={errors.leadsPerDay}
          type="number"
          inputMode="numeric"
          min={1}
          step={1}
          value={values.leadsPerDay}
          disabled={busy}
          placeholder="10"
          onChange={(e) => set('leadsPerDay', e.target.value)}
        />
        <Field
          label="Commission (%)"
          error={errors.commissionPct}
          type="number"
          inputMode="numeric"
          min={0}
          max={100}
          step={1}
          value={values.commissionPct}
          disabled={busy}
          placeholder="15"
          onChange={(e) => set('commissionPct', e.target.value)}
        />
      </div>

      <fieldset className="grid gap-3 sm:grid-cols-2" disabled={busy}>
        <legend className="mb-2 font-medium text-sm">Options</legend>
        <Toggle
          label="Enrollment Only"
          checked={values.enrollmentOnly}
          onChange={(v) => set('enrollmentOnly', v)}
        />
        <Toggle label="Active" checked={values.active} onChange={(v) => set('active', v)} />
        <Toggle label="CRM Integration" checked={values.crm} onChange={(v) => set('crm', v)} />
        <Toggle
          label="Call Recording"
          checked={values.callRecording}
          onChange={(v) => set('callRecording', v)}
        />
        <Toggle
          label="Follow-up Messages"
          checked={values.followUpMessage}
          onChange={(v) => set('followUpMessage', v)}
        />
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

function Field({
  label,
  error,
  hint,
  ...inputProps
}: ComponentProps<typeof Input> & { label: string; error?: string; hint?: string }) {
  const id = useId();
  const describedBy = error ? `${id}-error` : hint ? `${id}-hint` : undefined;
  return (
    <div className="grid content-start gap-2">
      <Label htmlFor={id}>{label}</Label>
      <Input
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        {...inputProps}
      />
      {error ? (
        <p id={`${id}-error`} className="text-destructive text-xs">
          {error}
        </p>
      ) : (
        hint && (
          <p id={`${id}-hint`} className="text-muted-foreground text-xs">
            {hint}
          </p>
        )
      )}
    </div>
  );
}

function Toggle({
  label,
  checked,
  onChange,
}: {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  const id = useId();
  return (
    <div className="flex items-center gap-2">
      <Checkbox id={id} checked={checked} onCheckedChange={(v) => onChange(v === true)} />
      <Label htmlFor={id} className="font-normal">
        {label}
      </Label>
    </div>
  );
}
