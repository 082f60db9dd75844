import { cn } from '@web/lib/utils';
import { LoaderCircle } from 'lucide-react';
import type { ComponentProps } from 'react';

/** A spinning icon; pass `label` when it is the only sign of loading on screen. */
export function Spinner({
  className,
  label,
  ...props
}: ComponentProps<typeof LoaderCircle> & { label?: string }) {
  return (
    <>
      <LoaderCircle
        data-testid="spinner"
        aria-hidden="true"
        className={cn('size-4 animate-spin', className)}
        {...props}
      />
      {label && <span className="sr-only">{label}</span>}
    </>
  );
}
