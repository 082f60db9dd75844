import type { AdminAgency } from '@shared/contracts/agency';
import { Badge } from '@web/components/ui/badge';
import { Button } from '@web/components/ui/button';
import { ConfirmDialog } from '@web/components/ui/confirm-dialog';
import { type DataColumn, DataTable, type DataTableProps } from '@web/components/ui/data-table';
import { EmailText } from '@web/components/ui/email-text';
import { toast } from '@web/components/ui/use-toast';
import { errorMessage } from '@web/lib/api-client';
import { useState } from 'react';
import { useSetAgencyStatus } from '../api';

const COLUMNS: DataColumn<AdminAgency>[] = [
  {
    header: 'Agency',
    phone: 'title',
    minWidth: 'min-w-32',
    cell: (agency) => <span className="font-medium">{agency.name}</span>,
  },
  {
    header: 'Status',
    phone: 'badge',
    nowrap: true,
    cell: (agency) => (
      <Badge
        variant={agency.status === 'ACTIVE' ? 'default' : 'destructive'}
        data-testid="agency-status"
        data-status={agency.status}
      >
        {agency.status === 'ACTIVE' ? 'Active' : 'Suspended'}
      </Badge>
    ),
  },
  {
    header: 'Owner',
    minWidth: 'min-w-32',
    cell: (agency) =>
      agency.owner ? (
        <>
          <div>{agency.owner.name}</div>
          <div className="text-muted-foreground text-xs">
            <EmailText email={agency.owner.email} />
          </div>
        </>
      ) : (
        <span className="text-muted-foreground">No owner</span>
      ),
  },
  { header: 'Members', nowrap: true, align: 'right', cell: (agency) => agency.members },
  { header: 'Paid Members', nowrap: true, align: 'right', cell: (agency) => agency.paidMembers },
  { header: 'Leads', nowrap: true, align: 'right', cell: (agency) => agency.leads },
  {
    header: 'Daily Cap',
    nowrap: true,
    align: 'right',
    cell: (agency) => agency.dailyCap ?? <span className="text-muted-foreground">None</span>,
  },
];

/** Suspend (after a question: what it stops) or Restore. */
function StatusAction({ agency }: { agency: AdminAgency }) {
  const setStatus = useSetAgencyStatus();
  const [open, setOpen] = useState(false);
  const done = (title: string) => () => {
    setOpen(false);
    toast({ title, description: agency.name });
  };
  const failed = (error: unknown) => {
    setOpen(false);
    toast({
      variant: 'destructive',
      title: 'Update failed',
      description: errorMessage(error, 'Failed to update the agency'),
    });
  };
  if (agency.status === 'SUSPENDED') {
    return (
      <Button
        size="sm"
        aria-label={`Restore ${agency.name}`}
        disabled={setStatus.isPending}
        onClick={() =>
          setStatus.mutate(
            { id: agency.id, status: 'ACTIVE' },
            { onSuccess: done('Agency restored'), onError: failed },
          )
        }
      >
        Restore
      </Button>
    );
  }
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={setOpen}
      trigger={
        <Button size="sm" variant="outline" aria-label={`Suspend ${agency.name}`}>
          Suspend
        </Button>
      }
      title={`Suspend ${agency.name}?`}
      description="Its members get no leads, and every package the agency pays is held until you restore it. Members cannot lift the hold."
      confirmLabel="Suspend"
      cancelLabel="Cancel"
      destructive
      pending={setStatus.isPending}
      testId="suspend-agency-dialog"
      onConfirm={() =>
        setStatus.mutate(
          { id: agency.id, status: 'SUSPENDED' },
          { onSuccess: done('Agency suspended'), onError: failed },
        )
      }
    />
  );
}

export function AdminAgenciesTable({
  agencies,
  view,
  error,
}: {
  agencies: AdminAgency[];
  view: DataTableProps<AdminAgency>['view'];
  error: DataTableProps<AdminAgency>['error'];
}) {
  return (
    <DataTable
      label="Agencies"
      columns={COLUMNS}
      rows={agencies}
      rowKey={(agency) => agency.id}
      rowTestId="agency-row"
      view={view}
      empty="No agencies yet"
      error={error}
      actions={{ header: 'Actions', cell: (agency) => <StatusAction agency={agency} /> }}
    />
  );
}
