import type { AgencyMember } from '@shared/contracts/agency';
import { AGENCY_ROLES, type AgencyRole } from '@shared/domain';
import { categoryLabel, packagePriceLabel } from '@shared/format';
import { useQuery } from '@tanstack/react-query';
import { Button } from '@web/components/ui/button';
import { ConfirmDialog } from '@web/components/ui/confirm-dialog';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '@web/components/ui/dialog';
import { Label } from '@web/components/ui/label';
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '@web/components/ui/select';
import { Separator } from '@web/components/ui/separator';
import { Spinner } from '@web/components/ui/spinner';
import { toast } from '@web/components/ui/use-toast';
import { packagesQuery } from '@web/features/packages/api';
import { errorMessage } from '@web/lib/api-client';
import { useState } from 'react';
import { agencyRoleLabel, managerChoices } from '../agency-display';
import { useEndMemberPackage, usePayMemberPackage, useRemoveMember, useUpdateMember } from '../api';

const OWNERS_OWN = 'OWNER_OWN';

const failed = (title: string, fallback: string) => (error: unknown) =>
  toast({ variant: 'destructive', title, description: errorMessage(error, fallback) });

/**
 * Remove a member (OWNER: anyone else; MANAGER: their own team): their leads not yet contacted go
 * back to the agency, the worked ones stay with them, and what the agency paid for them ends.
 */
export function RemoveMemberButton({
  member,
  onDone,
}: {
  member: AgencyMember;
  onDone?: () => void;
}) {
  const remove = useRemoveMember();
  const [open, setOpen] = useState(false);
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={setOpen}
      trigger={
        <Button variant="outline" size="sm" aria-label={`Remove ${member.name}`}>
          Remove
        </Button>
      }
      title={`Remove ${member.name} from the agency?`}
      description="Their leads not yet contacted go back to the agency; the leads they worked stay theirs. A package the agency pays for them ends."
      confirmLabel="Remove"
      cancelLabel="Keep"
      destructive
      pending={remove.isPending}
      testId="remove-member-dialog"
      onConfirm={() =>
        remove.mutate(member.userId, {
          onSuccess: () => {
            setOpen(false);
            toast({ title: 'Member removed', description: member.name });
            onDone?.();
          },
          onError: failed('Could not remove', 'Failed to remove the member'),
        })
      }
    />
  );
}

/** Role and manager; choosing Owner hands the agency over, after a question. */
function RoleAndManager({
  member,
  members,
  onDone,
}: {
  member: AgencyMember;
  members: AgencyMember[];
  /** the change is made: the dialog closes, the table shows it */
  onDone: () => void;
}) {
  const update = useUpdateMember();
  const [role, setRole] = useState<AgencyRole>(member.role);
  const managers = managerChoices(members).filter(
    (m) => m.userId !== member.userId && m.role === 'MANAGER',
  );
  // the owner as manager is the owner's own team
  const [managerId, setManagerId] = useState(
    managers.some((m) => m.userId === member.manager?.id) ? String(member.manager?.id) : OWNERS_OWN,
  );
  const [handOver, setHandOver] = useState(false);
  const isOwner = member.role === 'OWNER';

  function save() {
    if (role === 'OWNER') {
      setHandOver(true);
      return;
    }
    update.mutate(
      {
        userId: member.userId,
        role,
        managerId: role === 'AGENT' && managerId !== OWNERS_OWN ? Number(managerId) : null,
      },
      {
        onSuccess: () => {
          toast({ title: 'Member updated', description: member.name });
          onDone();
        },
        onError: failed('Update failed', 'Failed to update the member'),
      },
    );
  }

  if (isOwner) {
    return (
      <p className="text-muted-foreground text-sm">
        The owner keeps this role until they hand the agency over to another member.
      </p>
    );
  }
  return (
    <div className="grid gap-3">
      <div className="grid gap-3 sm:grid-cols-2">
        <div className="grid gap-2">
          <Label htmlFor="member-role">Role</Label>
          <Select value={role} onValueChange={(value) => setRole(value as AgencyRole)}>
            <SelectTrigger id="member-role" className="w-full">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              {AGENCY_ROLES.map((r) => (
                <SelectItem key={r} value={r}>
                  {r === 'OWNER' ? 'Owner (hand over)' : agencyRoleLabel(r)}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
        {role === 'AGENT' && (
          <div className="grid gap-2">
            <Label htmlFor="member-manager">Manager</Label>
            <Select value={managerId} onValueChange={setManagerId}>
              <SelectTrigger id="member-manager" className="w-full">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                <SelectItem value={OWNERS_OWN}>The owner</SelectItem>
                {managers.map((m) => (
                  <SelectItem key={m.userId} value={String(m.userId)}>
                    {m.name}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </div>
        )}
      </div>
      <Button className="w-full sm:w-fit" onClick={save} disabled={update.isPending}>
        {update.isPending && <Spinner />}
        Save role
      </Button>
      <ConfirmDialog
        open={handOver}
        onOpenChange={setHandOver}
        title={`Hand the agency over to ${member.name}?`}
        description={`${member.name} becomes the owner: they manage members, pay packages and change the settings. You become a manager and can no longer undo this yourself.`}
        confirmLabel="Hand over"
        cancelLabel="Cancel"
        destructive
        pending={update.isPending}
        testId="hand-over-dialog"
        onConfirm={() =>
          update.mutate(
            { userId: member.userId, role: 'OWNER' },
            {
              onSuccess: () => {
                setHandOver(false);
                toast({ title: 'Agency handed over', description: `${member.name} is the owner` });
                onDone();
              },
              onError: (error) => {
                setHandOver(false);
                failed('Hand-over failed', 'Failed to hand the agency over')(error);
              },
            },
          )
        }
      />
    </div>
  );
}

/** The package the agency pays for the member: pick one and pay, or end the payment. */
function AgencyPaidPackage({ member, onDone }: { member: AgencyMember; onDone: () => void }) {
  const packages = useQuery(packagesQuery);
  // the agency pays monthly packages; a pay-per-lead one is paid from the member's own wallet
  const monthly = (packages.data ?? []).filter((p) => p.pricing === 'SUBSCRIPTION');
  const pay = usePayMemberPackage();
  const end = useEndMemberPackage();
  const [packageId, setPackageId] = useState(
    member.paidByAgency && member.package ? String(member.package.id) : '',
  );
  const [ending, setEnding] = useState(false);

  function payPackage() {
    pay.mutate(
      { userId: member.userId, packageId: Number(packageId) },
      {
        onSuccess: (answer) => {
          if ('checkoutUrl' in answer) {
            window.location.assign(answer.checkoutUrl);
            return;
          }
          toast({
            title: 'Package paid by the agency',
            description: `${member.name}: ${answer.package?.name ?? 'package'}`,
          });
          onDone();
        },
        onError: failed('Payment failed', 'Failed to pay the package'),
      },
    );
  }

  return (
    <div className="grid gap-3">
      <p className="text-sm">
        {member.paidByAgency && member.package
          ? `The agency pays ${member.package.name}.`
          : member.package
            ? `${member.name} pays ${member.package.name} themself.`
            : `${member.name} has no package.`}
      </p>
      <div className="grid gap-2">
        <Label htmlFor="member-package">Package</Label>
        <Select value={packageId} onValueChange={setPackageId}>
          <SelectTrigger id="member-package" className="w-full">
            <SelectValue
              placeholder={packages.isPending ? 'Loading packages...' : 'Choose a package'}
            />
          </SelectTrigger>
          <SelectContent>
            {monthly.map((p) => (
              <SelectItem key={p.id} value={String(p.id)}>
                {p.name} · {categoryLabel(p.category)} · {packagePriceLabel(p)}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
        <p className="text-muted-foreground text-xs" data-testid="member-package-hint">
          The agency pays monthly packages. A pay-per-lead package is paid from the member&apos;s
          own wallet.
        </p>
      </div>
      <div className="flex flex-wrap gap-2">
        <Button onClick={payPackage} disabled={!packageId || pay.isPending}>
          {pay.isPending && <Spinner />}
          Pay this package
        </Button>
        {member.paidByAgency && (
          <ConfirmDialog
            open={ending}
            onOpenChange={setEnding}
            trigger={<Button variant="outline">End the agency&apos;s payment</Button>}
            title={`Stop paying ${member.name}'s package?`}
            description="Their subscription is canceled; they may subscribe on their own again."
            confirmLabel="End payment"
            cancelLabel="Keep paying"
            destructive
            pending={end.isPending}
            testId="end-package-dialog"
            onConfirm={() =>
              end.mutate(member.userId, {
                onSuccess: () => {
                  setEnding(false);
                  toast({ title: 'Payment ended', description: member.name });
                  onDone();
                },
                onError: (error) => {
                  setEnding(false);
                  failed('Could not end the payment', 'Failed to end the payment')(error);
                },
              })
            }
          />
        )}
      </div>
    </div>
  );
}

/** The owner's actions on one member: role and manager, the package the agency pays, remove. */
export function ManageMemberDialog({
  member,
  members,
  isSelf,
}: {
  member: AgencyMember;
  members: AgencyMember[];
  isSelf: boolean;
}) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button size="sm" variant="outline" aria-label={`Manage ${member.name}`}>
          Manage
        </Button>
      </DialogTrigger>
      <DialogContent className="max-h-[90svh] overflow-y-auto" data-testid="manage-member-dialog">
        <DialogHeader>
          <DialogTitle>{member.name}</DialogTitle>
          <DialogDescription>
            {agencyRoleLabel(member.role)} · {member.email}
          </DialogDescription>
        </DialogHeader>
        <section className="grid gap-3" aria-labelledby="manage-role">
          <h3 id="manage-role" className="font-medium">
            Role and manager
          </h3>
          <RoleAndManager member={member} members={members} onDone={() => setOpen(false)} />
        </section>
        <Separator />
        <section className="grid gap-3" aria-labelledby="manage-package">
          <h3 id="manage-package" className="font-medium">
            Package paid by the agency
          </h3>
          <AgencyPaidPackage member={member} onDone={() => setOpen(false)} />
        </section>
        {!isSelf && (
          <>
            <Separator />
            <section className="flex flex-wrap items-center justify-between gap-3">
              <p className="text-muted-foreground text-sm">Remove them from the agency.</p>
              <RemoveMemberButton member={member} onDone={() => setOpen(false)} />
            </section>
          </>
        )}
      </DialogContent>
    </Dialog>
  );
}
