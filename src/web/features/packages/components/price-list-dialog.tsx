import type { Package } from '@shared/contracts/packages';
import { STATE_CODES, type StateCode, US_STATES } from '@shared/domain';
import { formatLeadPrice } from '@shared/format';
import { useQuery } from '@tanstack/react-query';
import { Button } from '@web/components/ui/button';
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
import { LoadError } from '@web/components/ui/load-error';
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '@web/components/ui/select';
import { Spinner } from '@web/components/ui/spinner';
import { toast } from '@web/components/ui/use-toast';
import { sourcesQuery } from '@web/features/sources/api';
import { errorMessage, fieldIssues } from '@web/lib/api-client';
import { cn } from '@web/lib/utils';
import { ArrowDown, ArrowUp, Plus, Trash2 } from 'lucide-react';
import { type ComponentProps, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { priceListQuery, useSavePriceList } from '../admin-api';
import {
  emptyRow,
  moveRow,
  type PriceRuleErrors,
  type PriceRuleField,
  type PriceRuleRow,
  priceListBody,
  rowsOf,
  serverRuleErrors,
} from '../price-list-form';

/** A select's value for "any" (a Radix select item cannot have the empty value). */
const ANY = 'any';

/**
 * A pay-per-lead package's price list: rules in order, each naming a state, an age range and a
 * source (any left blank matches every lead); the first rule that matches a lead sets its price,
 * and a lead no rule matches costs the package's price per lead.
 */
export function PriceListDialog({ pkg, onClose }: { pkg: Package | null; onClose: () => void }) {
  return (
    <Dialog
      open={pkg !== null}
      onOpenChange={(next) => {
        if (!next) onClose();
      }}
    >
      <DialogContent className="sm:max-w-3xl" data-testid="price-list-dialog">
        {pkg && <PriceListEditor key={pkg.id} pkg={pkg} onDone={onClose} />}
      </DialogContent>
    </Dialog>
  );
}

function PriceListEditor({ pkg, onDone }: { pkg: Package; onDone: () => void }) {
  const saved = useQuery(priceListQuery(pkg.id));
  const sources = useQuery(sourcesQuery);
  const [rows, setRows] = useState<PriceRuleRow[] | null>(null);
  const [errors, setErrors] = useState<PriceRuleErrors>({});
  const save = useSavePriceList();
  const busy = save.isPending;
  const formRef = useRef<HTMLFormElement>(null);
  // set when a save was refused: the first field marked takes the focus once it shows
  const [focusRefused, setFocusRefused] = useState(0);
  useEffect(() => {
    if (focusRefused === 0 || busy) return;
    formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [focusRefused, busy]);

  // the saved list becomes the rows once, when it arrives
  if (rows === null && saved.data) setRows(rowsOf(saved.data.rules));

  const header = (
    <DialogHeader>
      <DialogTitle>Price list: {pkg.name}</DialogTitle>
      <DialogDescription>
        The first rule that matches a lead sets its price; a lead no rule matches costs{' '}
        {formatLeadPrice(pkg.perLeadCents ?? 0)}, the package's price per lead. A field left as
        "Any" or blank matches every lead.
      </DialogDescription>
    </DialogHeader>
  );

  if (saved.isError) {
    return (
      <>
        {header}
        <LoadError
          message={errorMessage(saved.error, 'The price list could not be loaded.')}
          onRetry={() => saved.refetch()}
          retrying={saved.isFetching}
        />
      </>
    );
  }
  if (rows === null) {
    return (
      <>
        {header}
        <div className="flex justify-center py-8">
          <Spinner />
        </div>
      </>
    );
  }

  const change = (index: number, fields: Partial<PriceRuleRow>) => {
    setRows(rows.map((row, i) => (i === index ? { ...row, ...fields } : row)));
    const { [index]: _changed, ...rest } = errors;
    setErrors(rest);
  };
  const reorder = (next: PriceRuleRow[]) => {
    setRows(next);
    // messages belong to a row's place: checked again on save
    setErrors({});
  };

  const submit = () => {
    const result = priceListBody(rows);
    if ('errors' in result) {
      setErrors(result.errors);
      setFocusRefused((n) => n + 1);
      return;
    }
    setErrors({});
    save.mutate(
      { packageId: pkg.id, body: result.body },
      {
        onSuccess: () => {
          toast({ title: 'Price list saved' });
          onDone();
        },
        onError: (error) => {
          setErrors(serverRuleErrors(fieldIssues(error)));
          setFocusRefused((n) => n + 1);
          toast({
            variant: 'destructive',
            title: 'Save failed',
            description: errorMessage(error, 'Failed to save the price list'),
          });
        },
      },
    );
  };

  return (
    <form
      ref={formRef}
      noValidate
      className="grid gap-4"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      {header}
      {rows.length === 0 ? (
        <p className="rounded-md border border-dashed p-4 text-center text-muted-foreground text-sm">
          No rules: every lead costs {formatLeadPrice(pkg.perLeadCents ?? 0)}.
        </p>
      ) : (
        <ol className="grid gap-3" aria-label="Rules, first match wins">
          {rows.map((row, index) => (
            <RuleRow
              key={row.key}
              row={row}
              index={index}
              last={index === rows.length - 1}
              errors={errors[index] ?? {}}
              sources={sources.data ?? []}
              disabled={busy}
              onChange={(fields) => change(index, fields)}
              onMove={(by) => reorder(moveRow(rows, index, by))}
              onRemove={() => reorder(rows.filter((_, i) => i !== index))}
            />
          ))}
        </ol>
      )}
      <div>
        <Button
          type="button"
          variant="outline"
          disabled={busy}
          onClick={() => setRows([...rows, emptyRow()])}
        >
          <Plus aria-hidden="true" />
          Add rule
        </Button>
      </div>
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onDone} disabled={busy}>
          Cancel
        </Button>
        <Button type="submit" disabled={busy}>
          {busy && <Spinner />}
          Save Price List
        </Button>
      </DialogFooter>
    </form>
  );
}

function RuleRow({
  row,
  index,
  last,
  errors,
  sources,
  disabled,
  onChange,
  onMove,
  onRemove,
}: {
  row: PriceRuleRow;
  index: number;
  last: boolean;
  errors: Partial<Record<PriceRuleField, string>>;
  sources: { id: number; name: string }[];
  disabled: boolean;
  onChange: (fields: Partial<PriceRuleRow>) => void;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
}) {
  const id = useId();
  const n = index + 1;
  // a source no longer listed (deleted) still shows as its id, so the rule is not silently changed
  const sourceListed = row.sourceId === '' || sources.some((s) => String(s.id) === row.sourceId);
  return (
    <li className="rounded-md border p-3" data-testid="price-rule">
      <div className="mb-2 flex items-center justify-between gap-2">
        <span className="font-medium text-sm">Rule {n}</span>
        <div className="flex gap-1">
          <Button
            type="button"
            size="icon"
            variant="ghost"
            className="size-8"
            disabled={disabled || index === 0}
            onClick={() => onMove(-1)}
            aria-label={`Move rule ${n} up`}
          >
            <ArrowUp aria-hidden="true" />
          </Button>
          <Button
            type="button"
            size="icon"
            variant="ghost"
            className="size-8"
            disabled={disabled || last}
            onClick={() => onMove(1)}
            aria-label={`Move rule ${n} down`}
          >
            <ArrowDown aria-hidden="true" />
          </Button>
          <Button
            type="button"
            size="icon"
            variant="ghost"
            className="size-8"
            disabled={disabled}
            onClick={onRemove}
            aria-label={`Remove rule ${n}`}
          >
            <Trash2 aria-hidden="true" />
          </Button>
        </div>
      </div>
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-[minmax(0,1.4fr)_5rem_5rem_minmax(0,1.4fr)_6.5rem]">
        <RuleField
          label="State"
          id={`${id}-state`}
          error={errors.state}
          className="col-span-2 sm:col-span-1"
        >
          <AnySelect
            id={`${id}-state`}
            value={row.state}
            anyLabel="Any state"
            options={STATE_CODES.map((code) => ({
              value: code,
              label: `${US_STATES[code]} (${code})`,
            }))}
            invalid={!!errors.state}
            disabled={disabled}
            onChange={(value) => onChange({ state: value as StateCode | '' })}
          />
        </RuleField>
        <RuleInput
          label="Age from"
          id={`${id}-age-min`}
          error={errors.ageMin}
          value={row.ageMin}
          placeholder="Any"
          inputMode="numeric"
          disabled={disabled}
          onChange={(event) => onChange({ ageMin: event.target.value })}
        />
        <RuleInput
          label="Age to"
          id={`${id}-age-max`}
          error={errors.ageMax}
          value={row.ageMax}
          placeholder="Any"
          inputMode="numeric"
          disabled={disabled}
          onChange={(event) => onChange({ ageMax: event.target.value })}
        />
        <RuleField
          label="Source"
          id={`${id}-source`}
          error={errors.sourceId}
          className="col-span-2 sm:col-span-1"
        >
          <AnySelect
            id={`${id}-source`}
            value={row.sourceId}
            anyLabel="Any source"
            options={[
              ...sources.map((source) => ({ value: String(source.id), label: source.name })),
              ...(sourceListed ? [] : [{ value: row.sourceId, label: `Source #${row.sourceId}` }]),
            ]}
            invalid={!!errors.sourceId}
            disabled={disabled}
            onChange={(value) => onChange({ sourceId: value })}
          />
        </RuleField>
        <RuleInput
          label="Price ($)"
          id={`${id}-price`}
          error={errors.price}
          value={row.price}
          placeholder="25.00"
          inputMode="decimal"
          disabled={disabled}
          onChange={(event) => onChange({ price: event.target.value })}
        />
      </div>
    </li>
  );
}

/** A select whose first item is "any" (the empty value: the rule does not ask that field). */
function AnySelect({
  id,
  value,
  anyLabel,
  options,
  invalid,
  disabled,
  onChange,
}: {
  id: string;
  value: string;
  anyLabel: string;
  options: { value: string; label: string }[];
  invalid: boolean;
  disabled: boolean;
  onChange: (value: string) => void;
}) {
  return (
    <Select
      value={value === '' ? ANY : value}
      onValueChange={(next) => onChange(next === ANY ? '' : next)}
      disabled={disabled}
    >
      <SelectTrigger id={id} className="w-full" aria-invalid={invalid || undefined}>
        <SelectValue />
      </SelectTrigger>
      <SelectContent>
        <SelectItem value={ANY}>{anyLabel}</SelectItem>
        {options.map((option) => (
          <SelectItem key={option.value} value={option.value}>
            {option.label}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}

/** A rule's field: its label above, its message under it. */
function RuleField({
  label,
  id,
  error,
  className,
  children,
}: {
  label: string;
  id: string;
  error: string | undefined;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className={cn('grid content-start gap-1.5', className)}>
      <Label htmlFor={id} className="text-xs">
        {label}
      </Label>
      {children}
      {error && (
        <p id={`${id}-error`} className="text-destructive text-xs">
          {error}
        </p>
      )}
    </div>
  );
}

function RuleInput({
  label,
  id,
  error,
  ...inputProps
}: ComponentProps<typeof Input> & { label: string; id: string; error: string | undefined }) {
  return (
    <RuleField label={label} id={id} error={error}>
      <Input
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        {...inputProps}
      />
    </RuleField>
  );
}
