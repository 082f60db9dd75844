import { Button } from '@web/components/ui/button';
import { ConfirmDialog } from '@web/components/ui/confirm-dialog';
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
    <ConfirmDialog
      open={open}
      onOpenChange={setOpen}
      trigger={<Button variant="outline">Cancel Subscription</Button>}
      title="Cancel your subscription?"
      description={`You keep the leads you already have, but no new leads from ${packageName} will be assigned to you.`}
      confirmLabel="Cancel Subscription"
      cancelLabel="Keep Subscription"
      onConfirm={confirm}
      pending={cancel.isPending}
      destructive
    />
  );
}
