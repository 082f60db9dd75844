import type { ComponentProps, ReactNode } from 'react';
import { useId } from 'react';
import { Input } from './input';
import { Label } from './label';

/**
 * A labelled input. An error, when given, shows under it in place of the hint, marks the input
 * invalid and becomes its description; otherwise the hint, when given, is its description.
 */
export function FormField({
  label,
  hint,
  error,
  id,
  ...inputProps
}: ComponentProps<typeof Input> & { label: string; hint?: ReactNode; error?: string }) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  const errorId = `${inputId}-error`;
  const hintId = `${inputId}-hint`;
  return (
    <div className="grid content-start gap-2">
      <Label htmlFor={inputId}>{label}</Label>
      <Input
        id={inputId}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : hint ? hintId : undefined}
        {...inputProps}
      />
      {error ? (
        <p id={errorId} className="text-destructive text-xs">
          {error}
        </p>
      ) : (
        hint && (
          <p id={hintId} className="text-muted-foreground text-xs">
            {hint}
          </p>
        )
      )}
    </div>
  );
}
