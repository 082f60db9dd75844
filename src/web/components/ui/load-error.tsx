import { RotateCw } from 'lucide-react';
import { Button } from './button';
import { Spinner } from './spinner';

/**
 * A list or panel that failed to load: what failed, and Retry. While the retry runs the button
 * stays (aria-disabled, so a keyboard user keeps the focus on it) and says so.
 */
export function LoadError({
  message,
  onRetry,
  retrying,
}: {
  message: string;
  onRetry: () => void;
  retrying: boolean;
}) {
  return (
    <div
      className="flex flex-col items-center gap-3 px-6 py-10 text-center"
      data-testid="load-error"
    >
      <p role="alert" className="text-destructive text-sm">
        {message}
      </p>
      <Button
        variant="outline"
        size="sm"
        aria-disabled={retrying || undefined}
        onClick={() => {
          if (!retrying) onRetry();
        }}
      >
        {retrying ? <Spinner /> : <RotateCw aria-hidden="true" />}
        {retrying ? 'Retrying...' : 'Retry'}
      </Button>
    </div>
  );
}
