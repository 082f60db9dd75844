import type { MyAgency } from '@shared/contracts/agency';
import { Button } from '@web/components/ui/button';
import { ConfirmDialog } from '@web/components/ui/confirm-dialog';
import { toast } from '@web/components/ui/use-toast';
import { errorMessage } from '@web/lib/api-client';
import { LogOut } from 'lucide-react';
import { useState } from 'react';
import { useLeaveAgency } from '../api';

/**
 * Leave agency, for every member: their leads not yet contacted go back to the agency, worked
 * ones stay theirs, and a package the agency paid ends. The owner with other members is refused
 * by the server (hand over first); the toast says so.
 */
export function LeaveAgencyButton({ mine }: { mine: MyAgency }) {
  const leave = useLeaveAgency();
  const [open, setOpen] = useState(false);
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={setOpen}
      trigger={
        <Button variant="outline" size="sm">
          <LogOut aria-hidden="true" />
          Leave agency
        </Button>
      }
      title={`Leave ${mine.agency.name}?`}
      description={
        <>
          Your leads not yet contacted go back to the agency; the leads you worked stay yours.
          {mine.paidByAgency && ' The package the agency pays for you ends.'}
        </>
      }
      confirmLabel="Leave agency"
      cancelLabel="Stay"
      destructive
      pending={leave.isPending}
      testId="leave-agency-dialog"
      onConfirm={() =>
        leave.mutate(undefined, {
          onSuccess: () => {
            setOpen(false);
            toast({ title: 'You left the agency', description: mine.agency.name });
          },
          onError: (error) => {
            setOpen(false);
            toast({
              variant: 'destructive',
              title: 'Could not leave',
              description: errorMessage(error, 'Failed to leave the agency'),
            });
          },
        })
      }
    />
  );
}
