import { Button } from '@web/components/ui/button';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '@web/components/ui/dialog';
import { Spinner } from '@web/components/ui/spinner';
import { toast } from '@web/components/ui/use-toast';
import { errorMessage } from '@web/lib/api-client';
import { useState } from 'react';
import { useCancelSubscription } from '../subscription-api';

/** Cancels the subscription after a confirmation: no leads are assigned afterwards. */
export function CancelSubscriptionButton({ packageName }: { packageName: string }) {
  const [open, setOpen] = useState(false);
  const cancel = useCancelSubscription();

  function confirm() {
    cancel.mutate(undefined, {
      onSuccess: () => {
        setOpen(false);
        toast({
          title: 'Subscription canceled',
          description: 'You will not receive new leads until you subscribe again.',
        });
      },
      onError: (error) => {
        toast({
          variant: 'destructive',
          title: 'Cancel failed',
          description: errorMessage(error, 'Failed to cancel subscription'),
        });
      },
    });
  }

  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant="outline">Cancel Subscription</Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Cancel your subscription?</DialogTitle>
          <DialogDescription>
            You keep the leads you already have, but no new leads from {packageName} will be
            assigned to you.
          </DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline" disabled={cancel.isPending}>
              Keep Subscription
            </Button>
          </DialogClose>
          <Button variant="destructive" onClick={confirm} disabled={cancel.isPending}>
            {cancel.isPending && <Spinner />}
            Cancel Subscription
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
