import { Spinner } from '@web/components/ui/spinner';
import { cn } from '@web/lib/utils';

/** Centred spinner while a screen or the current user loads. */
export function PageSpinner({ fullScreen = false }: { fullScreen?: boolean }) {
  return (
    <div
      role="status"
      aria-live="polite"
      data-testid="page-spinner"
      className={cn(
        'flex w-full items-center justify-center p-8',
        fullScreen ? 'min-h-svh' : 'min-h-[40vh]',
      )}
    >
      <Spinner className="size-8 text-muted-foreground" label="Loading" />
    </div>
  );
}
