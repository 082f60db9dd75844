import { Button } from '@web/components/ui/button';
import { ConfirmDialog } from '@web/components/ui/confirm-dialog';
import { toast } from '@web/components/ui/use-toast';
import { errorMessage } from '@web/lib/api-client';
import { RefreshCw } from 'lucide-react';
import { useState } from 'react';
import { useRotateWebhookSecret } from '../api';

/** Makes a new signing secret after a confirmation; the old one still signs for 24 hours. */
export function RotateSecretButton() {
  const [open, setOpen] = useState(false);
  const rotate = useRotateWebhookSecret();

  function confirm() {
    rotate.mutate(undefined, {
      onSuccess: () => {
        setOpen(false);
        toast({
          title: 'New signing secret made',
          description:
            'Copy it into your CRM now. For 24 hours each request is signed with the old secret too.',
        });
      },
      onError: (error) => {
        toast({
          variant: 'destructive',
          title: 'Rotation failed',
          description: errorMessage(error, 'The secret was not rotated'),
        });
      },
    });
  }

  return (
    <ConfirmDialog
      open={open}
      onOpenChange={setOpen}
      trigger={
        <Button type="button" variant="outline" size="sm">
          <RefreshCw aria-hidden="true" />
          Rotate secret
        </Button>
      }
      title="Rotate the signing secret?"
      description="A new secret is made. For 24 hours every request is signed with both the old and the new secret, so your CRM keeps accepting them while you change it over; after that, only the new one."
      confirmLabel="Rotate secret"
      cancelLabel="Keep the secret"
      onConfirm={confirm}
      pending={rotate.isPending}
      testId="rotate-secret-dialog"
    />
  );
}
