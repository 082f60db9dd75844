import type { ComponentProps, ReactNode } from 'react';
import { useId } from 'react';
import { Input } from './input';
import { Label } from './label';

/** A labelled input; the hint, when given, is tied to the input as its description. */
export function FormField({
  label,
  hint,
  id,
  ...inputProps
}: ComponentProps<typeof Input> & { label: string; hint?: ReactNode }) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  const hintId = hint ? `${inputId}-hint` : undefined;
  return (
    <div className="grid gap-2">
      <Label htmlFor={inputId}>{label}</Label>
      <Input id={inputId} aria-describedby={hintId} {...inputProps} />
      {hint && (
        <p id={hintId} className="text-muted-foreground text-xs">
          {hint}
        </p>
      )}
    </div>
  );
}
