import { cn } from '@web/lib/utils';
import { TrendingUp } from 'lucide-react';

/** The LeadFlow mark and name; decorative icon, the name is the text. */
export function BrandLogo({
  className,
  compact = false,
}: {
  className?: string;
  compact?: boolean;
}) {
  return (
    <span className={cn('inline-flex items-center gap-2 font-semibold text-lg', className)}>
      <span className="flex size-8 shrink-0 items-center justify-center rounded-lg bg-primary text-primary-foreground">
        <TrendingUp className="size-4" aria-hidden="true" />
      </span>
      <span className={cn(compact && 'sr-only')}>LeadFlow</span>
    </span>
  );
}
