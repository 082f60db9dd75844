import { Button } from '@web/components/ui/button';
import { Spinner } from '@web/components/ui/spinner';
import { toast } from '@web/components/ui/use-toast';
import { errorMessage } from '@web/lib/api-client';
import { Play } from 'lucide-react';
import { useRunAssignment } from '../api';
import { runSummary } from '../run-summary';

/** 'Run assignment now': runs the engine at once and tells the outcome in a toast. */
export function RunAssignmentButton() {
  const run = useRunAssignment();
  return (
    <Button
      type="button"
      size="sm"
      variant="outline"
      disabled={run.isPending}
      aria-busy={run.isPending}
      onClick={() =>
        run.mutate(undefined, {
          onSuccess: (result) =>
            toast({ title: 'Assignment run complete', description: runSummary(result) }),
          onError: (error) =>
            toast({
              variant: 'destructive',
              title: 'Assignment run failed',
              description: errorMessage(error, 'Failed to run the assignment'),
            }),
        })
      }
    >
      {run.isPending ? <Spinner /> : <Play aria-hidden="true" />}
      {run.isPending ? 'Running...' : 'Run assignment now'}
    </Button>
  );
}
